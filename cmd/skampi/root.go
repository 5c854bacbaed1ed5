package main

import (
	"github.com/skampi/skampi/job"
	"github.com/spf13/cobra"
)

func newRootCmd() *cobra.Command {
	o := &job.Options{}
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
			if o.Suite == "" {
				return cmd.Help()
			}
			return runSuite(cmd, o)
		},
	}
	addRunFlags(root.Flags(), o)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		c.PrintErrln(c.UsageString())
		return &exitError{Code: 2, Err: err}
	})
	root.AddCommand(newRunCmd(), newListCmd(), newCheckCmd(), newValidateCmd(), newPlotCmd(), newReportCmd(), newCompareCmd(), newAnalyzeCmd(),
		newExportCmd(), newClockCmd(), newVersionCmd())
	return root
}
