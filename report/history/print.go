package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/skampi/skampi/report"
)

// PrintOptions are skampi history's: the sources (a label may repeat: its files are one
// source), the input of a "-" source, the history's options, the format ("text" or
// "json"), an optional gate, the output and where the input's problems and the gate's
// verdict go. After, when set, gets the history once printed and before the gate
// judges it (the page and figures: drawing lives above this package), so that a
// failing gate still leaves them.
type PrintOptions struct {
	Sources        []report.Source
	Stdin          io.Reader
	Options        Options
	Format         string
	Gate           *Gate
	Stdout, Stderr io.Writer
	After          func(*History) error
}

// Formats are the formats Print writes.
var Formats = []string{"text", "json"}

// Gate is the check of a nightly job: a lasting slowdown fails it.
type Gate struct {
	// FailAbove: a slowdown of at most this fraction (0.05: 5 %) is tolerated.
	FailAbove float64
}

// Regression is a series whose latest segment is a significant slowdown from the one
// before: a regression that is still there.
type Regression struct {
	Measurement string `json:"measurement"` // its title
	Series      string `json:"series"`      // "as a whole", "against the run's other measurements", or a setup
	Step        Step   `json:"step"`
}

// ErrGate is the error of a history that fails its gate; errors.As finds the *GateError.
var ErrGate = errors.New("a lasting slowdown")

// GateError is a failed or impossible gate: Regressions says what failed (none when no
// series had the runs to be tested).
type GateError struct {
	Regressions []Regression
	Explanation string
}

func (e *GateError) Error() string { return "history: " + e.Explanation }
func (e *GateError) Unwrap() error { return ErrGate }

// Print is skampi history: it reads every source, prints the history and, with a gate,
// one line per lasting slowdown and the verdict on Stderr; a failed gate is a
// *GateError.
func Print(o PrintOptions) error {
	if o.Gate != nil && (math.IsNaN(o.Gate.FailAbove) || math.IsInf(o.Gate.FailAbove, 0) || o.Gate.FailAbove < 0) {
		return fmt.Errorf("the gate's threshold must be a finite share of at least 0, got %g", o.Gate.FailAbove)
	}
	switch o.Format {
	case "", "text", "json":
	default:
		return fmt.Errorf("unknown format %q (text, json)", o.Format)
	}
	res, labels, err := report.LoadWithLabels(o.Sources, o.Stdin)
	if err != nil {
		return err
	}
	report.PrintProblems(o.Stderr, res.Problems, report.MaxProblemLines)
	h, err := Build(res, labels, o.Options)
	if err != nil {
		return err
	}
	if o.Format == "json" {
		enc := json.NewEncoder(o.Stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(h)
	} else {
		err = WriteHistory(o.Stdout, h)
	}
	if err == nil && o.After != nil {
		err = o.After(h)
	}
	if err != nil || o.Gate == nil {
		return err
	}
	regs := h.Regressions(o.Gate.FailAbove)
	for _, r := range regs {
		fmt.Fprintln(o.Stderr, report.Printable(fmt.Sprintf("regression: %s, %s: %s", r.Measurement, r.Series, h.fmtStep(r.Step, r.Series != relativeName))))
	}
	switch tested := h.tested(); {
	case len(regs) > 0:
		return &GateError{Regressions: regs, Explanation: fmt.Sprintf("%d series still slower than before their latest change point, by more than %s (alpha %g)",
			len(regs), fmtShare(o.Gate.FailAbove), h.Alpha)}
	case tested == 0:
		return &GateError{Explanation: fmt.Sprintf("no series holds the %d runs a change needs (%d a side): the gate cannot judge", 2*h.MinSegment, h.MinSegment)}
	default:
		fmt.Fprintf(o.Stderr, "history: no lasting slowdown above %s in %d series tested\n", fmtShare(o.Gate.FailAbove), tested)
	}
	return nil
}

// fmtShare is a threshold as a percentage: "5%".
func fmtShare(x float64) string { return strconv.FormatFloat(100*x, 'g', 4, 64) + "%" }

// relativeName names a measurement's relative series.
const relativeName = "against the run's other measurements"

// Regressions are the series whose latest change point is a slowdown by more than
// failAbove: of each setup, and of each measurement as a whole, absolute or against the
// run's other measurements (where the latest change there is one the measurement's
// own level supports, not one the others made).
func (h *History) Regressions(failAbove float64) []Regression {
	var out []Regression
	worse := func(cs []Step) (Step, bool) {
		if len(cs) == 0 {
			return Step{}, false
		}
		st := cs[len(cs)-1]
		return st, st.Ratio > 1 && st.Ratio-1 > failAbove
	}
	for _, m := range h.Measurements {
		title := m.title()
		if st, ok := worse(m.Absolute.Changes); ok {
			out = append(out, Regression{title, "as a whole", st})
		}
		if st, ok := worse(m.Relative.Changes); ok && (len(m.OthersMoved) == 0 || m.OthersMoved[len(m.OthersMoved)-1].Run < st.Run) {
			out = append(out, Regression{title, relativeName, st})
		}
		for _, s := range m.Setups {
			if st, ok := worse(s.Changes); ok {
				out = append(out, Regression{title, s.Setup, st})
			}
		}
	}
	return out
}

// tested counts the series long enough to show a change.
func (h *History) tested() int {
	n := 0
	count := func(s *Series) {
		if s.Tested {
			n++
		}
	}
	for i := range h.Measurements {
		m := &h.Measurements[i]
		count(&m.Absolute)
		count(&m.Relative)
		for j := range m.Setups {
			count(&m.Setups[j].Series)
		}
	}
	return n
}
