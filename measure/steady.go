package measure

import (
	"fmt"
	"math"
	"slices"
)

// A point whose first repetitions ran in another state than the rest (the job still
// starting, a daemon's burst, a page-fault storm) can meet the stop rule's target on
// the transient: eight samples at 7.97 ms, the last two falling to 3.7 and 0.007 ms,
// have a middle mean of 7.97 ms with a 0.1 % error. The rule therefore calls a point
// converged only when its samples are steady too: the latest not far below the rest,
// the two halves not apart beyond their errors. Otherwise the leading samples are the
// transient: they are dropped (at most maxDrops times, counted in Result.Transient)
// and the point goes on; after that, an unsteady point goes on to its caps and says
// why (Result.Unsteady).
const (
	// fallFactor: the latest samples' median below every earlier sample by this factor
	// says the transient has just ended.
	fallFactor = 2
	// splitSigmas and splitTargets: the halves' middle means apart by this many of
	// their standard errors, and by this many stop targets (relative): a split no
	// repetition's noise makes.
	splitSigmas  = 3
	splitTargets = 2
	maxDrops     = 2
)

// transient is how many leading samples (in the order measured) are a transient to
// drop, 0 when the samples are steady, and what shows it. rel is the stop rule's
// relative target.
func transient(samples []float64, rel float64) (int, string) {
	n := len(samples)
	if n < 4 || slices.ContainsFunc(samples, func(x float64) bool { return !(x > 0) }) {
		return 0, "" // a part near zero (a subtraction's) has no scale to fall by
	}
	// A fall: the latest samples below half of every sample before them (noise that
	// mixes fast and slow repetitions throughout has fast ones before too).
	k := max(1, n/8)
	if latest, before := median(samples[n-k:]), slices.Min(samples[:n-k]); latest*fallFactor < before {
		return n - k, fmt.Sprintf("the last %d of %d repetitions fell to %.3g s, below half of every one before (at least %.3g s)", k, n, latest, before)
	}
	// A split: the halves' middle means apart beyond their errors and the target, and
	// their middle halves not overlapping.
	a, b := Summarize(samples[:n/2]), Summarize(samples[n/2:])
	d := math.Abs(a.Time - b.Time)
	qa, qb := quartiles(samples[:n/2]), quartiles(samples[n/2:])
	apart := qa[1] < qb[0] || qb[1] < qa[0]
	if apart && d > splitSigmas*math.Hypot(a.Stderr, b.Stderr) && d > splitTargets*rel*min(a.Time, b.Time) {
		return n / 2, fmt.Sprintf("the first %d repetitions took %.3g s, the next %d %.3g s", n/2, a.Time, n-n/2, b.Time)
	}
	return 0, ""
}

func median(xs []float64) float64 { return Quantile(slices.Sorted(slices.Values(xs)), 0.5) }

// quartiles is the first and third quartile of xs.
func quartiles(xs []float64) [2]float64 {
	s := slices.Sorted(slices.Values(xs))
	return [2]float64{Quantile(s, 0.25), Quantile(s, 0.75)}
}

// steady applies the steadiness check to a verdict of converged (rank 0): it drops a
// transient and judges again what is left, or refuses convergence once it may drop no
// more. judge is the stop rule on the series as it now is.
func (s *series) steady(v Verdict, rel float64, judge, limit func() Verdict) Verdict {
	for v == Converged {
		cut, why := transient(s.samples, rel)
		if cut == 0 {
			s.unsteady = ""
			return v
		}
		if s.drops >= maxDrops {
			s.unsteady = why
			return limit()
		}
		s.drops++
		s.dropped += cut
		s.samples = s.samples[cut:]
		for i := range s.perRank {
			s.perRank[i] = s.perRank[i][min(cut, len(s.perRank[i])):]
		}
		v = judge()
	}
	return v
}
