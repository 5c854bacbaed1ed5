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
// fault as it completes (a *record.Run, *record.Point or *record.Fault; a sink leaves
// alone what it does not show). Each sink writes a record through to its file before
// returning, so an interrupted run keeps every point measured so far.
type Sink interface {
	Write(rec any) error
	Close() error
}

// Multi sends every record to each sink in turn.
type Multi []Sink

func (m Multi) Write(rec any) error {
	var errs []error
	for _, s := range m {
		errs = append(errs, s.Write(rec))
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

func (l *Locked) Write(rec any) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.s.Write(rec)
}

// Finish writes a last fault (if any), closes the sink and keeps it locked for good:
// the process is about to exit, and nothing may be written after the close.
func (l *Locked) Finish(f *record.Fault) error {
	l.mu.Lock()
	var err error
	if f != nil {
		err = l.s.Write(f)
	}
	return errors.Join(err, l.s.Close())
}

func (l *Locked) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.s.Close()
}
