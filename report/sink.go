// Package report writes and reads result records. Its sinks take each record as a run
// makes it (JSON Lines, the canonical form; CSV; SKaMPI-style .sko text; the terminal
// table); its readers check JSONL and .sko files against the schema and merge them by
// run into Results, the input of compare, analyze, export and the plots. Seconds,
// Bytes and Rate print values as every view shows them. It never links MPI.
package report

import (
	"errors"
	"sync"

	"github.com/skampi/skampi/record"
)

// Sink receives records as they are made: the run header once, then every point or
// fault as it completes, each by its own method (a sink leaves alone what it does not
// show). Each sink writes a record through to its file before returning, so an
// interrupted run keeps every point measured so far. Clock checks are no run's
// records: `skampi clock check` writes them to a file of their own (JSONL.Clock).
type Sink interface {
	Run(*record.Run) error
	Point(*record.Point) error
	Fault(*record.Fault) error
	Close() error
}

// StepSink is a sink that shows the steps refinement finds (record.Step); the others
// leave them out.
type StepSink interface {
	Step(*record.Step) error
}

// The package's sinks, checked to be ones.
var _ = []Sink{(*JSONL)(nil), (*CSV)(nil), (*SKO)(nil), (*Table)(nil), Multi(nil), (*Locked)(nil)}
var _ = []StepSink{(*JSONL)(nil), (*Table)(nil), Multi(nil), (*Locked)(nil)}

// Multi sends every record to each sink in turn.
type Multi []Sink

func (m Multi) Run(r *record.Run) error     { return m.each(func(s Sink) error { return s.Run(r) }) }
func (m Multi) Point(p *record.Point) error { return m.each(func(s Sink) error { return s.Point(p) }) }
func (m Multi) Fault(f *record.Fault) error { return m.each(func(s Sink) error { return s.Fault(f) }) }
func (m Multi) Close() error                { return m.each(Sink.Close) }

// Step goes to the sinks that show steps (StepSink).
func (m Multi) Step(st *record.Step) error {
	return m.each(func(s Sink) error {
		if ss, ok := s.(StepSink); ok {
			return ss.Step(st)
		}
		return nil
	})
}

// each calls do on every sink, in order, whatever the ones before returned.
func (m Multi) each(do func(Sink) error) error {
	var errs []error
	for _, s := range m {
		errs = append(errs, do(s))
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

func (l *Locked) Run(r *record.Run) error     { return l.locked(func() error { return l.s.Run(r) }) }
func (l *Locked) Point(p *record.Point) error { return l.locked(func() error { return l.s.Point(p) }) }
func (l *Locked) Fault(f *record.Fault) error { return l.locked(func() error { return l.s.Fault(f) }) }
func (l *Locked) Close() error                { return l.locked(l.s.Close) }
func (l *Locked) Step(st *record.Step) error {
	return l.locked(func() error {
		if ss, ok := l.s.(StepSink); ok {
			return ss.Step(st)
		}
		return nil
	})
}

func (l *Locked) locked(do func() error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return do()
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
