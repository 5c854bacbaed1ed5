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

// measurePoint measures one point with its timing method, whose fields say what sets
// it apart: a window-synchronised start, the root's own time, an operation measured
// right after and subtracted. The record is nil on ranks other than 0.
func (r *Runner) measurePoint(pt *inputs.Point, syncer measure.Syncer) (*record.Point, error) {
	op := pt.Op()
	method, _ := op.Method(pt.Method)
	t := task(pt, syncer)
	if method.WindowSync {
		sy, err := r.syncer("window", pt.Settings().ClockSync)
		if err != nil {
			return nil, err
		}
		t.Sync = sy
	}
	spec := OpSpec{Info: op, Kernel: op.KernelFor(pt.Method), Bytes: pt.Size, Settings: pt.Settings(),
		Pair: pt.Pair, Ranks: pt.Comm}
	res, err := r.measureMethod(pt, method, spec, t)
	if err != nil {
		return nil, err
	}
	var sub *measure.Result
	if method.Subtract != "" {
		info, ok := ops.Lookup(method.Subtract)
		if !ok {
			return nil, fmt.Errorf("%s, method %s: no operation %q to subtract", op.Name, method.Name, method.Subtract)
		}
		// The same task: the same ranks, synchronisation and stop rule as the whole.
		sub, err = r.measureOnce(OpSpec{Info: info, Kernel: info.Kernel, Settings: pt.Settings(), Ranks: pt.Comm}, t)
		if err != nil {
			return nil, fmt.Errorf("the %s to subtract: %w", info.Name, err)
		}
	}
	if res == nil {
		return nil, nil
	}
	if sub != nil {
		res.Subtract(sub.Time)
	}
	p := r.point(pt, res)
	if win, ok := t.Sync.(*psync.Window); ok {
		p.Sync = win.Name()
		wd := win.Width()
		p.WindowS = &wd
	}
	if method.RootTimed && p.Reps > 0 && p.TimeS < 0 { // the kernel subtracted its helper time
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
