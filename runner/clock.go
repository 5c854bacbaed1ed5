package runner

import (
	"fmt"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/repsync"
)

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
