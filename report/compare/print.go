package compare

import (
	"errors"
	"fmt"
	"io"

	"github.com/skampi/skampi/report"
)

// PrintOptions are skampi compare's: the sources (the first label is the baseline; a
// label given to several files makes one side of all their runs), the input of a "-"
// source, the comparison's options, an optional gate, the output (the tables) and
// where the input's problems and the gate's verdict go.
type PrintOptions struct {
	Sources        []report.Source
	Stdin          io.Reader
	Options        Options
	Gate           *Gate
	Stdout, Stderr io.Writer
}

// ErrGate is the error of a comparison that fails its gate; errors.As finds the
// *GateError, whose Result says why.
var ErrGate = errors.New("the comparison fails the gate")

// GateError is a failed or impossible gate.
type GateError struct{ Result GateResult }

func (e *GateError) Error() string { return "compare: " + e.Result.Explanation }
func (e *GateError) Unwrap() error { return ErrGate }

// Print is skampi compare: it reads every source, prints the comparison with the
// first (WriteComparison) and, with a gate, its verdict on Stderr; a failed gate is a
// *GateError.
func Print(o PrintOptions) error {
	if o.Gate != nil {
		if err := o.Gate.Valid(); err != nil {
			return err
		}
	}
	sources, err := loadSides(o)
	if err != nil {
		return err
	}
	c, err := Compare(sources, o.Options)
	if err != nil {
		return err
	}
	if err := WriteComparison(o.Stdout, c); err != nil {
		return err
	}
	if o.Gate == nil {
		return nil
	}
	res := o.Gate.Check(c)
	for _, r := range res.Failed {
		fmt.Fprintf(o.Stderr, "regression: %s %s (%s)\n", r.Setup, Percent(r.Regression()), r.Test())
	}
	for _, t := range res.FailedShifts {
		fmt.Fprintf(o.Stderr, "regression: %s vs %s, %s as a whole: %s\n", t.Other, t.Baseline, t.Measurement, t.Shift)
	}
	if len(res.Failed) > 0 || len(res.FailedShifts) > 0 || len(res.Untestable) > 0 {
		return &GateError{Result: res}
	}
	fmt.Fprintf(o.Stderr, "compare: %s\n", res.Explanation)
	return nil
}

// loadSides reads the sources; files that share a label are one side, their runs merged.
func loadSides(o PrintOptions) ([]Labelled, error) {
	var sides []Labelled
	at := map[string]int{}
	for _, s := range o.Sources {
		res, err := s.Load(o.Stdin)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Label, err)
		}
		report.PrintProblems(o.Stderr, res.Problems, report.MaxProblemLines)
		if i, ok := at[s.Label]; ok {
			sides[i].Results.Merge(res)
			continue
		}
		at[s.Label] = len(sides)
		sides = append(sides, Labelled{Label: s.Label, Results: res})
	}
	return sides, nil
}
