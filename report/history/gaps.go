package history

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// Reasons of a Gap other than a fault kind.
const (
	GapNoValue = "no_valid_reps" // the run has points of the setup, none with a valid repetition
	GapMissing = "missing"       // the run has neither a point nor a fault of it
)

// Gap is a run without a value in a series that runs before it had: a fault (a timeout,
// a crash), a point without a valid repetition, or nothing at all. A run dropped in
// silence would read as a series that never broke.
type Gap struct {
	Run int `json:"run"`
	// Why is the fault's kind (record.FaultTimeout, ...), GapNoValue or GapMissing; of a
	// measurement as a whole, those of its sizes, distinct, joined by ", ".
	Why    string `json:"why"`
	Detail string `json:"detail,omitempty"` // the fault's detail; of a whole, the sizes
}

// Reason is why the run has no value, in words: "fault timeout", "missing", "no valid
// repetition" (several, of a whole, joined by ", ").
func (g Gap) Reason() string {
	var out []string
	for _, w := range strings.Split(g.Why, ", ") {
		switch w {
		case GapMissing:
			out = append(out, "missing")
		case GapNoValue:
			out = append(out, "no valid repetition")
		default:
			out = append(out, "fault "+w)
		}
	}
	return strings.Join(out, ", ")
}

// String is the gap as the table notes it: "run 5: fault timeout".
func (g Gap) String() string { return fmt.Sprintf("run %d: %s", g.Run, g.Reason()) }

// setupGaps are the runs from the setup's first record (a value, a point or a fault)
// on that hold no value of it: before that the suite did not have it yet.
func setupGaps(s *Series, points []*record.Point, faults []*record.Fault, index map[string]int, runs int) []Gap {
	why := map[int]Gap{}
	first := runs + 1
	for _, p := range points {
		if r := index[p.RunID]; r > 0 {
			first = min(first, r)
			why[r] = Gap{Run: r, Why: GapNoValue}
		}
	}
	for _, f := range faults {
		if r := index[f.RunID]; r > 0 {
			first = min(first, r)
			why[r] = Gap{Run: r, Why: f.Fault, Detail: f.Detail}
		}
	}
	if len(s.Runs) > 0 {
		first = min(first, s.Runs[0])
	}
	var out []Gap
	for r := first; r <= runs; r++ {
		if slices.Contains(s.Runs, r) {
			continue
		}
		g, ok := why[r]
		if !ok {
			g = Gap{Run: r, Why: GapMissing}
		}
		out = append(out, g)
	}
	return out
}

// wholeGaps are the runs without a value as a whole from the first run in which every
// size the whole counts (see wholeRuns) had begun, each with the reasons of its sizes'
// gaps: before that a size was not in the suite yet.
func (m *Measurement) wholeGaps(runs int) []Gap {
	held := map[int]bool{}
	for _, s := range m.Setups {
		for _, r := range s.Runs {
			held[r] = true
		}
	}
	first := 0
	var counted []Setup
	for _, s := range m.Setups {
		if 2*len(s.Runs) < len(held) || len(s.Runs) == 0 {
			continue
		}
		counted = append(counted, s)
		begin := s.Runs[0]
		if len(s.Gaps) > 0 {
			begin = min(begin, s.Gaps[0].Run)
		}
		first = max(first, begin)
	}
	if len(counted) == 0 {
		return nil
	}
	var out []Gap
	for r := first; r <= runs; r++ {
		if slices.Contains(m.Absolute.Runs, r) {
			continue
		}
		var whys, sizes []string
		for _, s := range counted {
			for _, g := range s.Gaps {
				if g.Run == r {
					if !slices.Contains(whys, g.Why) {
						whys = append(whys, g.Why)
					}
					sizes = append(sizes, report.Bytes(s.MsgBytes))
				}
			}
		}
		g := Gap{Run: r, Why: GapMissing}
		if len(whys) > 0 {
			g.Why, g.Detail = strings.Join(whys, ", "), "at "+strings.Join(sizes, ", ")
		}
		out = append(out, g)
	}
	return out
}
