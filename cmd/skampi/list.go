package main

import (
	"fmt"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/job"
	"github.com/spf13/cobra"
)

func newListCmd() *cobra.Command {
	var o inputs.ListOptions
	cmd := &cobra.Command{
		Use:   "list [--skampi | --suites] [PATTERN]",
		Short: "List the operations, one per line: name, then what it measures",
		Long: "list prints every operation, or those whose name matches PATTERN, case-insensitive:\n" +
			"a glob (Pingpong_*, *put*) when it holds *, ? or [, otherwise a part of the name\n" +
			"(allreduce). No match is exit status 1.\n\n" +
			"With --skampi it prints SKaMPI 6's measurement functions instead, each with the skampi\n" +
			"operation [method], setting that measures the same thing and a note, or \"not yet\" or\n" +
			"\"not measured\" and why; then the counts. PATTERN matches the SKaMPI name or the\n" +
			"operation.\n\n" +
			"With --suites it prints the names of the built-in suites (skampi -i NAME), one per\n" +
			"line, those matching PATTERN: what a script runs to cover every one.",
		Example: "  skampi list put\n  skampi list 'Pingpong_*'\n  skampi list --skampi 'Win_*'\n  skampi list --suites",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Pattern = args[0]
			}
			if err := o.Valid(); err != nil {
				return cli.UsageError(fmt.Errorf("list: %v", err))
			}
			o.Refused, o.Stdout = job.Refused, cmd.OutOrStdout()
			return inputs.List(o)
		},
	}
	cmd.Flags().BoolVar(&o.Skampi, "skampi", false, "list SKaMPI 6's measurement functions and what measures each in skampi")
	cmd.Flags().BoolVar(&o.Suites, "suites", false, "list the built-in suites' names, one per line")
	return cmd
}
