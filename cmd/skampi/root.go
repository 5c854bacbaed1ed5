package main

import (
	"fmt"
	"strings"

	"github.com/skampi/skampi/job"
	"github.com/spf13/cobra"
)

func newRootCmd() *cobra.Command {
	c := &job.Command{}
	var showVersion bool
	root := &cobra.Command{
		Use:   "skampi -i SUITE [-o DIR]",
		Short: "SKaMPI-style communication benchmarks for MPI",
		Long: "skampi measures MPI operations the way SKaMPI does (global-loop timers, SKaMPI's\n" +
			"stop rule, synchronised repetitions) and writes self-describing records.\n\n" +
			"Run under mpirun/srun, or alone: it then starts `mpirun -np 2` itself.",
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if showVersion {
				job.PrintVersion(cmd.OutOrStdout(), version, commit)
				return nil
			}
			if c.Suite == "" {
				return cmd.Help()
			}
			return job.RunCommand(runCommand(cmd, c))
		},
	}
	addRunFlags(root.Flags(), &c.Options)
	// Not cobra's Version field: its --version prints a template, and this prints what
	// `skampi version` does, the MPI library included.
	root.Flags().BoolVar(&showVersion, "version", false, "print the version and build (as skampi version) and exit")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError(fmt.Errorf("%s%w", verb(c), err))
	})
	root.AddCommand(newRunCmd(), newListCmd(), newCheckCmd(), newValidateCmd(), newPlotCmd(), newReportCmd(), newCompareCmd(), newHistoryCmd(), newAnalyzeCmd(),
		newExportCmd(), newClockCmd(), newStartupCmd(), newStartupProbeCmd(), newVersionCmd(), newTuneCmd(), newDocsCmd())
	usageArgs(root)
	addCompletions(root)
	return root
}

// usageArgs makes a wrong count of arguments a usage mistake (exit status 2), on every
// command, and a command with subcommands refuse an unknown one the same way.
func usageArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usageError(fmt.Errorf("%s%v", verb(cmd), err))
			}
			return nil
		}
	}
	if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError(fmt.Errorf("%sunknown command %q", verb(cmd), args[0]))
			}
			return cmd.Help()
		}
		c.Args = cobra.ArbitraryArgs
	}
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
}

// verb is "clock check: " for skampi clock check, "" for skampi itself (main prefixes
// every message with "skampi: ").
func verb(cmd *cobra.Command) string {
	if !cmd.HasParent() {
		return ""
	}
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ") + ": "
}
