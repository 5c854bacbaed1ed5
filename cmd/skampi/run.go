package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/runner"
	"github.com/spf13/cobra"
)

func newRunCmd() *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run -i SUITE [-o DIR]",
		Short: "Run a suite (the same as `skampi -i SUITE`)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if o.suite == "" {
				return &exitError{code: 2, err: errors.New("run: -i SUITE is required")}
			}
			return runSuite(o)
		},
	}
	addRunFlags(cmd.Flags(), o)
	return cmd
}

// runSuite validates the suite, then either runs it as one rank of a parallel job or,
// outside a launcher, starts mpirun on itself.
func runSuite(o *runOptions) error {
	env := os.Environ()
	under := launch.UnderLauncher(env)
	plan, err := inputs.Load(o.suite)
	if err != nil {
		if under && launch.Rank(env) != 0 {
			return &exitError{code: 1, quiet: true} // rank 0 reports it
		}
		return err
	}
	if under {
		return runJob(plan, o)
	}
	if o.np < 1 {
		return &exitError{code: 2, err: fmt.Errorf("--np must be at least 1, got %d", o.np)}
	}
	if err := runner.Check(plan, o.np); err != nil {
		return err // before starting mpirun: a plain error, not a failed job
	}
	return selfLaunch(o)
}

func selfLaunch(o *runOptions) error {
	mpirun, err := launch.FindMPIRun()
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the skampi executable: %w", err)
	}
	cmd := launch.Command(mpirun, self, os.Args[1:], os.Environ(),
		launch.Options{NP: o.np, Cores: runtime.NumCPU(), Root: os.Geteuid() == 0})
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", mpirun, err)
	}
	// A batch system's SIGTERM, or Ctrl-C, goes on to mpirun, which ends the ranks.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	err = cmd.Wait()
	var xe *exec.ExitError
	if errors.As(err, &xe) {
		return &exitError{code: max(1, xe.ExitCode()), quiet: true}
	}
	if err != nil {
		return fmt.Errorf("waiting for %s: %w", mpirun, err)
	}
	return nil
}
