// Package runner measures the points of an expanded plan in order. The life of one
// point is runPoint (point.go): rank 0 decides (resume, deny-list), every rank prepares
// the engine's task and the kernel's request, the point is measured the way its timing
// method asks (measurement.go chooses: plain, difference, nonblocking, perTask), the
// ranks agree whether it failed, and rank 0 builds the record (record.go, the one place
// records are made) and hands it to the sink as soon as it is complete. It is pure Go;
// the MPI world comes in through the World interface.
package runner

import (
	"fmt"
	"io"
	"time"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// Sink receives each record of a point as it is made, the point or the fault that
// stands in for it (report's sinks implement it).
type Sink interface {
	Point(*record.Point) error
	Fault(*record.Fault) error
}

// World is the communicator plus the operation factory of one library.
type World interface {
	measure.Comm
	NewOp(ops.Request) (Op, error)
	// Clock is the primitive clock synchronisation runs over; Now reads the clock the
	// operations use (window synchronisation waits on it).
	Clock() clocksync.Exchanger
	Now() float64
	// CalibrateSpin measures this rank's busy computation (non-blocking overlap):
	// nanoseconds per spin iteration.
	CalibrateSpin() float64
	// TimerOverhead measures the seconds one timer interval adds to an operation
	// timed per call on this rank.
	TimerOverhead() float64
	// SpinFor is the spin count whose computation lasts target seconds here, given
	// CalibrateSpin's rate.
	SpinFor(target, nsPerIter float64) int64
}

// Op is an operation prepared for one point: run per repetition, closed after the
// point (buffers, requests and helper state are released).
type Op interface {
	measure.Op
	Close() error
}

// Runner measures points on a world. Sink is used on rank 0 only.
type Runner struct {
	World World
	RunID string
	Sink  Sink

	Library     string         // the library's version string, for the deny-list
	AllowBroken bool           // run routines on the deny-list anyway
	Done        *record.KeySet // rank 0: points a resumed run leaves alone
	// Earlier: rank 0, the estimates of the points the resumed run measured, by key
	// without ranks: refinement chooses its sizes from them as from its own.
	Earlier map[record.Key]Estimate
	// Steps: rank 0, the steps (by Step.Key) a resumed run's earlier runs measured
	// again: not measured once more.
	Steps    *record.KeySet
	Watchdog *Watchdog // optional: armed around every point
	Stderr   io.Writer // where a rank says why its part of a point failed
	// NotBuilt says why this binary cannot run an operation at all, "" when it can:
	// OpenSHMEM's in a build without it (an MPICH build). Rank 0 denies such an
	// operation's points without preparing them, the reason in full with the first;
	// nil: every operation is built.
	NotBuilt func(ops.Info) string

	// Skipped counts the points left alone because Done had them (rank 0).
	Skipped int
	// ClockSyncs counts clock synchronisations (window sync re-synchronises only when
	// some rank's model has grown too uncertain).
	ClockSyncs int

	model     *clocksync.Model // this rank's clock model, once synchronised
	modelAlgo string           // the algorithm that fitted it

	maxLatencyPeer int // cached: 0 = not probed yet

	corrupt *record.Corrupt // rank 0: the point's first corrupt byte (check_data), for its outcome
	pvars   *pvarValues     // the point's performance variables (pvars), read around its first measurement

	// lacking: rank 0's operations the library cannot run (ops.ErrUnsupported) or
	// this binary was built without (NotBuilt), the reason said in full with the first
	// point; the others are denied unprepared, with the brief detail kept here.
	lacking map[string]string

	familyState // what the families keep for the run, and rank 0's notes of the point (family.go)

	times map[record.Key]Estimate // rank 0: every point measured or resumed, for refinement
}

// What rank 0 decides for a point, broadcast so all ranks agree.
const (
	actMeasure = iota
	actDone    // measured (or faulted) in an earlier run
	actDenied  // known to crash in this library, lacking from it (unsupportedFault) or from the build (NotBuilt)
)

// measurementState is what the points of one measurement share.
type measurementState struct {
	m      *inputs.Measurement
	syncer measure.Syncer
}

// Run measures the points in order. Points of a pair chosen at run time are resolved
// here (in place), so their records carry the ranks measured.
func (r *Runner) Run(points []inputs.Point) error {
	var cur *measurementState
	next := len(points) + 1 // the index of the next point refinement adds
	for i := range points {
		pt := &points[i]
		if cur == nil || cur.m != pt.Measurement {
			var err error
			if cur, err = r.startMeasurement(pt); err != nil {
				return err
			}
		}
		if pt.Pending {
			peer, err := r.maxLatency(pt.Settings())
			if err != nil {
				return fmt.Errorf("measurement %q: selecting the pair: %w", pt.Measurement.Name, err)
			}
			pt.Resolve([2]int{0, peer})
		}
		if err := r.runPoint(pt, cur.syncer); err != nil {
			return err
		}
		if err := r.refineAfter(points, i, cur.syncer, &next); err != nil {
			return err
		}
	}
	return nil
}

// startMeasurement sets up what a measurement's points share: the repetition
// synchronisation, which may fit the clocks first (watched like a point).
func (r *Runner) startMeasurement(pt *inputs.Point) (*measurementState, error) {
	m := pt.Measurement
	// Not a point of the plan: no point index, the whole job.
	r.arm(record.NewFault(record.Where{RunID: r.RunID, Measurement: m.Name + " (clock synchronisation)",
		Op: m.Op.Name, NProcs: r.World.Size()}), m.Settings.Hang())
	syncer, err := r.syncer(m.Settings.Sync, m.Settings.ClockSync)
	r.disarm()
	if err != nil {
		return nil, err
	}
	return &measurementState{m: m, syncer: syncer}, nil
}

// decide is taken by rank 0 and broadcast: measure the point, leave it (resume), or
// record it as denied.
func (r *Runner) decide(pt *inputs.Point) (int, error) {
	act := actMeasure
	if r.World.Rank() == 0 {
		if r.Done != nil && r.Done.Has(pt.LookupKey()) {
			act = actDone
			r.Skipped++
			if t, ok := r.Earlier[pt.LookupKey().WithoutRanks()]; ok {
				r.noteTime(pt.Key(), t)
			}
		} else if brief, ok := r.lacking[pt.Op().Name]; ok {
			act = actDenied
			if err := r.writeFault(pt, record.FaultDenied, brief); err != nil {
				return 0, err
			}
		} else if why := r.notBuilt(pt.Op()); why != "" {
			act = actDenied
			r.lack(pt.Op().Name, NotBuiltDetail)
			if err := r.writeFault(pt, record.FaultDenied, pt.Op().Name+": "+why); err != nil {
				return 0, err
			}
		} else if reason, denied := ops.Denied(pt.Op().Name, pt.Method, r.Library, r.World.Size()); denied && !r.AllowBroken {
			act = actDenied
			if err := r.writeFault(pt, record.FaultDenied, reason+" (--allow-broken runs it anyway)"); err != nil {
				return 0, err
			}
		}
	}
	got, err := r.World.Bcast(int64(act))
	return int(got), err
}

// writeFault records, on rank 0, that pt was not measured: the fault and its detail.
func (r *Runner) writeFault(pt *inputs.Point, fault, detail string) error {
	f := pt.Fault(r.RunID)
	f.Mark(fault, detail)
	if err := r.Sink.Fault(&f); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
}

func (r *Runner) arm(id record.Fault, timeout time.Duration) {
	if r.Watchdog != nil {
		r.Watchdog.Start(id, timeout)
	}
}

func (r *Runner) disarm() {
	if r.Watchdog != nil {
		r.Watchdog.Stop()
	}
}

// maxLatency measures a 1-byte ping-pong from rank 0 to every other rank and returns
// the slowest to reach, as SKaMPI's comm2_max_latency_with_root does; once per job.
func (r *Runner) maxLatency(s inputs.Settings) (int, error) {
	if r.maxLatencyPeer != 0 {
		return r.maxLatencyPeer, nil
	}
	w := r.World
	info, _ := ops.Lookup(ops.LatencyProbe)
	probe := s
	probe.MinReps, probe.MaxReps, probe.Warmup, probe.Iterations = 5, 5, 1, 50
	probe.CheckData = false
	sy, err := r.syncer("barrier", "")
	if err != nil {
		return 0, err
	}
	best, bestT := 1, -1.0
	for peer := 1; peer < w.Size(); peer++ {
		pair := [2]int{0, peer}
		r.arm(record.NewFault(record.Where{RunID: r.RunID, Measurement: "pair probe", Op: info.Name, MsgBytes: 1, NProcs: w.Size(),
			Ranks: pair[:]}), s.Hang())
		res, err := r.measureOnce(request(info, info.Kernel, 1, probe, pair, nil), measure.Task{
			Participants: info.Participants(w.Size(), pair), Reduce: info.Reduce,
			Stop:   measure.StopRule{Min: 5, Max: 5, MaxRelStderr: 1, MaxTime: probe.MaxTime},
			Warmup: 1, Iterations: 50, Sync: sy,
		})
		r.disarm()
		if err != nil {
			return 0, err
		}
		if res != nil && res.N > 0 && res.Time > bestT {
			best, bestT = peer, res.Time
		}
	}
	chosen, err := w.Bcast(int64(best))
	r.maxLatencyPeer = int(chosen)
	return r.maxLatencyPeer, err
}

// measureOnce prepares an operation, measures it and releases it; the library's
// performance variables (pvars) are read around the point's first measurement, outside
// its repetitions.
func (r *Runner) measureOnce(spec ops.Request, t measure.Task) (res *measure.Result, err error) {
	op, err := r.newOp(spec)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := op.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("releasing %s: %w", spec.Info.Name, cerr)
		}
	}()
	pv, reading := op.(pvarOp)
	if reading = reading && len(spec.PVars) > 0 && r.pvars == nil; reading {
		if err := pv.StartPVars(spec.PVars); err != nil {
			return nil, err
		}
	}
	res, err = measure.Measure(r.World, op, t)
	if err == nil && spec.CheckData {
		err = r.noteCorruption(op, spec)
	}
	if reading && err == nil {
		vals, missing, perr := pv.PVars()
		if perr != nil {
			return nil, perr
		}
		r.pvars = &pvarValues{vals: vals, missing: missing}
	}
	if err == nil {
		err = r.measuredFamilies(op, spec)
	}
	return res, err
}

// pvarOp is an operation whose library performance variables can be read around its
// runs (ops/mpi's); a test double need not be one.
type pvarOp interface {
	StartPVars(names []string) error
	PVars() (map[string][]float64, []string, error)
}

// pvarValues: what a point's performance variables read, and the names asked for that
// the library does not offer.
type pvarValues struct {
	vals    map[string][]float64
	missing []string
}
