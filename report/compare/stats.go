package compare

import (
	"fmt"
	"slices"
	"sort"

	"golang.org/x/perf/benchmath"
)

// MinRuns is the fewest runs a side needs for its row to be tested: with one run there
// is no run-to-run spread to judge a difference against.
const MinRuns = 2

// testRuns tests a compared row: the Mann-Whitney U test of the two sides' run values
// (benchmath's AssumeNothing, as benchstat). The repetitions inside a run are not
// samples of what changes between runs (the machine's level moves from run to run), so
// they are never pooled into the test.
func testRuns(r *Row, baseLabel, otherLabel string) {
	if r.Base.Runs < MinRuns || r.Other.Runs < MinRuns {
		r.Notes = append(r.Notes, fmt.Sprintf("%s has %d run(s), %s %d: no significance can be claimed with fewer than %d runs a side (each run is one sample; add runs with skampi run --append, or tune repeats)",
			baseLabel, r.Base.Runs, otherLabel, r.Other.Runs, MinRuns))
		return
	}
	th := &benchmath.Thresholds{CompareAlpha: r.Alpha}
	// NewSample sorts its values: give it copies.
	s1 := benchmath.NewSample(slices.Clone(r.Base.RunTimesS), th)
	s2 := benchmath.NewSample(slices.Clone(r.Other.RunTimesS), th)
	cmp := benchmath.AssumeNothing.Compare(s1, s2)
	r.Tested, r.P, r.Q = true, cmp.P, cmp.P
	for _, w := range cmp.Warnings {
		r.Notes = append(r.Notes, w.Error())
	}
}

// Adjust corrects the p-values of every tested row of the tables (Compare: one other
// source's; a tune verdict: every setting's against the baseline) for their number (Benjamini-Hochberg: the expected share of false discoveries among the
// rows called significant stays below alpha; with no real difference anywhere, the
// chance of calling any row significant does) and decides significance on the result.
func Adjust(tables []Table, alpha float64) {
	var rows []*Row
	for i := range tables {
		for j := range tables[i].Rows {
			if r := &tables[i].Rows[j]; r.Tested {
				rows = append(rows, r)
			}
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].P < rows[j].P })
	m := float64(len(rows))
	q := 1.0
	for i := len(rows) - 1; i >= 0; i-- {
		q = min(q, rows[i].P*m/float64(i+1))
		rows[i].Q = q
		rows[i].Significant = q <= alpha
	}
}
