package runner

import (
	"fmt"
	"math"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/repsync"
)

// measurePoint measures one point with its timing method, whose fields say what sets
// it apart: a window-synchronised start, the root's own time, an operation measured
// right after and subtracted. The record is nil on ranks other than 0.
func (r *Runner) measurePoint(pt *inputs.Point, syncer measure.Syncer) (*record.Point, error) {
	op := pt.Op()
	method, _ := op.Method(pt.Method)
	t := methodTask(pt, syncer)
	if method.WindowSync {
		sy, err := r.syncer("window", pt.Settings().ClockSync)
		if err != nil {
			return nil, err
		}
		t.Sync = sy
	}
	spec := pointRequest(pt)
	if op.LockHold {
		spin, err := r.lockHold(pt)
		if err != nil {
			return nil, err
		}
		spec.Spin = spin
	}
	if op.Nonblocking && method.Subtract == "" {
		p, err := r.measureBreakdown(pt, spec, t)
		if err != nil || p == nil {
			return nil, err
		}
		return r.syncFields(p, t), nil
	}
	var res *measure.Result
	var err error
	if method.Subtract != "" {
		info, ok := ops.Lookup(method.Subtract)
		if !ok {
			return nil, fmt.Errorf("%s, method %s: no operation %q to subtract", op.Name, method.Name, method.Subtract)
		}
		// The same task: the same ranks, synchronisation and stop rule as the whole,
		// which stops on the difference.
		res, err = r.measureDifference(spec, request(info, info.Kernel, 0, pt.Settings(), [2]int{}, pt.Comm), t)
	} else {
		res, err = r.measureMethod(pt, method, spec, t)
	}
	if err != nil || res == nil {
		return nil, err
	}
	p := r.syncFields(r.point(pt, res), t)
	onesidedFields(pt, p)
	if method.RootTimed && p.Reps > 0 && p.TimeS < 0 { // the kernel subtracted its helper time
		p.AddFlag(record.FlagNegative)
	}
	return p, nil
}

// syncFields records the window a window-synchronised point ended with.
func (r *Runner) syncFields(p *record.Point, t measure.Task) *record.Point {
	if win, ok := t.Sync.(*repsync.Window); ok {
		p.Sync = win.Name()
		wd := win.Width()
		p.WindowS = &wd
	}
	return p
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

// measureDifference prepares the whole and the part, measures whole minus part with
// their repetitions alternating, and releases both. The whole is prepared first: the
// part (a piece of the whole) needs no larger buffers, so preparing it does not
// reallocate the ones the whole runs on.
func (r *Runner) measureDifference(whole, part ops.Request, t measure.Task) (res *measure.Result, err error) {
	wop, err := r.World.NewOp(whole)
	if err != nil {
		return nil, err
	}
	defer closeOp(wop, whole, &err)
	if sp, ok := wop.(phaser); ok && whole.SameBuffers(part) {
		// Two measurements of one non-blocking operation: one preparation, its
		// measurement switched between runs, so both run on the same buffers.
		w, p := phased{sp, whole.Phase}, phased{sp, part.Phase}
		if res, err = measure.MeasureDifference(r.World, w, p, t); err == nil && whole.CheckData {
			err = r.noteCorruption(wop, whole)
		}
		return res, err
	}
	pop, err := r.World.NewOp(part)
	if err != nil {
		return nil, fmt.Errorf("the %s to subtract: %w", part.Info.Name, err)
	}
	defer closeOp(pop, part, &err)
	if res, err = measure.MeasureDifference(r.World, wop, pop, t); err == nil && whole.CheckData {
		err = r.noteCorruption(wop, whole) // the whole carries the operation's data
	}
	return res, err
}

// phaser is an operation that can switch among its non-blocking measurements.
type phaser interface {
	Op
	SetPhase(ops.Phase) error
}

// phased runs an operation as one of its measurements.
type phased struct {
	op    phaser
	phase ops.Phase
}

func (p phased) Run(iters int, slot measure.Slot) (float64, error) {
	if err := p.op.SetPhase(p.phase); err != nil {
		return math.NaN(), err
	}
	return p.op.Run(iters, slot)
}

// closeOp releases op, reporting a failure in *err unless there is one already.
func closeOp(op Op, spec ops.Request, err *error) {
	if cerr := op.Close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("releasing %s: %w", spec.Info.Name, cerr)
	}
}

// maxClockError is the clock uncertainty above which window synchronisation fits the
// clocks again: well below the windows it agrees on.
const maxClockError = 10e-6

// syncer returns the repetition synchronisation of the given name; "window" first
// makes sure the clocks are synchronised.
func (r *Runner) syncer(name, clockAlgo string) (measure.Syncer, error) {
	if name != "window" {
		return repsync.New(name)
	}
	model, err := r.clockModel(clockAlgo)
	if err != nil {
		return nil, fmt.Errorf("synchronising the clocks: %w", err)
	}
	return repsync.NewWindow(r.World, r.World.Now, model), nil
}

// clockModel synchronises the clocks the first time, and again only when some rank's
// model has become too uncertain (its drift estimate ages); every rank calls it.
func (r *Runner) clockModel(algo string) (clocksync.Model, error) {
	w := r.World
	redo := int64(1)
	if r.model != nil && r.modelAlgo == algo { // the same on every rank: settings
		vals, err := w.Gather(r.model.Uncertainty(w.Now()))
		if err != nil {
			return clocksync.Model{}, err
		}
		redo = 0
		for _, u := range vals {
			if u > maxClockError {
				redo = 1
			}
		}
		if redo, err = w.Bcast(redo); err != nil {
			return clocksync.Model{}, err
		}
	}
	if redo == 1 {
		alg, err := clocksync.New(algo)
		if err != nil {
			return clocksync.Model{}, err
		}
		m, err := alg.Sync(w.Clock())
		if err != nil {
			return clocksync.Model{}, err
		}
		r.model, r.modelAlgo = &m, algo
		r.ClockSyncs++
	}
	return *r.model, nil
}
