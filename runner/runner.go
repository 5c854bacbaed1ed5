// Package runner measures the points of an expanded plan in order: for every point it
// decides (resume, deny-list), builds the operation, has the engine measure it, and
// hands the record to the sink as soon as it is complete. It is pure Go; the MPI world
// comes in through the World interface.
package runner

import (
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/repsync"
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
	Watchdog    *Watchdog      // optional: armed around every point
	Stderr      io.Writer      // where a rank says why its part of a point failed

	// Skipped counts the points left alone because Done had them (rank 0).
	Skipped int
	// ClockSyncs counts clock synchronisations (window sync re-synchronises only when
	// some rank's model has grown too uncertain).
	ClockSyncs int

	model     *clocksync.Model // this rank's clock model, once synchronised
	modelAlgo string           // the algorithm that fitted it

	maxLatencyPeer int // cached: 0 = not probed yet

	corrupt *record.Corrupt // rank 0: the point's first corrupt byte (check_data)
}

// What rank 0 decides for a point, broadcast so all ranks agree.
const (
	actMeasure = iota
	actDone    // measured (or faulted) in an earlier run
	actDenied  // known to crash in this library
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
	}
	return nil
}

// startMeasurement sets up what a measurement's points share: the repetition
// synchronisation, which may fit the clocks first (watched like a point).
func (r *Runner) startMeasurement(pt *inputs.Point) (*measurementState, error) {
	m := pt.Measurement
	// Not a point of the plan: no point index, the whole job.
	r.arm(record.Fault{Kind: record.KindFault, RunID: r.RunID, Measurement: m.Name + " (clock synchronisation)",
		Op: m.Op.Name, NProcs: r.World.Size()}, m.Settings.Hang())
	syncer, err := r.syncer(m.Settings.Sync, m.Settings.ClockSync)
	r.disarm()
	if err != nil {
		return nil, err
	}
	return &measurementState{m: m, syncer: syncer}, nil
}

// runPoint decides, measures and records one point.
func (r *Runner) runPoint(pt *inputs.Point, syncer measure.Syncer) error {
	id := pt.Fault(r.RunID)
	// Armed from the decision's broadcast to the record's write: a rank that stops
	// anywhere in a point ends the job with the point on record. A rank outside the
	// point only waits for the others, moving once a repetition: a long repetition is
	// theirs to judge (their steps move), so its own bound is four times longer.
	timeout := pt.Settings().Hang()
	if !slices.Contains(pt.Ranks, r.World.Rank()) {
		timeout *= 4
	}
	r.arm(id, timeout)
	defer r.disarm()
	act, err := r.decide(pt, &id)
	if err != nil || act != actMeasure {
		return err
	}
	r.corrupt = nil
	err = r.refreshClock(pt, syncer)
	var p *record.Point
	if err == nil {
		p, err = r.measurePoint(pt, syncer)
	}
	if failed, aerr := r.agree(err); aerr != nil {
		return aerr
	} else if failed != nil {
		// One bad point never ends the run: it is a fault, and the next point runs.
		return r.pointError(pt, failed, err)
	}
	if p == nil { // not rank 0
		return nil
	}
	if pt.Fallback != "" {
		p.AddFlag(record.FlagPairFallback)
	}
	// Still watched while the record is written and synced, but as a phase: a fault
	// written then must not carry the index of the record it may follow.
	r.arm(record.Fault{Kind: record.KindFault, RunID: r.RunID, Measurement: "(writing the results)",
		NProcs: r.World.Size()}, pt.Settings().Hang())
	if r.corrupt != nil { // not a crash: the run goes on with the next point
		err = r.Sink.Fault(corruptFault(pt, r.RunID, r.corrupt, p))
	} else {
		err = r.Sink.Point(p)
	}
	if err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
}

// refreshClock checks, before every point a window synchronises, whether some rank's
// clock model has grown too uncertain since the fit (an offset-only model grows by its
// drift bound), and synchronises the clocks again if so.
func (r *Runner) refreshClock(pt *inputs.Point, syncer measure.Syncer) error {
	win, ok := syncer.(*repsync.Window)
	if !ok {
		return nil
	}
	model, err := r.clockModel(pt.Settings().ClockSync)
	if err != nil {
		return fmt.Errorf("synchronising the clocks: %w", err)
	}
	win.SetModel(model)
	return nil
}

// task is what the engine needs to measure the point.
func task(pt *inputs.Point, syncer measure.Syncer) measure.Task {
	s := pt.Settings()
	op := pt.Op()
	t := measure.Task{
		Participants: pt.Ranks,
		Reduce:       op.Reduce,
		Stop: measure.StopRule{Min: s.MinReps, Max: s.MaxReps, MaxRelStderr: s.MaxRelStderr,
			MaxTime: s.MaxTime, MaxDiscarded: s.MaxDiscarded,
			// A repetition an eighth of the hang timeout long and far slower than the
			// fastest ends the point well before an idle rank, which sees no step
			// while the others run, could take it for a hang.
			Overrun: s.Hang() / 8},
		Warmup: s.Warmup, Iterations: s.Iterations, RepTime: s.RepTime, Sync: syncer,
	}
	// A collective called back to back pipelines, so "auto" means one call per
	// repetition for them (each repetition starts synchronised).
	if s.Iterations == 0 && op.SingleShot {
		t.Iterations = 1
	}
	if m, ok := op.Method(pt.Method); ok && m.RootTimed {
		t.Reduce = ops.ReduceFirst // the root's own result is the time
	}
	return t
}

