package main

import (
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/internal/numflag"
	"github.com/skampi/skampi/job"
)

// maxLaunches bounds --launches: each is a job of its own.
const maxLaunches = 10_000

func newStartupCmd() *cobra.Command {
	o := &job.StartupOptions{}
	cmd := &cobra.Command{
		Use:   "startup [--np 2,4] [--launches 10] [--shmem] [-o DIR]",
		Short: "Start-up time: MPI_Init (and shmem_init) per process count, across launches",
		Long: "startup launches a job that only starts and ends (osu_hello) --launches times at\n" +
			"each process count of --np. Every rank times its own MPI_Init (osu_init), and with\n" +
			"--shmem shmem_init after it; skampi adds the launcher's wall time and each rank's\n" +
			"time from the launcher's start to its return from MPI_Init. It prints a row per\n" +
			"process count (medians over launches) and with -o appends one record per launch\n" +
			"to DIR/startup.jsonl, after a run header per process count. It launches itself:\n" +
			"run it outside mpirun or srun.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Valid(); err != nil {
				return cli.UsageError(err)
			}
			o.Version, o.Env = versionString(), os.Environ()
			o.Stdout, o.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return job.Startup(*o)
		},
	}
	fl := cmd.Flags()
	numflag.Ints(fl, &o.NPs, "np", []int{2}, 1, job.MaxSelfLaunch, "process counts, each launched --launches times")
	numflag.Int(fl, &o.Launches, "launches", 10, 1, maxLaunches, "launches per process count (each a sample)")
	fl.BoolVar(&o.Shmem, "shmem", false, "also time shmem_init, after MPI_Init")
	numflag.Duration(fl, &o.Timeout, "timeout", 2*time.Minute, 0, 24*time.Hour, true, "a launch not ended by then is ended and reported")
	fl.StringVarP(&o.Out, "output", "o", "", "directory for startup.jsonl")
	return cmd
}

// newStartupProbeCmd is what `skampi startup` launches on every rank.
func newStartupProbeCmd() *cobra.Command {
	o := &job.ProbeOptions{}
	cmd := &cobra.Command{
		Use:    "startup-probe",
		Short:  "One rank of a start-up measurement (launched by skampi startup)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Version, o.Stdout = versionString(), cmd.OutOrStdout()
			return job.StartupProbe(*o)
		},
	}
	cmd.Flags().BoolVar(&o.Shmem, "shmem", false, "also time shmem_init")
	return cmd
}
