package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"golang.org/x/perf/benchmath"

	"github.com/skampi/skampi/report"
)

// MinP is the smallest two-sided p the Mann-Whitney U test can give with n1 and n2
// samples (no ties): 2 / C(n1+n2, n1). Below alpha, a row can be significant at all.
func MinP(n1, n2 int) float64 {
	if n1 < 1 || n2 < 1 {
		return 1
	}
	lg := func(n int) float64 { v, _ := math.Lgamma(float64(n) + 1); return v }
	return min(1, 2/math.Exp(lg(n1+n2)-lg(n1)-lg(n2)))
}

// RunsNeeded is the fewest runs a side (the same on both) for the U test to be able to
// reach alpha: 4 at 0.05, 5 at 0.01.
func RunsNeeded(alpha float64) int {
	n := 1
	for MinP(n, n) > alpha {
		n++
	}
	return n
}

// testRuns tests a compared row: the Mann-Whitney U test of the two sides' run values
// (benchmath's AssumeNothing, as benchstat). The repetitions inside a run are not
// samples of what changes between runs (the machine's level moves from run to run), so
// they are never pooled into the test. A row whose run counts could not reach alpha
// whatever the values is not tested: calling it "not significant" would claim a
// judgement the data cannot give.
func testRuns(r *Row, baseLabel, otherLabel string) {
	if mp := MinP(r.Base.Runs, r.Other.Runs); mp > r.Alpha {
		r.Notes = append(r.Notes, fmt.Sprintf("%s has %s, %s %s: no significance can be claimed (the U test's smallest p with %d+%d runs is %.3f, above alpha %g; %d runs a side can reach it): each run is one sample, add runs with skampi run --append, or tune repeats",
			baseLabel, report.Count(r.Base.Runs, "run"), otherLabel, report.Count(r.Other.Runs, "run"), r.Base.Runs, r.Other.Runs, mp, r.Alpha, RunsNeeded(r.Alpha)))
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
// source's; a tune verdict: every setting's against the baseline) for their number
// (Benjamini-Hochberg: the expected share of false discoveries among the rows called
// significant stays below alpha; with no real difference anywhere, the chance of
// calling any row significant does) and decides significance on the result. The price
// is power: a change at k of m rows needs p <= alpha*k/m there, so a change confined
// to a few sizes of many needs more runs than one across them all.
func Adjust(tables []Table, alpha float64) {
	var rows []*Row
	var ps []float64
	for i := range tables {
		for j := range tables[i].Rows {
			if r := &tables[i].Rows[j]; r.Tested {
				rows = append(rows, r)
				ps = append(ps, r.P)
			}
		}
	}
	for i, q := range BenjaminiHochberg(ps) {
		rows[i].Q = q
		rows[i].Significant = q <= alpha
	}
}

// BenjaminiHochberg adjusts p-values for their number: q[i] is the smallest false
// discovery rate at which p[i] is called significant (q >= p, at most 1), in p's order.
func BenjaminiHochberg(p []float64) []float64 {
	order := make([]int, len(p))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return p[order[i]] < p[order[j]] })
	q := make([]float64, len(p))
	m := float64(len(p))
	least := 1.0
	for r := len(order) - 1; r >= 0; r-- {
		least = min(least, p[order[r]]*m/float64(r+1))
		q[order[r]] = least
	}
	return q
}
