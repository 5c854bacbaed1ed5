package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// runOptions are the flags of a suite run (root command and `run`).
type runOptions struct {
	suite       string
	out         string
	np          int
	resume      bool
	allowBroken bool
	maxRestarts int
}

func addRunFlags(fs *pflag.FlagSet, o *runOptions) {
	fs.StringVarP(&o.suite, "input", "i", "", "suite file, or the name of a built-in suite (quick, pt2pt, coll)")
	fs.StringVarP(&o.out, "output", "o", "", "directory for results.jsonl, results.csv and results.sko (appended)")
	fs.IntVar(&o.np, "np", 2, "processes to start when skampi launches mpirun itself")
	fs.BoolVar(&o.resume, "resume", false, "continue the run in -o DIR: measure only the points it does not hold yet")
	fs.BoolVar(&o.allowBroken, "allow-broken", false, "run routines on the known-broken list anyway (for testing a fixed library)")
	fs.IntVar(&o.maxRestarts, "max-restarts", 5, "when skampi launched mpirun itself: restarts after a hang or a crash")
}

func newRootCmd() *cobra.Command {
	o := &runOptions{}
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
			if o.suite == "" {
				return cmd.Help()
			}
			return runSuite(o)
		},
	}
	addRunFlags(root.Flags(), o)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		c.PrintErrln(c.UsageString())
		return &exitError{code: 2, err: err}
	})
	root.AddCommand(newRunCmd(), newListCmd(), newCheckCmd(), newValidateCmd(), newPlotCmd(), newReportCmd(), newCompareCmd(), newAnalyzeCmd(),
		newExportCmd(), newClockCmd(), newVersionCmd())
	return root
}
