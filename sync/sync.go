// Package sync decides when each repetition starts on every rank. Barrier and none
// are here; window-based (SKaMPI "active") synchronisation on a global clock joins
// them with clocksync.
package sync

import (
	"fmt"

	"github.com/skampi/skampi/measure"
)

// Barrierer is the one thing barrier synchronisation needs from a communicator.
type Barrierer interface {
	Barrier() error
}

// Method starts a repetition; it implements measure.Syncer.
type Method interface {
	Name() string
	Before() (measure.Slot, error)
}

// New returns the method of the given name ("barrier" or "none").
func New(name string, c Barrierer) (Method, error) {
	switch name {
	case "barrier":
		return barrier{c}, nil
	case "none":
		return none{}, nil
	}
	return nil, fmt.Errorf("unknown synchronisation method %q", name)
}

type barrier struct{ c Barrierer }

func (b barrier) Name() string                  { return "barrier" }
func (b barrier) Before() (measure.Slot, error) { return measure.Slot{}, b.c.Barrier() }

type none struct{}

func (none) Name() string                  { return "none" }
func (none) Before() (measure.Slot, error) { return measure.Slot{}, nil }
