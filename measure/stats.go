package measure

import (
	"math"
	"sort"
)

// Summary describes the samples of one point. Time is SKaMPI's reported value, the
// mean of the middle half of the sorted samples, which resists the occasional
// descheduled repetition without discarding any sample from the record.
type Summary struct {
	N                  int
	Time               float64 // mean of the middle half
	Mean, Median       float64
	Min, P10, P90, Max float64
	Stderr             float64 // standard error of the mean
}

// Summarize computes the statistics of xs (not modified). An empty input gives N=0.
func Summarize(xs []float64) Summary {
	n := len(xs)
	if n == 0 {
		return Summary{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	var sum float64
	for _, x := range s {
		sum += x
	}
	mean := sum / float64(n)
	var ss float64
	for _, x := range s {
		ss += (x - mean) * (x - mean)
	}
	se := 0.0
	if n > 1 {
		se = math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
	}
	return Summary{
		N: n, Time: MiddleMean(s), Mean: mean, Median: Quantile(s, 0.5),
		Min: s[0], P10: Quantile(s, 0.1), P90: Quantile(s, 0.9), Max: s[n-1], Stderr: se,
	}
}

// MiddleMean is the mean of the sorted samples from index n/4 to n-n/4 (all of them
// when n < 4). sorted must be in ascending order.
func MiddleMean(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	lo, hi := n/4, n-n/4
	var sum float64
	for _, x := range sorted[lo:hi] {
		sum += x
	}
	return sum / float64(hi-lo)
}

// Quantile interpolates linearly between closest ranks (the R-7 / NumPy default).
// sorted must be in ascending order and non-empty.
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 1 {
		return sorted[0]
	}
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}
