package main

import (
	"errors"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/skampi/skampi/job"
)

// addRunFlags binds the flags of a suite run (root command and `run`) to o.
func addRunFlags(fs *pflag.FlagSet, o *job.Options) {
	fs.StringVarP(&o.Suite, "input", "i", "", "suite file, or the name of a built-in suite (quick, pt2pt, coll)")
	fs.StringVarP(&o.Out, "output", "o", "", "directory for results.jsonl, results.csv and results.sko (appended)")
	fs.IntVar(&o.NP, "np", 2, "processes to start when skampi launches mpirun itself")
	fs.BoolVar(&o.Resume, "resume", false, "continue the run in -o DIR: measure only the points it does not hold yet")
	fs.BoolVar(&o.Force, "force", false, "with --resume: continue even if -o DIR holds results of a different suite")
	fs.BoolVar(&o.AllowBroken, "allow-broken", false, "run routines on the known-broken list anyway (for testing a fixed library)")
	fs.IntVar(&o.MaxRestarts, "max-restarts", 5, "when skampi launched mpirun itself: restarts after a hang or a crash")
	fs.StringVar(&o.ThreadLevel, "thread-level", "default", "MPI thread level: default (MPI_Init, like the C benchmarks), single, funneled, serialized or multiple (MPI_Init_thread)")
}

// runSuite completes the options with what comes from outside the flags and runs.
func runSuite(cmd *cobra.Command, o *job.Options) error {
	o.Version, o.Args, o.Env = version, os.Args[1:], os.Environ()
	o.Stdout, o.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
	return job.Run(*o)
}

func newRunCmd() *cobra.Command {
	o := &job.Options{}
	cmd := &cobra.Command{
		Use:   "run -i SUITE [-o DIR]",
		Short: "Run a suite (the same as `skampi -i SUITE`)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Suite == "" {
				return &exitError{Code: 2, Err: errors.New("run: -i SUITE is required")}
			}
			return runSuite(cmd, o)
		},
	}
	addRunFlags(cmd.Flags(), o)
	return cmd
}
