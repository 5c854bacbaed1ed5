package report

import (
	"math"
	"slices"

	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/record"
)

// RunSpread is one point measured by several runs of the same suite (skampi --runs N):
// the median over the runs of its time, their spread, and whether one run's own error
// covers that spread.
type RunSpread struct {
	Key        record.Key // without ranks: the same point in every run
	Runs       int
	MedianS    float64
	MinS, MaxS float64
	// RunSD is the standard deviation of time_s over the runs; StderrS the median of the
	// runs' own stderr_s.
	RunSD, StderrS float64
	// Understated: the runs scatter by more than twice one run's error: the error a run
	// prints does not cover what another launch shows.
	Understated bool
}

// Spreads is every point that runs (by run id) measured more than once, in the order
// the first of them recorded it.
func Spreads(res *Results, runs []string) []RunSpread {
	times := map[record.Key][]float64{}
	errs := map[record.Key][]float64{}
	var order []record.Key
	for i := range res.Points {
		p := &res.Points[i]
		if !slices.Contains(runs, p.RunID) || p.Reps == 0 || !(p.TimeS > 0) {
			continue
		}
		k := p.Key().WithoutRanks()
		if _, seen := times[k]; !seen {
			order = append(order, k)
		}
		times[k] = append(times[k], p.TimeS)
		errs[k] = append(errs[k], p.StderrS)
	}
	var out []RunSpread
	for _, k := range order {
		ts := times[k]
		if len(ts) < 2 {
			continue
		}
		s := RunSpread{Key: k, Runs: len(ts), MedianS: measure.Quantile(slices.Sorted(slices.Values(ts)), 0.5),
			MinS: slices.Min(ts), MaxS: slices.Max(ts), RunSD: sd(ts), StderrS: measure.Quantile(slices.Sorted(slices.Values(errs[k])), 0.5)}
		s.Understated = s.RunSD > 2*s.StderrS
		out = append(out, s)
	}
	return out
}

func sd(xs []float64) float64 {
	var m float64
	for _, x := range xs {
		m += x / float64(len(xs))
	}
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}
