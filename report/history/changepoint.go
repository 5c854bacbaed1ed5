package history

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/skampi/skampi/report/compare"
)

// Detector finds change points by binary segmentation: the split of a series (log
// values in time order) whose sides differ most, a step (one change) or an arc (a
// stretch against the rest, as circular binary segmentation has it: a change and its
// undoing), tested by permuting the series, so that the p-value accounts for every
// split tried; then the same within each segment it leaves while significant. As in
// the E-divisive method used on nightly performance results, the runs are taken as
// exchangeable when nothing changed, which is all the permutation test assumes.
type Detector struct {
	Alpha      float64 // false discovery rate over a family of series (DefaultAlpha when 0)
	MinSegment int     // fewest runs on either side of a change (DefaultMinSegment when 0)
	Seed       uint64  // of the permutations: the same input gives the same answer
}

// Defaults of a Detector.
const (
	DefaultAlpha      = 0.05
	DefaultMinSegment = 3
)

// exceedances: a permutation test stops once this many permutations reached the
// observed statistic (Besag and Clifford's sequential p-value): a series without a
// change costs tens of permutations, not thousands.
const exceedances = 10

// Change is one change point of a series.
type Change struct {
	At int // the index of the first value after the change
	// P is the permutation p-value of the split that found it within its segment; Q is
	// the p-value the decision used: for a series' first split its Benjamini-Hochberg
	// adjustment over the family, for a later split P itself (see Detect).
	P, Q float64
}

// Detect finds the change points of every series of a family. A series' first split is
// significant when its p-value, adjusted by Benjamini-Hochberg over the family's series,
// is at most Alpha; a later split within a segment of a significant series must reach
// the largest p the adjustment let through (Alpha times the share of series that
// changed), the same bar as the first. Series shorter than two segments are not tested.
// The changes of each series are in time order.
func (d Detector) Detect(family [][]float64) [][]Change {
	d = d.withDefaults()
	out := make([][]Change, len(family))
	first := make([]split, len(family))
	d.each(len(family), func(i int) { first[i] = d.test(family[i], 0, len(family[i]), firstPerms, uint64(i)) })
	var tested []int
	for i, s := range first {
		if s.ok {
			tested = append(tested, i)
		}
	}
	most := d.perms(d.Alpha / float64(max(1, len(tested))))
	var qs []float64
	for {
		ps := make([]float64, len(tested))
		for j, i := range tested {
			ps[j] = first[i].p
		}
		qs = compare.BenjaminiHochberg(ps)
		// Permute further where a smaller p could change the decision: not rejected,
		// and p only bounded (the permutations reached the statistic too rarely to
		// estimate it). Lowering a p never undoes a rejection, so the rejected stay.
		var again []int
		for j, i := range tested {
			if s := first[i]; qs[j] > d.Alpha && !s.settled && s.perms < most {
				again = append(again, i)
			}
		}
		if len(again) == 0 {
			break
		}
		d.each(len(again), func(k int) {
			i := again[k]
			first[i] = d.test(family[i], 0, len(family[i]), min(most, 10*(first[i].perms+1)-1), uint64(i))
		})
	}
	rejected := 0
	for _, q := range qs {
		if q <= d.Alpha {
			rejected++
		}
	}
	bar := d.Alpha * float64(rejected) / float64(max(1, len(tested)))
	d.each(len(tested), func(j int) {
		if i := tested[j]; qs[j] <= d.Alpha {
			out[i] = d.around(family[i], 0, len(family[i]), first[i], qs[j], bar, uint64(i))
			sort.Slice(out[i], func(a, b int) bool { return out[i][a].At < out[i][b].At })
		}
	})
	return out
}

func (d Detector) withDefaults() Detector {
	if d.Alpha == 0 {
		d.Alpha = DefaultAlpha
	}
	if d.MinSegment == 0 {
		d.MinSegment = DefaultMinSegment
	}
	return d
}

