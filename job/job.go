// Package job owns one run of a suite, from the parsed command line to the last
// record: whether this process starts mpirun on itself or is one of its ranks, the
// restarts after a hang or a crash and which point to blame, signals, the provenance
// header, the sinks and the closing summary. cmd/skampi fills Options and calls Run;
// the restart logic is tested here without mpirun (see Launcher).
package job

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/report"
)

// Options of one suite run. Args are the command line (without the program name) a
// self-launch hands to its ranks; Env is the environment (os.Environ()).
type Options struct {
	Suite       string
	SuiteText   string // a suite given on the command line (inputs.OneLine), instead of Suite
	Out         string // results directory; "" for the terminal only
	NP          int    // processes when skampi starts mpirun itself
	NPSet       bool   // NP was given (--np): it wins over a Slurm allocation's task count
	Resume      bool
	Append      bool // a new run after the runs -o DIR holds (else a non-empty DIR is refused)
	AllowBroken bool
	MaxRestarts int
	Runs        int                 // launches of the whole suite, one after another, summarised (0 or 1: one)
	Force       bool                // --resume even into results of a different suite
	Smoke       bool                // --smoke: two repetitions a point (inputs.Plan.Smoke)
	ThreadLevel string              // one of mpi.ThreadLevels; "" is "default" (MPI_Init)
	Table       report.TableOptions // columns the terminal's table adds (OSU's -f, -z)

	// SuiteName and SuiteSource, when SuiteText is a suite with the command line's flags
	// laid over it (inputs.OneLine.Override): its name, and what it was read from and
	// which flags overrode it, for the run header.
	SuiteName, SuiteSource string

	Version string
	Args    []string
	Env     []string
	Stdout  io.Writer
	Stderr  io.Writer
}

// MaxRuns bounds --runs.
const MaxRuns = 100

// MaxSelfLaunch bounds --np when skampi starts every process on this machine.
const MaxSelfLaunch = 1024

// selfLaunchNP says why skampi will not start np processes on this machine itself (a
// run, a clock check, a start-up measurement); least is the fewest the command needs.
func selfLaunchNP(np, least int) error {
	if np < least || np > MaxSelfLaunch {
		return fmt.Errorf("--np must be between %d and %d when skampi starts the processes on this machine, got %d", least, MaxSelfLaunch, np)
	}
	return nil
}

// Exit statuses beyond 0 (done), 1 (failed) and 2 (a usage mistake). When several
// happened, the status is the highest: corrupt data over a hang over a crash.
const (
	ExitTimeout = 3 // a point hung in the library; the job was ended
	ExitCorrupt = 4 // check_data: a received byte differed from what was sent; the other points were measured
	ExitSignal  = 128
)

// corruptMessage is the line that goes with ExitCorrupt.
const corruptMessage = "data corrupted: a received byte differed from what was sent in %d point(s) (recorded as corrupt faults); the other points were measured"

