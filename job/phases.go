package job

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/runner"
)

// phases watches every phase of a rank's life, not only the points: MPI_Init, the
// host-name exchange, opening the results, each point (the runner arms the same
// watchdog), finalize. A phase that outlives the suite's hang_timeout is blocked (a
// rank stopped at start-up leaves the others waiting forever); rank 0 records it as a
// timeout fault, in the results file when there is one, and the job ends.
type phases struct {
	wd      *runner.Watchdog
	rank    atomic.Int32 // from the launcher until MPI knows; read by the watchdog
	runID   string
	hang    time.Duration // a point's bound (the runner arms the watchdog with it)
	startup time.Duration // a start-up phase's or finalize's (startup_timeout)
	nprocs  int           // from the launcher: MPI may not be up to say
	dir     string
	plan    *inputs.Plan
	version string
	stderr  io.Writer
	mpiUp   atomic.Bool                   // MPI_Init returned: MPI_Abort may be called
	sink    atomic.Pointer[report.Locked] // while the results are open
	header  atomic.Bool                   // the run header is in the results file
	hdrMu   sync.Mutex                    // a fault written beside the sink waits for its header
	// The crash report: the last point or phase (for "between points"), and whether
	// this rank appends a crash record itself (rank 0 with results, under another
	// launcher than skampi's).
	noteMu     sync.Mutex // a rank's watchdog may re-arm from its own goroutine
	last       string
	selfRecord atomic.Bool
	rootRunID  string                // rank 0's run id, the one the results know
	peers      func() []*crashReport // the trace files of ranks that crashed (nil: none looked for)
}

func newPhases(plan *inputs.Plan, o Options, rank int) *phases {
	var id [8]byte
	rand.Read(id[:])
	p := &phases{runID: hex.EncodeToString(id[:]), hang: plan.Settings.Hang(), startup: plan.Settings.Startup(), dir: o.Out,
		plan: plan, version: o.Version, stderr: o.Stderr, nprocs: max(1, launch.Size(o.Env))}
	p.rank.Store(int32(rank))
	p.wd = &runner.Watchdog{Expire: p.expire, Progress: mpi.Progress, Note: p.note}
	return p
}

// start arms the watchdog for a phase that is not a point: start-up or finalize,
// bounded by startup_timeout.
func (p *phases) start(what string) {
	p.wd.Start(record.PhaseFault(p.runID, what, p.nprocs), p.startup)
}

func (p *phases) stop() { p.wd.Stop() }

// expire runs on the watchdog's goroutine while the main one is blocked: rank 0
// records the timeout and ends the job; the others give it time to, then end too.
func (p *phases) expire(f *record.Fault) {
	rank := int(p.rank.Load())
	if rank != 0 {
		before := mpi.Progress()
		time.Sleep(rootGrace) // rank 0 normally ends the job before this
		if mpi.Progress() != before {
			// Moving again (a repetition of the others' that was long, not a stop):
			// watched again, the job goes on.
			if cur, _ := p.wd.Current(); cur != nil && cur.Measurement == f.Measurement && cur.PointIndex == f.PointIndex {
				again := *cur
				p.wd.Start(again, p.bound(&again))
			}
			return
		}
	} else if crashed := p.crashedPeers(); len(crashed) > 0 {
		// Blocked because a peer died (a launcher that does not end the job): the crash
		// is what happened, recorded by the peer or here.
		if !recordedBy(crashed) {
			f.MarkAt(record.FaultCrash, crashDetail(crashed), f.Time)
			if err := p.record(f); err != nil {
				fmt.Fprintf(p.stderr, "skampi: writing the crash record: %v\n", err)
			}
		}
		fmt.Fprintf(p.stderr, "skampi: rank %d: another rank crashed (%s); ending the job\n", rank, crashSignals(crashed))
		mpi.Abort(1)
		os.Exit(1)
	} else {
		detail := fmt.Sprintf("no progress for %.0f s: blocked inside the library", stalled(f))
		if f.ElapsedS > stalled(f)+1 {
			detail += fmt.Sprintf(" (it had moved for %.0f s before)", f.ElapsedS-stalled(f))
		}
		f.MarkAt(record.FaultTimeout, detail, f.Time)
		if err := p.record(f); err != nil {
			fmt.Fprintf(p.stderr, "skampi: writing the timeout record: %v\n", err)
		}
	}
	what := f.Measurement
	if f.Op != "" {
		what = fmt.Sprintf("%s %q, %d bytes", f.Op, f.Measurement, f.MsgBytes)
	}
	setting := "hang_timeout"
	if f.Op == "" {
		setting = "startup_timeout"
	}
	fmt.Fprintf(p.stderr, "skampi: rank %d: %s: no progress for %.0f s (%s); ending the job\n", rank, what, stalled(f), setting)
	if p.mpiUp.Load() {
		mpi.Abort(ExitTimeout)
	}
	os.Exit(ExitTimeout)
}

