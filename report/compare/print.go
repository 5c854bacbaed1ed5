package compare

import (
	"fmt"
	"io"

	"github.com/skampi/skampi/report"
)

// PrintOptions are skampi compare's: the sources (the first is the baseline), the
// input of a "-" source, the comparison's options, the output (the tables) and where
// the input's problems go.
type PrintOptions struct {
	Sources        []report.Source
	Stdin          io.Reader
	Options        Options
	Stdout, Stderr io.Writer
}

// Print is skampi compare: it reads every source and prints the comparison with the
// first (WriteComparison).
func Print(o PrintOptions) error {
	var sources []Labelled
	for _, s := range o.Sources {
		res, err := s.Load(o.Stdin)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Label, err)
		}
		report.PrintProblems(o.Stderr, res.Problems, report.MaxProblemLines)
		sources = append(sources, Labelled{Label: s.Label, Results: res})
	}
	c, err := Compare(sources, o.Options)
	if err != nil {
		return err
	}
	return WriteComparison(o.Stdout, c)
}