// each runs f(0..n-1) on every CPU: series are independent, each with its own stream.
func (d Detector) each(n int, f func(int)) {
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < min(n, workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
}

// firstPerms: the permutations of a test before it is known whether more could matter.
const firstPerms = 999

// perms is how many permutations resolve a p-value down to bar: four times finer.
func (d Detector) perms(bar float64) int { return max(firstPerms, int(math.Ceil(4/bar))) }

// refine splits x[lo:hi] further while its best split's p is at most bar, permuting
// further (up to perms(bar)) while a p above bar is only bounded.
func (d Detector) refine(x []float64, lo, hi int, bar float64, stream uint64) []Change {
	stream += uint64(lo)<<32 + uint64(hi)<<48
	s := d.test(x, lo, hi, firstPerms, stream)
	for s.ok && s.p > bar && !s.settled && s.perms < d.perms(bar) {
		s = d.test(x, lo, hi, min(d.perms(bar), 10*(s.perms+1)-1), stream)
	}
	if !s.ok || s.p > bar {
		return nil
	}
	return d.around(x, lo, hi, s, s.p, bar, stream)
}

// around is the changes of a significant split of x[lo:hi] (decided at q) and those
// refine finds in the segments it leaves.
func (d Detector) around(x []float64, lo, hi int, s split, q, bar float64, stream uint64) []Change {
	var out []Change
	from := lo
	for _, at := range s.at {
		out = append(out, Change{At: at, P: s.p, Q: q})
		out = append(out, d.refine(x, from, at, bar, stream)...)
		from = at
	}
	return append(out, d.refine(x, from, hi, bar, stream)...)
}

// split is the best split of a segment: where (one change, or the two ends of an arc),
// and its p-value.
type split struct {
	ok bool // the segment holds two segments of MinSegment
	at []int
	p  float64
	// perms: the permutations run; settled: each scan's statistic was reached often
	// enough for its p to be an estimate, not a bound more permutations could lower.
	perms   int
	settled bool
}

// test finds the best split of x[lo:hi] and its p-value over at most n permutations of
// the segment: of a step (one change) and of an arc (a stretch against the rest: two
// changes, or one at an end), whichever is smaller of the two permutation p-values,
// each divided by its scan's share of the level (arcShare). A step alone misses a
// change undone later (the rest of the series looks like noise to it); arcs alone cost
// a step its power on a short series (there are many more of them to be large by
// chance).
func (d Detector) test(x []float64, lo, hi, n int, stream uint64) split {
	if hi-lo < 2*d.MinSegment {
		return split{}
	}
	y := slices.Clone(x[lo:hi])
	sc := &scanner{minSeg: d.MinSegment}
	w := sc.winsorize(y)
	at, step := sc.bestStep(w)
	a, b, arc := sc.bestArc(w)
	if step == 0 {
		return split{ok: true, at: []int{lo + at}, p: 1, settled: true}
	}
	rng := rand.New(rand.NewPCG(d.Seed, stream))
	var reached [2]int
	perms := 0
	for perms < n && (reached[0] < exceedances || reached[1] < exceedances) {
		perms++
		rng.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
		w := sc.winsorize(y)
		if _, s := sc.bestStep(w); s >= step*(1-1e-9) {
			reached[0]++
		}
		if _, _, s := sc.bestArc(w); s >= arc*(1-1e-9) {
			reached[1]++
		}
	}
	var p [2]float64
	for k, r := range reached {
		p[k] = float64(r+1) / float64(perms+1)
		if r >= exceedances {
			p[k] = float64(r) / float64(perms) // Besag and Clifford's sequential p
		}
	}
	p[0], p[1] = min(1, p[0]/(1-arcShare)), min(1, p[1]/arcShare)
	settled := reached[0] >= exceedances && reached[1] >= exceedances
	if p[0] <= p[1] {
		return split{ok: true, at: []int{lo + at}, p: p[0], perms: perms, settled: settled}
	}
	s := split{ok: true, p: p[1], perms: perms, settled: settled}
	for _, e := range []int{a, b} {
		if e > 0 && e < hi-lo {
			s.at = append(s.at, lo+e)
		}
	}
	return s
}

// scanner finds the best split of a segment: the largest pooled two-sample t statistic
// of its values, each first pulled in to within 3 noise levels of the median of its
// neighbourhood (itself and the two runs either side). One run on a busy machine sits
// several times the others' spread away, and in a segment of five it would move the mean
// more than the shift sought; a running median follows a step but not a lone run. The
// noise level is 1.4826 times the median absolute difference of successive runs, over
// sqrt 2: the spread about one median would count a change as noise, the differences of
// neighbours see it once.
type scanner struct {
	minSeg                int
	w, scrap, nb, between []float64
}

// neighbours: runs either side in the neighbourhood whose median a run is held to.
const neighbours = 2

// winsorize is y with each value held to within 3 noise levels of its neighbourhood's
// median (scratch: valid until the next call).
func (s *scanner) winsorize(y []float64) []float64 {
	n := len(y)
	s.w = append(s.w[:0], y...)
	s.scrap = s.scrap[:0]
	for i := 1; i < n; i++ {
		s.scrap = append(s.scrap, math.Abs(y[i]-y[i-1]))
	}
	slices.Sort(s.scrap)
	if bound := 3 * 1.4826 / math.Sqrt2 * sortedMedian(s.scrap); bound > 0 {
		for i := range y {
			s.nb = append(s.nb[:0], y[max(0, i-neighbours):min(n, i+neighbours+1)]...)
			slices.Sort(s.nb)
			med := sortedMedian(s.nb)
			s.w[i] = min(max(y[i], med-bound), med+bound)
		}
	}
	return s.w
}

func sortedMedian(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return (x[(len(x)-1)/2] + x[len(x)/2]) / 2
}

// bestStep is the split of y (at: the first index after it, at least minSeg from either
// end) with the largest pooled two-sample t statistic, and that statistic (+Inf for two
// segments without spread at different levels, 0 when none differ).
func (s *scanner) bestStep(y []float64) (at int, stat float64) {
	n := len(y)
	mean, total := s.centre(y)
	var sum, best float64
	for k := 1; k <= n-s.minSeg; k++ {
		sum += y[k-1] - mean
		if u := sum * sum * s.between[k]; k >= s.minSeg && u > best {
			at, best = k, u
		}
	}
	return at, tStat(best, total, n)
}

// bestArc is circular binary segmentation's split (Olshen et al. 2004): the stretch
// y[lo:hi] whose mean differs most from the rest's (the largest pooled t), every piece
// at least minSeg long, a stretch from either end included; and its statistic.
func (s *scanner) bestArc(y []float64) (lo, hi int, stat float64) {
	n := len(y)
	mean, total := s.centre(y)
	var best float64
	for a := 0; a <= n-s.minSeg; a++ {
		if a > 0 && a < s.minSeg {
			continue
		}
		var sum float64 // of y[a:b], centred
		for b := a + 1; b <= n; b++ {
			sum += y[b-1] - mean
			if b-a < s.minSeg || b < n && n-b < s.minSeg || a == 0 && b == n {
				continue
			}
			if u := sum * sum * s.between[b-a]; u > best {
				lo, hi, best = a, b, u
			}
		}
	}
	return lo, hi, tStat(best, total, n)
}

// centre is y's mean and sum of squares about it, and fills s.between: the sum of
// squares between a group of k values and the rest is (their centred sum)^2 times
// between[k]. The pooled t of the two groups grows with it (tStat), so the scans
// compare that.
func (s *scanner) centre(y []float64) (mean, total float64) {
	n := len(y)
	for _, v := range y {
		mean += v
	}
	mean /= float64(n)
	for _, v := range y {
		total += (v - mean) * (v - mean)
	}
	if len(s.between) != n {
		s.between = make([]float64, n)
		for k := 1; k < n; k++ {
			s.between[k] = float64(n) / float64(k*(n-k))
		}
	}
	return mean, total
}

// tStat is the pooled two-sample t of two groups of n values in all whose sum of squares
// between them is u, of total about the mean: sqrt((n-2) u / (total-u)).
func tStat(u, total float64, n int) float64 {
	switch within := total - u; {
	case u == 0:
		return 0
	case within <= 1e-12*total:
		return math.Inf(1)
	default:
		return math.Sqrt(float64(n-2) * u / within)
	}
}

// winsorize is a copy of x with values beyond 3 scaled median absolute deviations of
// the median pulled in to that distance (none when most values are equal).
func winsorize(x []float64) []float64 {
	y := slices.Clone(x)
	med := compare.Median(y)
	dev := make([]float64, len(y))
	for i, v := range y {
		dev[i] = math.Abs(v - med)
	}
	bound := 3 * 1.4826 * compare.Median(dev)
	if bound == 0 {
		return y
	}
	for i, v := range y {
		y[i] = min(max(v, med-bound), med+bound)
	}
	return y
}

// workers: series tested at once.
var workers = runtime.GOMAXPROCS(0)

// arcShare is the arc scan's share of a test's significance level (weighted
// Bonferroni): arcs are for changes undone later, which a clean step would otherwise
// pay for; a step keeps 4/5 of the level.
const arcShare = 0.2