// bound is what the watchdog gives the phase or point f: a point (an operation's) its
// hang_timeout, start-up and finalize their startup_timeout.
func (p *phases) bound(f *record.Fault) time.Duration {
	if f.Op == "" {
		return p.startup
	}
	return p.hang
}

func (p *phases) crashedPeers() []*crashReport {
	if p.peers == nil {
		return nil
	}
	return p.peers()
}

// stalled is how long nothing moved on this rank before the watchdog fired.
func stalled(f *record.Fault) float64 {
	if f.StalledS > 0 {
		return f.StalledS
	}
	return f.ElapsedS
}

// record writes the fault through the open sinks, or else appends it to the results
// file, after a header if the run has none yet: a run that never started, or that
// hangs in finalize, is on record too.
func (p *phases) record(f *record.Fault) error {
	p.hdrMu.Lock()
	defer p.hdrMu.Unlock()
	if s := p.sink.Load(); s != nil {
		return s.Finish(f)
	}
	return p.appendFault(f)
}

// appendFault appends f to the results file itself, after a header of its own when
// rank 0 has not written the run's yet. Called with hdrMu held.
func (p *phases) appendFault(f *record.Fault) error {
	if p.dir == "" || f == nil {
		return nil
	}
	var hdr *record.Run
	if !p.header.Load() {
		hdr = startHeader(p.plan, p.runID, p.version, p.nprocs)
	}
	return appendRecords(p.dir, hdr, f)
}

// writeHeader writes rank 0's run header through its sink; from then on faults go
// through the sink too, in order behind it.
func (p *phases) writeHeader(sink *report.Locked, hdr *record.Run) error {
	p.hdrMu.Lock()
	defer p.hdrMu.Unlock()
	if err := sink.Run(hdr); err != nil {
		return err
	}
	p.header.Store(true)
	p.sink.Store(sink)
	return nil
}

// finish writes a last fault (nil: none) as the process is about to exit on a signal,
// and closes the sink: through it once the header is written, else after a header of
// its own (a signal during start-up must not leave a fault without its run).
func (p *phases) finish(sink *report.Locked, f *record.Fault) error {
	p.hdrMu.Lock() // kept: the process exits
	switch {
	case p.sink.Load() != nil:
		return sink.Finish(f)
	case p.header.Load(): // finalize: the sink is closed
		return p.appendFault(f)
	}
	return errors.Join(sink.Finish(nil), p.appendFault(f))
}

// startHeader is the run header of a run that stopped before writing its own.
func startHeader(plan *inputs.Plan, runID, version string, nprocs int) *record.Run {
	return &record.Run{Kind: record.KindRun, RunID: runID, SkampiVersion: version, StartTime: time.Now().UTC(), NProcs: nprocs,
		Suite: plan.Name, SuiteSource: plan.Source, SuiteSHA256: plan.SHA256, Command: os.Args,
		Smoke: plan.Smoked}
}

// appendRecords appends a header (if not nil) and a fault to dir's results file.
func appendRecords(dir string, hdr *record.Run, f *record.Fault) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	out, err := openRegular(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		return err
	}
	defer out.Close()
	if err := endLine(out); err != nil {
		return err
	}
	j := report.NewJSONL(out)
	if hdr != nil {
		if err := j.Run(hdr); err != nil {
			return err
		}
	}
	if err := j.Fault(f); err != nil {
		return err
	}
	return out.Sync()
}
