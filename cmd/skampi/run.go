package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
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
	return selfLaunch(plan, o)
}

// selfLaunch runs the suite under mpirun on this machine. When the job dies in a point
// (a hang the watchdog ended, or a crash) and results go to a directory, it resumes the
// run, so one command still measures everything that can be measured. A crash is blamed
// on a point only when the job dies in the same point twice; until then it may have
// been something else (a killed process) and the point is measured again.
func selfLaunch(plan *inputs.Plan, o *runOptions) error {
	mpirun, err := launch.FindMPIRun()
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the skampi executable: %w", err)
	}
	args := os.Args[1:]
	var newRuns []string
	var suspect *record.Key
	for restarts := 0; ; restarts++ {
		before, _ := loadState(o.out)
		cmd := launch.Command(mpirun, self, args, os.Environ(),
			launch.Options{NP: o.np, Cores: runtime.NumCPU(), Root: os.Geteuid() == 0})
		code, sig, err := runForwardingSignals(cmd)
		if err != nil {
			return fmt.Errorf("%s: %w", mpirun, err)
		}
		after, _ := loadState(o.out)
		newRuns = append(newRuns, after.runsSince(before)...)
		if sig != 0 {
			// mpirun may have dropped the ranks' last words: say it here too.
			where := ""
			if o.out != "" {
				where = fmt.Sprintf("; %d point(s) in %s (--resume continues)", len(after.res.Points), o.out)
			}
			fmt.Fprintf(os.Stderr, "\nskampi: interrupted by %s%s\n", sigName(sig), where)
			return &exitError{code: exitSignal + int(sig), quiet: true}
		}
		if code == 0 {
			break
		}
		// Resume after a hang (the watchdog's status) or a death by signal (a crash, a
		// killed rank); skampi's own errors (status 1) would only fail again.
		if o.out == "" || o.maxRestarts == 0 || (code != exitTimeout && code < exitSignal) {
			return &exitError{code: code, quiet: true}
		}
		if len(after.runsSince(before)) == 0 {
			return fmt.Errorf("the job failed (exit status %d) before measuring anything", code)
		}
		key, index := after.firstMissing(plan, o.np)
		if key == nil {
			return &exitError{code: code, quiet: true} // every point is recorded: nothing to resume
		}
		what, then := "hung", "recorded as a timeout, resuming"
		if code == exitTimeout {
			if f := after.lastFault(record.FaultTimeout); f != nil {
				k := f.Key()
				key = &k
			}
		} else {
			what, then = "died (exit status "+strconv.Itoa(code)+")", "measuring it again"
			if suspect != nil && *suspect == *key {
				if err := recordCrash(o.out, after.lastRun(), key, index, code); err != nil {
					return err
				}
				what, then = "died again (exit status "+strconv.Itoa(code)+")", "recorded as a crash, resuming"
			}
			suspect = key
		}
		if restarts >= o.maxRestarts {
			return fmt.Errorf("the job %s in %s, %d bytes, after %d restarts (--max-restarts); the results so far are in %s",
				what, key.Op, key.MsgBytes, restarts, o.out)
		}
		fmt.Fprintf(os.Stderr, "\nskampi: the job %s in %s %q, %d bytes; %s (restart %d of at most %d)\n\n",
			what, key.Op, key.Measurement, key.MsgBytes, then, restarts+1, o.maxRestarts)
		if !slices.Contains(args, "--resume") {
			args = append(args, "--resume")
		}
	}
	if final, err := loadState(o.out); err == nil {
		final.summarise(os.Stderr, newRuns)
	}
	return nil
}

// runForwardingSignals runs cmd and passes SIGINT/SIGTERM on to it (mpirun then ends
// the ranks); it returns the exit status and the signal received, if any.
func runForwardingSignals(cmd *exec.Cmd) (int, syscall.Signal, error) {
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var got atomic.Int32
	go func() {
		for s := range sigs {
			got.Store(int32(s.(syscall.Signal)))
			cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	var xe *exec.ExitError
	if errors.As(err, &xe) {
		return max(1, xe.ExitCode()), syscall.Signal(got.Load()), nil
	}
	return 0, syscall.Signal(got.Load()), err
}
