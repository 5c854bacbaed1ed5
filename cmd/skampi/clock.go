package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/clocksync"
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
			if _, err := clocksync.New(o.Algorithm); err != nil {
				return usageError(err)
			}
			if err := checkSchedule(o.Duration, o.Interval); err != nil {
				return usageError(err)
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

// Bounds of a clock check's schedule: every check is a round of ping-pongs with every
// rank that all ranks make together, so their number is fixed before the first, and
// one takes about a millisecond.
const (
	minCheckInterval = time.Millisecond
	maxChecks        = 10000
)

// checkSchedule says why --duration and --interval cannot be run as asked.
func checkSchedule(duration, interval time.Duration) error {
	switch {
	case duration < 0:
		return fmt.Errorf("--duration must be 0 or more, got %v", duration)
	case interval < minCheckInterval:
		return fmt.Errorf("--interval must be at least %v (a check is a round of ping-pongs with every rank), got %v", minCheckInterval, interval)
	case duration/interval+1 > maxChecks:
		return fmt.Errorf("--interval %v over --duration %v makes %d checks, at most %d: raise --interval or shorten --duration", interval, duration, duration/interval+1, maxChecks)
	}
	return nil
}
