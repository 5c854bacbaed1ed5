// Package repsync decides when each repetition starts on every rank. Barrier and none
// are here; window-based (SKaMPI "active") synchronisation on a global clock joins
// them with clocksync.
package repsync

import (
	"fmt"

	"github.com/skampi/skampi/measure"
)

// Method starts a repetition; it implements measure.Syncer.
type Method interface {
	Name() string
	Before() (measure.Slot, error)
}

// New returns the method of the given name ("barrier" or "none").
func New(name string) (Method, error) {
	switch name {
	case "barrier":
		return barrier{}, nil
	case "none":
		return none{}, nil
	}
	return nil, fmt.Errorf("unknown synchronisation method %q", name)
}

// barrier has every rank of the job meet before a repetition. The operation runs the
// barrier itself, inside its measured call right before its timer starts, as the C
// benchmarks do: a return to Go in between would let the ranks drift apart.
type barrier struct{}

func (barrier) Name() string                  { return "barrier" }
func (barrier) Before() (measure.Slot, error) { return measure.Slot{Barrier: true}, nil }

type none struct{}

func (none) Name() string                  { return "none" }
func (none) Before() (measure.Slot, error) { return measure.Slot{}, nil }
