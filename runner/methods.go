package runner

import (
	"fmt"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	psync "github.com/skampi/skampi/sync"
)

// methodsOf lists the timing methods a measurement's points are taken with; "" is the
// operation's only way of timing.
func methodsOf(m inputs.Measurement) []string {
	if len(m.Methods) == 0 {
		return []string{""}
	}
	return m.Methods
}

// measurePoint measures one point with a timing method. "ack" is timed by the root
// alone; "barrier" subtracts a barrier measured right after with the same settings
// (the method paper's Alg. 1). The point is nil on ranks other than 0.
func (r *Runner) measurePoint(m inputs.Measurement, spec OpSpec, task measure.Task, index int) (*record.Point, error) {
	w := r.World
	if spec.Method == "ack" { // the root's world rank
		root := m.Settings.Root
		if spec.Ranks != nil {
			root = spec.Ranks[root]
		}
		task.Participants, task.Reduce = []int{root}, ops.ReduceFirst
	}
	if spec.Method == "sync" { // Alg. 2: every broadcast starts at an agreed instant
		sy, err := r.syncer("window", m.Settings.ClockSync)
		if err != nil {
			return nil, err
		}
		task.Sync = sy
	}
	op, err := w.NewOp(spec)
	if err != nil {
		return nil, err
	}
	res, err := measure.Measure(w, op, task)
	if err != nil {
		return nil, err
	}
	var barrier *measure.Result
	if spec.Method == "barrier" {
		info, _ := ops.Lookup("Barrier")
		bop, err := w.NewOp(OpSpec{Info: info, Settings: spec.Settings, Ranks: spec.Ranks})
		if err != nil {
			return nil, err
		}
		if barrier, err = measure.Measure(w, bop, task); err != nil {
			return nil, fmt.Errorf("the barrier to subtract: %w", err)
		}
	}
	if res == nil {
		return nil, nil
	}
	if barrier != nil {
		res.Subtract(barrier.Time)
	}
	p := r.point(index, m, spec.Bytes, task.Participants, res)
	p.Method = spec.Method
	if win, ok := task.Sync.(*psync.Window); ok {
		p.Sync = win.Name()
		wd := win.Width()
		p.WindowS = &wd
	}
	if spec.Method == "ack" && p.Reps > 0 && p.TimeS < 0 { // the ack time was subtracted in C
		p.AddFlag(record.FlagNegative)
	}
	return p, nil
}

// maxClockError is the clock uncertainty above which window synchronisation fits the
// clocks again: well below the windows it agrees on.
const maxClockError = 10e-6

// syncer returns the repetition synchronisation of the given name; "window" first
// makes sure the clocks are synchronised.
func (r *Runner) syncer(name, clockAlgo string) (measure.Syncer, error) {
	if name != "window" {
		return psync.New(name, r.World)
	}
	model, err := r.clockModel(clockAlgo)
	if err != nil {
		return nil, fmt.Errorf("synchronising the clocks: %w", err)
	}
	return psync.NewWindow(r.World, r.World.Now, model), nil
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
