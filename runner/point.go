package runner

import (
	"fmt"
	"slices"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/repsync"
)

// runPoint is the life of one point, on every rank in lock-step: rank 0 decides whether
// to measure it (all follow), every rank prepares it and measures it the way its timing
// method asks, all agree whether it failed, and rank 0 builds its record and writes it.
// It is watched from the decision to the write: a rank that stops anywhere in it ends
// the job with the point on record.
func (r *Runner) runPoint(pt *inputs.Point, syncer measure.Syncer) error {
	r.watch(pt)
	defer r.disarm()
	if act, err := r.decide(pt); err != nil || act != actMeasure {
		return err
	}
	how := strategyFor(pt)
	// How often and how long the machine took this rank's core from the preparation to
	// the last repetition: told with the agreement, it says whether the point was noisy.
	started, usage := time.Now(), usageNow()
	t, spec, err := r.prepare(pt, syncer)
	var o outcome
	if err == nil {
		o, err = r.measure(pt, how, spec, t)
	}
	switches := noiseSince(usage, time.Since(started).Seconds())
	if failed, byRank, aerr := r.agree(err, switches); aerr != nil {
		return aerr
	} else if failed != nil {
		// One bad point never ends the run: it is a fault, and the next point runs.
		return r.pointError(pt, failed, err)
	} else {
		o.noise = byRank
	}
	if o.res == nil { // not rank 0
		return nil
	}
	p, corrupt := r.buildRecord(pt, o)
	return r.write(pt, p, corrupt)
}

// watch arms the watchdog for the point. A rank outside the point only waits for the
// others, moving once a repetition: a long repetition is theirs to judge (their steps
// move), so its own bound is four times longer.
func (r *Runner) watch(pt *inputs.Point) {
	timeout := pt.Settings().Hang()
	if !slices.Contains(pt.Ranks, r.World.Rank()) {
		timeout *= 4
	}
	r.arm(pt.Fault(r.RunID), timeout)
}

// prepare makes what the point is measured with, every rank alike: the engine's task,
// its repetition synchronisation up to date (the clocks fitted again if they drifted; a
// window of the method's own), and the kernel's request (Lock_Held's hold calibrated).
func (r *Runner) prepare(pt *inputs.Point, syncer measure.Syncer) (measure.Task, ops.Request, error) {
	if err := r.refreshClock(pt, syncer); err != nil {
		return measure.Task{}, ops.Request{}, err
	}
	op := pt.Op()
	method, _ := op.Method(pt.Method)
	t := methodTask(pt, syncer)
	if method.WindowSync {
		sy, err := r.syncer("window", pt.Settings().ClockSync)
		if err != nil {
			return measure.Task{}, ops.Request{}, err
		}
		t.Sync = sy
	}
	spec := pointRequest(pt)
	if err := r.prepareFamilies(pt, &spec); err != nil {
		return measure.Task{}, ops.Request{}, err
	}
	return t, spec, nil
}

// measure measures the point with how; the window it ended with and the first corrupt
// byte (check_data) are the point's, whatever the strategy.
func (r *Runner) measure(pt *inputs.Point, how measurement, spec ops.Request, t measure.Task) (outcome, error) {
	r.corrupt, r.pvars, r.notes = nil, nil, nil
	o, err := how.measure(r, pt, spec, t)
	r.doneFamilies(spec)
	o.window, _ = t.Sync.(*repsync.Window)
	o.corrupt, o.pvars, o.notes = r.corrupt, r.pvars, r.notes
	return o, err
}

// write hands the point's record to the sink: the point, or the fault that stands in
// for it (corrupt data is not a crash: the run goes on with the next point). Still
// watched while the record is written and synced, but as a phase: a fault written then
// must not carry the index of the record it may follow.
func (r *Runner) write(pt *inputs.Point, p *record.Point, corrupt *record.Fault) error {
	r.arm(record.PhaseFault(r.RunID, "writing the results", r.World.Size()), pt.Settings().Hang())
	var err error
	if corrupt != nil {
		err = r.Sink.Fault(corrupt)
	} else {
		err = r.Sink.Point(p)
		if p.Reps > 0 {
			r.noteTime(pt.Key(), Estimate{p.TimeS, p.StderrS})
		}
	}
	if err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
}

// methodTask is the point's task with its repetition limit: under max_repetitions =
// "auto" the repetitions follow the cost (Max is only the hard cap, the budget ends an
// unconverged point); otherwise SKaMPI's fixed maximum.
func methodTask(pt *inputs.Point, syncer measure.Syncer) measure.Task {
	t := task(pt, syncer)
	if s := pt.Settings(); s.AutoReps {
		t.Stop.Budget = s.Budget
	}
	return t
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
	t.CalibrateOnWall = op.CallTimed
	// A collective called back to back pipelines, so "auto" means one call per
	// repetition for them (each repetition starts synchronised); with a barrier after
	// every call (OSU's loop) they do not, and a repetition lasts rep_time.
	m, ok := op.Method(pt.Method)
	if s.Iterations == 0 && op.SingleShot && !m.BarrierEach {
		t.Iterations = 1
	}
	t.CalibrateOnWall = t.CalibrateOnWall || m.BarrierEach
	if ok && m.RootTimed {
		t.Reduce = ops.ReduceFirst // the root's own result is the time
	} else if ok && m.RankMean {
		t.Reduce = ops.ReduceMean
	}
	taskFamilies(pt, &t)
	return t
}