// ExitError carries an exit status; Quiet means the message was printed already (or
// is printed by rank 0 only).
type ExitError struct {
	Code  int
	Quiet bool
	Err   error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// plan parses the suite: the command line's, or a file or built-in by name.
func (o Options) plan() (p *inputs.Plan, err error) {
	if o.SuiteText == "" {
		p, err = inputs.Load(o.Suite)
	} else if p, err = inputs.Parse(inputs.SourceName, []byte(o.SuiteText)); p != nil {
		p.Name = "command-line"
		if o.SuiteName != "" {
			p.Name, p.Source = o.SuiteName, o.SuiteSource
		}
	}
	if p != nil && o.Smoke {
		p.Smoke()
	}
	return p, err
}

// suiteError says a suite's problem in terms of the command line when the suite came
// from there.
func (o Options) suiteError(err error) error {
	if o.SuiteText == "" {
		return err
	}
	return &ExitError{Code: 2, Err: inputs.CommandLineErrors(err)}
}

// Run validates the suite, then either runs it as one rank of a parallel job or,
// outside a launcher, starts mpirun on itself.
func Run(o Options) error {
	o.defaults()
	under := launch.UnderLauncher(o.Env)
	plan, err := o.plan()
	if err != nil {
		if under && launch.Rank(o.Env) != 0 {
			return &ExitError{Code: 1, Quiet: true} // rank 0 reports it
		}
		return err
	}
	if o.ThreadLevel, err = threadLevelFor(plan, o.ThreadLevel); err != nil {
		if under && launch.Rank(o.Env) != 0 {
			return &ExitError{Code: 1, Quiet: true} // rank 0 reports it
		}
		return err
	}
	if launch.SrunWithoutPMI(o.Env) {
		// Each process would be a job of its own, and Open MPI aborts with a banner
		// per process: one line, from the first.
		if launch.Rank(o.Env) != 0 {
			return &ExitError{Code: 1, Quiet: true}
		}
		return fmt.Errorf("srun started skampi without PMI, so the MPI library cannot find its peers: use `srun --mpi=pmix` (Open MPI; `srun --mpi=list` shows what this Slurm has)")
	}
	if under {
		if o.Runs > 1 && !underSkampi(o.Env) { // skampi's own launch: the runs are its launcher's
			if launch.Rank(o.Env) != 0 {
				return &ExitError{Code: 1, Quiet: true}
			}
			return &ExitError{Code: 2, Err: fmt.Errorf("--runs needs skampi to start mpirun itself: under a launcher, start it once per run (with --append)")}
		}
		return runRank(plan, o)
	}
	// Inside a Slurm allocation without srun (a batch script): the allocation's tasks.
	if id, tasks, ok, err := launch.SlurmAllocation(o.Env); ok && !o.NPSet {
		if err != nil {
			return &ExitError{Code: 2, Err: err}
		}
		o.NP = tasks
		fmt.Fprintf(o.Stderr, "skampi: inside Slurm job %s: starting its %d tasks (--np to choose)\n", id, tasks)
	}
	if o.ThreadLevel != "" && !slices.Contains(mpi.ThreadLevels, o.ThreadLevel) {
		return &ExitError{Code: 2, Err: fmt.Errorf("--thread-level must be one of %s, got %q", strings.Join(mpi.ThreadLevels, ", "), o.ThreadLevel)}
	}
	if err := selfLaunchNP(o.NP, 1); err != nil {
		return &ExitError{Code: 2, Err: fmt.Errorf("%w (for more, start skampi under your launcher)", err)}
	}
	if o.MaxRestarts < 0 {
		return &ExitError{Code: 2, Err: fmt.Errorf("--max-restarts must be at least 0, got %d", o.MaxRestarts)}
	}
	// Before starting mpirun: plain errors, not a failed job.
	ex, err := plan.Expand(inputs.Job{NProcs: o.NP})
	if err != nil {
		return o.suiteError(err)
	}
	if len(ex.Points) == 0 {
		return &ExitError{Code: 2, Err: fmt.Errorf("nothing to measure on %d processes: %s (use --np)", o.NP, strings.Join(ex.Notes, "; "))}
	}
	// What the families need of this machine (a directory to write in, the space
	// there): a value refused is the machine's error, a point refused the suite's.
	if err := plan.CheckStart(ex.Points); err != nil {
		var el *inputs.ErrorList
		if errors.As(err, &el) {
			return o.suiteError(err)
		}
		return &ExitError{Code: 2, Err: err}
	}
	if o.Resume && o.Out == "" {
		return &ExitError{Code: 2, Err: fmt.Errorf("--resume needs -o DIR: the results to continue")}
	}
	if o.Resume && o.Append {
		return &ExitError{Code: 2, Err: fmt.Errorf("--resume continues the last run in -o DIR, --append starts another: not both")}
	}
	if o.Runs < 0 || o.Runs > MaxRuns {
		return &ExitError{Code: 2, Err: fmt.Errorf("--runs must be between 1 and %d, got %d", MaxRuns, o.Runs)}
	}
	if o.Runs > 1 && (o.Out == "" || o.Resume) {
		return &ExitError{Code: 2, Err: fmt.Errorf("--runs needs -o DIR (the runs are summarised from it) and no --resume")}
	}
	if o.Out != "" {
		if err := checkOutDir(o.Out); err != nil {
			return err
		}
		if o.Resume {
			if err := checkResume(plan, o.Out, o.Force); err != nil {
				return err
			}
		} else if err := checkFresh(o.Out, o.Append); err != nil {
			return err
		}
	}
	once := func(o Options) error {
		o, cleanup, err := withCrashDir(o)
		if err != nil {
			return err
		}
		defer cleanup()
		l, err := MPIRun(o, quietLimit(plan))
		if err != nil {
			return err
		}
		return SelfLaunch(plan, o, l)
	}
	if o.Runs <= 1 {
		return once(o)
	}
	return repeatRuns(o, once)
}

func (o *Options) defaults() {
	if o.Env == nil {
		o.Env = os.Environ()
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
}

// quietLimit is how long a self-launched job may go without a new record before the
// launcher takes it for stopped: longer than any watched phase (each is bounded by its
// hang_timeout, start-up and finalize by startup_timeout) plus the ranks' grace for rank 0 to write, with a margin for start-up.
func quietLimit(plan *inputs.Plan) time.Duration {
	longest := max(plan.Settings.Hang(), plan.Settings.Startup())
	for _, m := range plan.Measurements {
		longest = max(longest, m.Settings.Hang())
	}
	return 2*longest + rootGrace + time.Minute
}

// Announces says whether this process is the one to say what a run is before it
// starts (the notes of the command line): the process the user started, or rank 0
// under the user's launcher; not the ranks skampi launched itself, whose launcher has
// said it already.
func Announces(env []string) bool {
	return !launch.UnderLauncher(env) || (!underSkampi(env) && launch.Rank(env) == 0)
}

// Say writes err as the command's last word on stderr (an error list as it is, another
// error after "skampi:") and returns the exit status it carries: 1, or an ExitError's
// code. A quiet ExitError was said already.
func Say(stderr io.Writer, err error) (code int, said bool) {
	code = 1
	var ee *ExitError
	if errors.As(err, &ee) {
		code = ee.Code
		if ee.Quiet {
			return code, false
		}
	}
	var el *inputs.ErrorList
	if errors.As(err, &el) {
		fmt.Fprintln(stderr, el.Error())
	} else {
		fmt.Fprintln(stderr, "skampi:", err)
	}
	return code, true
}
