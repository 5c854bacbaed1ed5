package compare

import "fmt"

// Gate is the check of a nightly job: a significant regression beyond a threshold fails it.
type Gate struct {
	// FailAbove is the largest regression tolerated, as a fraction (0.05: 5 %): a row
	// significantly worse by more fails the gate.
	FailAbove float64
}

// GateResult is what a gate found.
type GateResult struct {
	Failed      []Row // significant regressions beyond the threshold
	Tested      int   // rows tested, over every other source
	Compared    int
	Untestable  bool   // not one row could be tested: the gate cannot judge
	Explanation string // one line: what the gate decided and why
}

// Check applies the gate to a comparison. A comparison where no row could be tested
// (a side with a single run) cannot pass the gate: a nightly job must not go green
// because it measured too little to see anything.
func (g Gate) Check(c *Comparison) GateResult {
	var res GateResult
	for _, t := range c.Tables {
		for _, r := range t.Rows {
			if r.Compared() {
				res.Compared++
			}
			if r.Tested {
				res.Tested++
			}
			if r.Worse() && r.Regression() > g.FailAbove {
				res.Failed = append(res.Failed, r)
			}
		}
	}
	switch {
	case len(res.Failed) > 0:
		res.Explanation = fmt.Sprintf("%d significant regression(s) above %s (alpha %g after correction)", len(res.Failed), fmtPercent(g.FailAbove), c.Alpha)
	case res.Tested == 0:
		res.Untestable = true
		res.Explanation = fmt.Sprintf("no row could be tested (%d compared): a side needs at least %d runs (skampi run --append, several files with one label) for the gate to judge", res.Compared, MinRuns)
	default:
		res.Explanation = fmt.Sprintf("no significant regression above %s in %d tested rows", fmtPercent(g.FailAbove), res.Tested)
	}
	return res
}
