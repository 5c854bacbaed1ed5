package main

import (
	"github.com/skampi/skampi/job"
	"github.com/spf13/cobra"
)

// version and commit are stamped by make (-ldflags "-X main.version=0.24.0 -X
// main.commit=4bb13d3", from scripts/version.sh); job.VersionCommit fills in a plain
// `go build`'s.
var version, commit string

// versionString is "0.24.0 (commit 4bb13d3)": the run header's skampi_version.
func versionString() string { return job.VersionString(version, commit) }

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print skampi's version and what it was built with (also skampi --version)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			job.PrintVersion(cmd.OutOrStdout(), version, commit)
			return nil
		},
	}
}
