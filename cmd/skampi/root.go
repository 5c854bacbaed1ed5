package main

import (
	"github.com/skampi/skampi/internal/cli"
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
	root.SetFlagErrorFunc(cli.FlagError)
	root.AddCommand(newRunCmd(), newListCmd(), newCheckCmd(), newValidateCmd(), newPlotCmd(), newReportCmd(), newCompareCmd(), newHistoryCmd(), newAnalyzeCmd(),
		newExportCmd(), newClockCmd(), newStartupCmd(), newStartupProbeCmd(), newVersionCmd(), newTuneCmd(), newDocsCmd())
	cli.UsageArgs(root)
	cli.AddCompletions(root)
	return root
}
