package repsync

import (
	"math"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/measure"
)

// WindowComm is what window synchronisation needs of the communicator.
type WindowComm interface {
	Rank() int
	Bcast(v int64) (int64, error)
}

// Window is SKaMPI's active synchronisation: rank 0 picks an instant on the global
// clock, every rank converts it to its local clock with its clock model and busy-waits
// for it (in C, inside the measured call), and a repetition that starts late is
// invalid. One that merely takes longer than its window is valid: discarding the slow
// repetitions would bias the result down (a truncation); a long one instead makes the
// next start late, and that one is discarded whatever its own duration. The window
// adapts on rank 0: it doubles after an invalid repetition and shrinks by a fifth
// after a run of valid ones.
type Window struct {
	comm  WindowComm
	now   func() float64 // the local clock the operations use
	model clocksync.Model
	width float64 // seconds: the lead time to the start
	valid int     // consecutive valid repetitions
}

// Window limits.
const (
	windowInitial = 1e-3
	windowMin     = 20e-6
	windowMax     = 1.0
	windowShrink  = 8 // valid repetitions in a row before the window shrinks
)

// NewWindow synchronises repetitions with a clock model (global = model.Global(local)).
func NewWindow(c WindowComm, now func() float64, model clocksync.Model) *Window {
	return &Window{comm: c, now: now, model: model, width: windowInitial}
}

func (w *Window) Name() string { return "window" }

// Before agrees on the next repetition's start: rank 0 broadcasts the global instant;
// each rank returns it on its own clock, with no deadline (see Window).
func (w *Window) Before() (measure.Slot, error) {
	var start float64
	if w.comm.Rank() == 0 {
		start = w.model.Global(w.now()) + w.width
	}
	s, err := w.comm.Bcast(int64(math.Float64bits(start)))
	if err != nil {
		return measure.Slot{}, err
	}
	return measure.Slot{Start: w.model.Local(math.Float64frombits(uint64(s)))}, nil
}

// SetModel replaces the clock model, after the clocks were synchronised again.
func (w *Window) SetModel(m clocksync.Model) { w.model = m }

// After adapts the window to a repetition's validity (rank 0).
func (w *Window) After(valid bool) {
	if !valid {
		w.width, w.valid = math.Min(w.width*2, windowMax), 0
		return
	}
	if w.valid++; w.valid >= windowShrink {
		w.width, w.valid = math.Max(w.width*0.8, windowMin), 0
	}
}

// Width is the current window in seconds.
func (w *Window) Width() float64 { return w.width }
