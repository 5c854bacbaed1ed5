// Package report writes and reads result records: JSON Lines (canonical), CSV, the
// SKaMPI-style .sko text, and the terminal table. It never links MPI.
package report

import (
	"errors"

	"github.com/skampi/skampi/measure"
)

// Sink receives the run header once, then every point as it completes. Each sink
// writes a point through to its file before returning, so an interrupted run keeps
// every point measured so far.
type Sink interface {
	Run(*measure.Run) error
	Point(*measure.Point) error
	Close() error
}

// Multi sends every record to each sink in turn.
type Multi []Sink

func (m Multi) Run(r *measure.Run) error {
	var errs []error
	for _, s := range m {
		errs = append(errs, s.Run(r))
	}
	return errors.Join(errs...)
}

func (m Multi) Point(p *measure.Point) error {
	var errs []error
	for _, s := range m {
		errs = append(errs, s.Point(p))
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
