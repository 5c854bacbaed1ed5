package job

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
)

// Launcher runs the job once with the given arguments and returns its exit status and
// the signal this process received meanwhile (0 if none).
type Launcher func(args []string) (code int, sig syscall.Signal, err error)

// MPIRun is the Launcher of a self-launch: mpirun on this machine running this very
// executable with opts.NP processes, signals passed on.
// quiet is how long the results may go without a new record before the launcher
// takes the whole job for stopped (0: not watched).
func MPIRun(o Options, quiet time.Duration) (Launcher, error) {
	mpirun, err := launch.FindLauncher(mpi.Build)
	if err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the skampi executable: %w", err)
	}
	return launcher(mpirun, self, o, quiet), nil
}

// launcher runs self under the launcher at path mpirun.
func launcher(mpirun, self string, o Options, quiet time.Duration) Launcher {
	return func(args []string) (int, syscall.Signal, error) {
		cmd := launch.Command(mpirun, self, args, o.Env,
			launch.Options{Library: mpi.Build, NP: o.NP, Cores: runtime.NumCPU(), Root: os.Geteuid() == 0})
		// The launcher's banners about a failed job go; skampi says what happened.
		banner := launch.NewBannerFilter(o.Stderr)
		defer banner.Close()
		// Rank 0 of a run (or of a clock check) always prints to stdout: a job that
		// printed nothing never started, whatever the launcher's status says.
		out := &seenWriter{w: o.Stdout}
		cmd.Stdout, cmd.Stderr = out, banner
		dieWithLauncher(cmd)
		// mpirun inherits an ignored SIGPIPE: when skampi is killed outright, mpirun
		// (sent SIGTERM) passes the ranks' last words on to a closed pipe, and a
		// SIGPIPE then ended it before it removed its session directory.
		signal.Ignore(syscall.SIGPIPE)
		var stalled atomic.Bool
		started := func() {} // the watch starts once mpirun has (endJob reads its process)
		if quiet > 0 && o.Out != "" {
			var stopWatch func()
			started = func() {
				stopWatch = watchProgress(filepath.Join(o.Out, "results.jsonl"), quiet, func(idle time.Duration) {
					fmt.Fprintf(o.Stderr, "\nskampi: no new record for %v: the whole job has stopped (no rank's watchdog could end it); ending it\n", idle.Round(time.Second))
					stalled.Store(true)
					endJob(cmd)
				})
			}
			defer func() {
				if stopWatch != nil {
					stopWatch()
				}
			}()
		}
		if o.Out != "" {
			removeDeadLauncher(o.Out)
			watched := started
			started = func() {
				noteLauncher(o.Out, cmd)
				watched()
			}
		}
		code, sig, err := runForwardingSignals(cmd, started)
		if ps := cmd.ProcessState; ps != nil {
			if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				// Killed outright, the launcher could not remove its session directory.
				launch.RemoveSession(ps.Pid(), cmd.Env)
			}
		}
		if o.Out != "" {
			os.Remove(filepath.Join(o.Out, launcherFile))
		}
		if stalled.Load() && err == nil {
			code = ExitTimeout // ended by us: a hang, recorded by SelfLaunch
		}
		if err != nil {
			err = fmt.Errorf("%s: %w", mpirun, err)
		}
		// With -o, SelfLaunch checks the results themselves (checkRan), which holds also
		// when the launcher sends the ranks' output to files (--output-filename).
		if err == nil && code == 0 && sig == 0 && o.Out == "" && !out.seen.Load() {
			err = fmt.Errorf("%s exited 0, but no process of the job printed anything: no rank started, nothing was measured (is it a working launcher?)", mpirun)
		}
		return code, sig, err
	}
}

// seenWriter passes output on and notes whether any came.
type seenWriter struct {
	w    io.Writer
	seen atomic.Bool
}

func (s *seenWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		s.seen.Store(true)
	}
	return s.w.Write(p)
}

// dieWithLauncher has the kernel send cmd SIGTERM when this process dies, even by
// SIGKILL: mpirun then ends the job rather than run on as an orphan, writing into a
// directory nobody watches. (The signal follows the thread that started cmd; the
// main goroutine is locked to the main thread, which lives as long as the process.)
func dieWithLauncher(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}

// runForwardingSignals runs cmd and passes SIGINT/SIGTERM on to it (mpirun then ends
// the ranks); it returns the exit status and the signal received, if any.
func runForwardingSignals(cmd *exec.Cmd, started func()) (int, syscall.Signal, error) {
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	started()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer func() { signal.Stop(sigs); close(sigs) }() // ends the forwarding goroutine
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
		return exitStatus(xe.ProcessState), syscall.Signal(got.Load()), nil
	}
	return 0, syscall.Signal(got.Load()), err
}

// exitStatus is the status as a shell reports it: 128+N for a process killed by
// signal N (mpirun killed from outside is then resumed like a crash), at least 1.
func exitStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ExitSignal + int(ws.Signal())
	}
	return max(1, ps.ExitCode())
}

// watchProgress calls stalled (once) when the file at path has not grown for quiet: the
// ranks' watchdogs end a blocked job, but not one whose every process is stopped.
func watchProgress(path string, quiet time.Duration, stalled func(idle time.Duration)) (stop func()) {
	done := make(chan struct{})
	go func() {
		size, since := int64(-1), time.Now()
		tick := time.NewTicker(min(quiet/4, time.Second))
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if st, err := os.Stat(path); err == nil && st.Size() != size {
				size, since = st.Size(), time.Now()
				continue
			}
			if idle := time.Since(since); idle >= quiet {
				stalled(idle)
				return
			}
		}
	}()
	return func() { close(done) }
}

// endJob asks mpirun to end the job, and makes sure after a grace period.
func endJob(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGTERM)
	time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
}