// decide is taken by rank 0 and broadcast: measure the point, leave it (resume), or
// record it as denied.
func (r *Runner) decide(pt *inputs.Point, id *record.Fault) (int, error) {
	act := actMeasure
	if r.World.Rank() == 0 {
		if r.Done != nil && r.Done.Has(pt.LookupKey()) {
			act = actDone
			r.Skipped++
		} else if reason, denied := ops.Denied(id.Op, id.Method, r.Library); denied && !r.AllowBroken {
			act = actDenied
			f := *id
			f.Fault, f.Time = record.FaultDenied, time.Now().UTC()
			f.Detail = reason + " (--allow-broken runs it anyway)"
			if err := r.Sink.Fault(&f); err != nil {
				return 0, fmt.Errorf("writing results: %w", err)
			}
		}
	}
	got, err := r.World.Bcast(int64(act))
	return int(got), err
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

// point makes the record of a measured point.
func (r *Runner) point(pt *inputs.Point, res *measure.Result) *record.Point {
	m, op, s := pt.Measurement, pt.Op(), pt.Settings()
	p := &record.Point{
		RunID: r.RunID, PointIndex: pt.Index, Measurement: m.Name, MeasurementIndex: m.Index,
		Op: op.Name, Method: pt.Method, Family: op.Family, MsgBytes: pt.Size, NProcs: pt.NProcs,
		Ranks: pt.Ranks, Timer: s.Timer, Sync: s.Sync,
	}
	if op.Windowed {
		p.Window, p.RecvSlots = s.Window, s.RecvSlots
	}
	p.Cache, p.CheckData = s.Cache, s.CheckData
	if op.OneSided || op.SHMEM { // neither reaches a window or symmetric memory yet: say what was measured
		p.Cache = inputs.CacheWarm
		if m, _ := op.Method(pt.Method); !m.OrderChecked {
			p.CheckData = false
		}
	}
	if p.Cache == inputs.CacheCold {
		p.ColdAreaBytes = ops.ColdArea(s.CacheSize)
	}
	fill(p, res, s.MinReps)
	p.TaskTimeS = res.TaskTimes
	if op.SingleShot && res.Iterations > 1 {
		// Asked for explicitly: consecutive calls overlap, which is a different
		// measurement from one synchronised call (what OSU and IMB report, though).
		p.AddFlag(record.FlagPipelined)
	}
	if m, _ := op.Method(pt.Method); s.Sync == "window" || m.WindowSync {
		// Repetitions that started late are discarded; how many says how well the
		// window fits the operation.
		// A subtraction ran whole and part alternately, N valid repetitions of each.
		valid := res.N
		if m.Subtract != "" {
			valid *= 2
		}
		frac := float64(res.Discarded) / float64(max(1, valid+res.Discarded))
		p.InvalidFraction = &frac
	}
	if res.N == 0 {
		return p
	}
	if res.Subtracted != nil && p.TimeS < 0 {
		p.AddFlag(record.FlagNegative)
	}
	if op.RoundTrip {
		lat := p.TimeS / 2
		p.LatencyS = &lat
	}
	if op.AtomicRate && p.TimeS > 0 && pt.NProcs > 1 {
		rate := float64(pt.NProcs-1) / p.TimeS
		p.OpsPerS = &rate
	}
	if op.Throughput && p.TimeS > 0 {
		tp := float64(pt.NProcs-1) * float64(pt.Size) / p.TimeS
		p.ThroughputBps = &tp
	}
	if op.Bandwidth && p.TimeS > 0 {
		bw := op.BytesMoved(pt.Size, s.Window, op.Pairs(r.World.Size())) / p.TimeS
		if !math.IsInf(bw, 0) {
			p.BandwidthBps = &bw
		}
	}
	return p
}

// probeOp is what the max-latency probe times: SKaMPI's probe is a ping-pong.
const probeOp = "Pingpong_Send_Recv"

// maxLatency measures a 1-byte ping-pong from rank 0 to every other rank and returns
// the slowest to reach, as SKaMPI's comm2_max_latency_with_root does; once per job.
func (r *Runner) maxLatency(s inputs.Settings) (int, error) {
	if r.maxLatencyPeer != 0 {
		return r.maxLatencyPeer, nil
	}
	w := r.World
	info, _ := ops.Lookup(probeOp)
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
		r.arm(record.Fault{RunID: r.RunID, Measurement: "pair probe", Op: info.Name, MsgBytes: 1, NProcs: w.Size(), Ranks: pair[:]}, s.Hang())
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

// measureOnce prepares an operation, measures it and releases it.
func (r *Runner) measureOnce(spec ops.Request, t measure.Task) (res *measure.Result, err error) {
	op, err := r.World.NewOp(spec)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := op.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("releasing %s: %w", spec.Info.Name, cerr)
		}
	}()
	if res, err = measure.Measure(r.World, op, t); err == nil && spec.CheckData {
		err = r.noteCorruption(op, spec)
	}
	return res, err
}
