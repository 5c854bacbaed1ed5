package main

import (
	"github.com/spf13/cobra"

	"github.com/skampi/skampi/internal/cli"
)

// newDocsCmd writes the CLI reference (Markdown and man pages) from the commands
// themselves, and the SKaMPI coverage table from the catalogue: `skampi docs` in the
// repository regenerates docs/cli, docs/man and docs/skampi-coverage.md.
func newDocsCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:    "docs [--dir docs]",
		Short:  "Write the CLI reference (Markdown in DIR/cli, man pages in DIR/man) and DIR/skampi-coverage.md",
		Args:   cobra.NoArgs,
		Hidden: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return writeDocs(dir)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "docs", "the directory to write cli/, man/ and skampi-coverage.md into")
	return cmd
}

// writeDocs is skampi docs: the reference of every command newRootCmd makes.
func writeDocs(dir string) error { return cli.WriteDocs(newRootCmd(), dir) }
