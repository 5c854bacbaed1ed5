package main

import (
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/internal/numflag"
	"github.com/skampi/skampi/job"
)

func newClockCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "clock",
		Short: "Clock synchronisation tools",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	o := &job.ClockOptions{}
	check := &cobra.Command{
		Use:   "check [--algorithm hca|skampi] [--duration 10s] [-o DIR]",
		Short: "Synchronise the clocks, then measure every rank's residual offset and drift",
		Long: "check fits every rank's clock to rank 0's with the chosen algorithm, then, every\n" +
			"--interval for --duration, measures each rank's residual offset: its global time\n" +
			"minus rank 0's clock, from the fastest of a few ping-pongs. It prints the residual\n" +
			"offset and its drift per rank, and with -o writes DIR/clock.jsonl.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Valid(); err != nil {
				return cli.UsageError(err)
			}
			o.Args, o.Version = os.Args[1:], versionString()
			o.Stdout, o.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return job.ClockCheck(*o)
		},
	}
	fl := check.Flags()
	numflag.Int(fl, &o.NP, "np", 2, 2, job.MaxSelfLaunch, "processes to start when skampi launches mpirun itself")
	fl.StringVar(&o.Algorithm, "algorithm", "hca", `"hca" (hierarchical, offset and drift) or "skampi" (offset bounds)`)
	numflag.Duration(fl, &o.Duration, "duration", 10*time.Second, 0, 24*time.Hour, false, "how long to keep checking after the synchronisation")
	numflag.Duration(fl, &o.Interval, "interval", time.Second, 0, time.Hour, true, "time between checks")
	fl.StringVarP(&o.Out, "output", "o", "", "directory for clock.jsonl")
	cmd.AddCommand(check)
	return cmd
}
