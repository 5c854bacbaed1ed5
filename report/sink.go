// Package report writes and reads result records: JSON Lines (canonical), CSV, the
// SKaMPI-style .sko text, and the terminal table. It never links MPI.
package report

import (
	"errors"
	"sync"

	"github.com/skampi/skampi/record"
)

// Sink receives the run header once, then every point as it completes. Each sink
// writes a point through to its file before returning, so an interrupted run keeps
// every point measured so far.
type Sink interface {
	Run(*record.Run) error
	Point(*record.Point) error
	Fault(*record.Fault) error
	Close() error
}

// Multi sends every record to each sink in turn.
type Multi []Sink

func (m Multi) Run(r *record.Run) error {
	var errs []error
	for _, s := range m {
		errs = append(errs, s.Run(r))
	}
	return errors.Join(errs...)
}

func (m Multi) Point(p *record.Point) error {
	var errs []error
	for _, s := range m {
		errs = append(errs, s.Point(p))
	}
	return errors.Join(errs...)
}

func (m Multi) Fault(f *record.Fault) error {
	var errs []error
	for _, s := range m {
		errs = append(errs, s.Fault(f))
	}
	return errors.Join(errs...)
}

func (m Multi) Close() error {
	var errs []error
	for _, s := range m {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// Locked serialises a sink: the watchdog and signal handlers write from their own
// goroutines while the main one may be writing a point.
type Locked struct {
	mu sync.Mutex
	s  Sink
}

func NewLocked(s Sink) *Locked { return &Locked{s: s} }

func (l *Locked) Run(r *record.Run) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.s.Run(r)
}

func (l *Locked) Point(p *record.Point) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.s.Point(p)
}

func (l *Locked) Fault(f *record.Fault) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.s.Fault(f)
}

// Finish writes a last fault (if any), closes the sink and keeps it locked for good:
// the process is about to exit, and nothing may be written after the close.
func (l *Locked) Finish(f *record.Fault) error {
	l.mu.Lock()
	var err error
	if f != nil {
		err = l.s.Fault(f)
	}
	return errors.Join(err, l.s.Close())
}

func (l *Locked) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.s.Close()
}
