package repsync

import (
	"math"
	"testing"

	"github.com/skampi/skampi/clocksync"
)

type rootComm struct{ bcasts int }

func (c *rootComm) Rank() int                    { return 0 }
func (c *rootComm) Bcast(v int64) (int64, error) { c.bcasts++; return v, nil }

func TestWindowSlotsAndAdaptation(t *testing.T) {
	now := 100.0
	c := &rootComm{}
	// This rank's clock runs 0.5 s behind the global one.
	w := NewWindow(c, func() float64 { return now }, clocksync.Model{Offset: 0.5})
	slot, err := w.Before()
	if err != nil {
		t.Fatal(err)
	}
	// Global now is 100.5; the start is one window later, back on the local clock.
	// No deadline: a repetition longer than the window is kept (discarding slow ones
	// would bias the result down); only a late start makes one invalid.
	if math.Abs(slot.Start-(now+windowInitial)) > 1e-12 || c.bcasts != 1 {
		t.Errorf("slot %+v after %d broadcasts", slot, c.bcasts)
	}
	w.After(false)
	if w.Width() != 2*windowInitial {
		t.Errorf("after an invalid repetition: %g", w.Width())
	}
	for i := 0; i < windowShrink; i++ {
		w.After(true)
	}
	if math.Abs(w.Width()-1.6*windowInitial) > 1e-15 {
		t.Errorf("after %d valid repetitions: %g", windowShrink, w.Width())
	}
	for i := 0; i < 1000; i++ {
		w.After(true)
	}
	if w.Width() != windowMin {
		t.Errorf("shrinks to %g, not below the minimum %g", w.Width(), windowMin)
	}
	for i := 0; i < 100; i++ {
		w.After(false)
	}
	if w.Width() != windowMax {
		t.Errorf("grows to %g, not beyond the maximum %g", w.Width(), windowMax)
	}
}

// Barrier synchronisation is asked of the operation, which runs it right before its
// timer; none asks for nothing.
func TestBarrierAndNone(t *testing.T) {
	b, err := New("barrier")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := b.Before(); err != nil || !s.Barrier || s.Start != 0 || b.Name() != "barrier" {
		t.Errorf("barrier: %+v %v", s, err)
	}
	n, _ := New("none")
	if s, err := n.Before(); err != nil || s.Barrier || n.Name() != "none" {
		t.Errorf("none: %+v %v", s, err)
	}
	if _, err := New("window"); err == nil {
		t.Error("window is made with NewWindow")
	}
}
