package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/skampi/skampi/report"
)

// Gate is the check of a nightly job: a significant regression beyond a threshold fails it.
type Gate struct {
	// FailAbove is the largest regression tolerated, as a fraction (0.05: 5 %): a row
	// significantly worse by more fails the gate.
	FailAbove float64
}

// Valid says what is wrong with the threshold: NaN, an infinity or a negative share
// would pass or fail every row whatever it measured.
func (g Gate) Valid() error {
	if math.IsNaN(g.FailAbove) || math.IsInf(g.FailAbove, 0) || g.FailAbove < 0 {
		return fmt.Errorf("the gate's threshold must be a finite share of at least 0, got %g", g.FailAbove)
	}
	return nil
}

// GateResult is what a gate found.
type GateResult struct {
	Failed []Row // significant regressions beyond the threshold
	// FailedShifts are the measurements that, as a whole (every size together),
	// regressed significantly beyond the threshold.
	FailedShifts []Table
	// Detectable: the median over the tested measurements of the smallest change of a
	// whole measurement the comparison finds (Shift.Detectable), and of one that changes
	// alone among the others of its runs (Relative.Detectable): what a pass does not rule
	// out. HaveDetectable is false when no measurement was tested.
	Detectable, DetectableAlone float64
	HaveDetectable              bool
	Tested                      int // rows tested, over every other source
	Compared                    int
	Untestable                  []string // other sources not one of whose rows could be tested
	Explanation                 string   // one line: what the gate decided and why
}

// Check applies the gate to a comparison. A source of which not one row could be
// tested (too few runs a side for the U test to reach alpha) fails the gate: a nightly
// job must not go green because it measured too little to see anything.
func (g Gate) Check(c *Comparison) GateResult {
	var res GateResult
	tested := map[string]int{}
	for _, t := range c.Tables {
		if t.Shift.Worse() && t.Shift.Regression(t.Metric) > g.FailAbove {
			res.FailedShifts = append(res.FailedShifts, t)
		}
		for _, r := range t.Rows {
			if r.Compared() {
				res.Compared++
			}
			if r.Tested {
				res.Tested++
				tested[t.Other]++
			}
			if r.Worse() && r.Regression() > g.FailAbove {
				res.Failed = append(res.Failed, r)
			}
		}
	}
	for _, o := range c.Others {
		if tested[o] == 0 {
			res.Untestable = append(res.Untestable, o)
		}
	}
	res.Detectable, res.DetectableAlone, res.HaveDetectable = detectable(c.Tables)
	switch {
	case len(res.Failed) > 0 || len(res.FailedShifts) > 0:
		var parts []string
		if len(res.Failed) > 0 {
			parts = append(parts, fmt.Sprintf("%d row(s)", len(res.Failed)))
		}
		if len(res.FailedShifts) > 0 {
			var names []string
			for _, t := range res.FailedShifts {
				names = append(names, fmt.Sprintf("%s %s", t.Measurement, Percent(t.Shift.Regression(t.Metric))))
			}
			parts = append(parts, fmt.Sprintf("%d measurement(s) as a whole (%s)", len(res.FailedShifts), strings.Join(names, ", ")))
		}
		res.Explanation = fmt.Sprintf("significant regression above %s (alpha %g after correction) in %s", Percent(g.FailAbove), c.Alpha, strings.Join(parts, " and "))
	case len(res.Untestable) > 0:
		res.Explanation = fmt.Sprintf("no row of %s vs %s could be tested: the U test needs %d runs a side at alpha %g (skampi run --append, or several files with one label) for the gate to judge",
			strings.Join(res.Untestable, ", "), c.Baseline, RunsNeeded(c.Alpha), c.Alpha)
	default:
		res.Explanation = fmt.Sprintf("no significant regression above %s in %d tested rows", Percent(g.FailAbove), res.Tested)
		if res.HaveDetectable {
			res.Explanation += fmt.Sprintf(" or %s as a whole; with these runs a measurement must change by about %s to be found (median over measurements; %s when it changes alone)",
				report.Count(countShifts(c.Tables), "measurement"), fmtDetectable(res.Detectable), fmtDetectable(res.DetectableAlone))
		}
	}
	return res
}

func countShifts(tables []Table) int {
	n := 0
	for _, t := range tables {
		if t.Shift.Tested {
			n++
		}
	}
	return n
}
