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
	// Stderr is the standard error of Time (TrimmedStderr), the statistic reported and
	// judged by the stop rule; the mean's would be inflated by the very outliers the
	// middle half leaves out.
	Stderr float64
	// BatchStderr is the batch means' error (BatchStderr): well above Stderr, the level
	// moved during the point, and Stderr understates what a second run shows.
	BatchStderr float64
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
	return Summary{
		N: n, Time: MiddleMean(s), Mean: sum / float64(n), Median: Quantile(s, 0.5),
		Min: s[0], P10: Quantile(s, 0.1), P90: Quantile(s, 0.9), Max: s[n-1], Stderr: TrimmedStderr(s), BatchStderr: BatchStderr(xs),
	}
}

// minBatch is the fewest samples a batch of BatchStderr holds: four, so that its middle
// mean leaves an outlier out as the point's own does.
const minBatch = 4

// BatchStderr is the standard error of the batch means method: the samples, in the
// order measured, cut into consecutive batches (4 from 16 samples on, 2 from 8), each
// reduced to its middle mean; the standard error is their standard deviation over the
// square root of their number. For independent samples it estimates what TrimmedStderr
// does (less precisely); for samples that drift or change level during the point (the
// machine's state, which a second run samples anew) it is larger, where TrimmedStderr,
// blind to order, is not. 0 below 8 samples.
func BatchStderr(xs []float64) float64 {
	n := len(xs)
	k := 4
	if n < k*minBatch {
		k = 2
	}
	if n < k*minBatch {
		return 0
	}
	m := make([]float64, k)
	var mean float64
	for b := range k {
		part := append([]float64(nil), xs[b*n/k:(b+1)*n/k]...)
		sort.Float64s(part)
		m[b] = MiddleMean(part)
		mean += m[b] / float64(k)
	}
	var ss float64
	for _, v := range m {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss/float64(k-1)) / math.Sqrt(float64(k))
}

// TrimmedStderr is the standard error of MiddleMean (a 25 % trimmed mean), after
// Tukey and McLaughlin, in Yuen's small-sample form: with g = n/4 samples trimmed at
// each end and h = n-2g kept, winsorise (the g lowest become the (g+1)-th, the g
// highest the (n-g)-th), then
//
//	SE = sqrt( sum (w_i - mean(w))^2 / (h (h-1)) ).
//
// For n < 4 nothing is trimmed and it is the ordinary standard error of the mean; for
// n < 2 there is no estimate and it is 0 (the stop rule never converges on one
// sample). A closed form rather than a bootstrap: it costs one pass over the sorted
// samples, so the stop rule can afford it after every repetition, and it is
// deterministic, so the same samples always give the same decision. For normal
// samples it tends to 1.09 sigma/sqrt(n) (the trimmed mean's variance is 1.19 times
// the mean's). sorted must be in ascending order.
func TrimmedStderr(sorted []float64) float64 {
	n := len(sorted)
	if n < 2 {
		return 0
	}
	g := n / 4
	h := n - 2*g // at least 2 for n >= 2
	lo, hi := sorted[g], sorted[n-1-g]
	win := func(x float64) float64 { return min(max(x, lo), hi) }
	var sum float64
	for _, x := range sorted {
		sum += win(x)
	}
	mw := sum / float64(n)
	var ss float64
	for _, x := range sorted {
		d := win(x) - mw
		ss += d * d
	}
	return math.Sqrt(ss / float64(h*(h-1)))
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
