package runner

import (
	"math"
	"slices"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/record"
)

// Refinement (the setting refine) runs after the last listed point of a curve: rank 0
// chooses the next size from the times it has, every rank follows (broadcast), and
// the new point is measured like any other. The choice depends only on the curve's
// times, so a resumed run, reading them back from its earlier records, chooses the
// same sizes again and skips those already measured.

// Estimate is a point's time_s with its standard error: refinement judges a change by
// both, so a repetition's noise is not taken for a bend.
type Estimate struct{ TimeS, StderrS float64 }

// significance is how many standard errors a change must exceed, beside max_gap, to
// count: one noisy estimate must not send the bisection into a flat half.
const significance = 3

// refiner chooses the sizes of one curve (rank 0).
type refiner struct {
	gap     float64
	budget  int                // sizes it may still add
	elem    int64              // the finest step: one element of the point's datatype
	est     map[int64]Estimate // every size measured; a zero time: none (a fault)
	queue   []span             // intervals still to look at
	pending span               // the interval of the size next chose
	steps   []span             // one-element intervals the curve jumps across
}

// span is an interval between two measured sizes that may hide a bend or a step.
type span struct{ lo, hi int64 }

func newRefiner(r inputs.Refine, elem int64, est map[int64]Estimate) *refiner {
	f := &refiner{gap: r.MaxGap, budget: r.MaxPoints, elem: max(elem, 1), est: est}
	sizes := f.sizes()
	for i := 1; i < len(sizes); i++ {
		f.consider(span{sizes[i-1], sizes[i]})
	}
	return f
}

func (f *refiner) sizes() []int64 {
	out := make([]int64, 0, len(f.est))
	for s := range f.est {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// consider queues an interval whose time changes by more than the gap and by more
// than its noise: a flat one (latency-bound sizes) hides nothing worth a point. One
// element wide, it cannot be split: the curve steps there.
func (f *refiner) consider(s span) {
	a, b := f.est[s.lo], f.est[s.hi]
	if a.TimeS <= 0 || b.TimeS <= 0 || change(a.TimeS, b.TimeS) <= f.gap || !apart(a, b) {
		return
	}
	if s.hi-s.lo <= f.elem {
		f.steps = append(f.steps, s)
		return
	}
	f.queue = append(f.queue, s)
}

// change is how much the time changes across an interval, relative to the smaller.
func change(a, b float64) float64 { return math.Abs(b-a) / min(a, b) }

// apart: two estimates differ by more than significance standard errors.
func apart(a, b Estimate) bool {
	return math.Abs(b.TimeS-a.TimeS) > significance*math.Hypot(a.StderrS, b.StderrS)
}

// next is the size to measure next, and false when the curve is refined enough or the
// budget is spent. The interval that changes most goes first: a protocol's step
// before a smooth doubling.
func (f *refiner) next() (int64, bool) {
	for f.budget > 0 && len(f.queue) > 0 {
		i := 0
		for j, s := range f.queue {
			if f.changeOf(s) > f.changeOf(f.queue[i]) {
				i = j
			}
		}
		s := f.queue[i]
		f.queue = slices.Delete(f.queue, i, i+1)
		mid := s.lo + (s.hi-s.lo)/2
		mid -= mid % f.elem
		if mid <= s.lo || mid >= s.hi {
			continue
		}
		if _, done := f.est[mid]; done { // measured in the listed sizes
			continue
		}
		f.budget--
		f.pending = s
		return mid, true
	}
	return 0, false
}

func (f *refiner) changeOf(s span) float64 { return change(f.est[s.lo].TimeS, f.est[s.hi].TimeS) }

// measured takes the estimate of the size next chose. A midpoint off the straight
// line between its neighbours by more than the gap and by more than the noise of the
// three says the interval bends or steps: both halves are looked at again; on the
// line (or within the noise), the interval is smooth.
func (f *refiner) measured(size int64, e Estimate) {
	f.est[size] = e
	s := f.pending
	a, b := f.est[s.lo], f.est[s.hi]
	if e.TimeS <= 0 {
		return // a fault: nothing to judge by
	}
	w := float64(size-s.lo) / float64(s.hi-s.lo)
	line := Estimate{a.TimeS + (b.TimeS-a.TimeS)*w, math.Hypot((1-w)*a.StderrS, w*b.StderrS)}
	if math.Abs(e.TimeS-line.TimeS)/line.TimeS <= f.gap || !apart(e, line) {
		return
	}
	f.consider(span{s.lo, size})
	f.consider(span{size, s.hi})
}

// found is the one-element intervals the curve steps across, smallest first.
func (f *refiner) found() []span {
	out := slices.Clone(f.steps)
	slices.SortFunc(out, func(a, b span) int { return int(a.lo - b.lo) })
	return out
}

// curveKey: the points of one curve, all its sizes: one measurement, one communicator,
// one method.
type curveKey struct {
	m      *inputs.Measurement
	nprocs int
	comm   string
	method string
}

func curveOf(pt *inputs.Point) curveKey {
	return curveKey{pt.Measurement, pt.NProcs, record.RanksKey(pt.Comm), pt.Method}
}

// refineAfter refines the curves that end with points[i] (curvesEndingAt). Added
// points are numbered after the plan's (next).
func (r *Runner) refineAfter(points []inputs.Point, i int, syncer measure.Syncer, next *int) error {
	for _, listed := range curvesEndingAt(points, i) {
		if err := r.refineCurve(listed, syncer, next); err != nil {
			return err
		}
	}
	return nil
}

// curvesEndingAt is the curves to refine after points[i]: those of its measurement
// and communicator when it refines and the next point is another's or there is none,
// one curve per method, each its listed points; nil otherwise.
func curvesEndingAt(points []inputs.Point, i int) [][]*inputs.Point {
	pt := &points[i]
	if !pt.Settings().Refine.On() || pt.Op().NoData {
		return nil
	}
	same := func(p *inputs.Point) bool {
		return p.Measurement == pt.Measurement && p.NProcs == pt.NProcs && slices.Equal(p.Comm, pt.Comm)
	}
	if i+1 < len(points) && same(&points[i+1]) {
		return nil
	}
	first := i
	for first > 0 && same(&points[first-1]) {
		first--
	}
	var curves []curveKey
	members := map[curveKey][]*inputs.Point{}
	for j := first; j <= i; j++ {
		k := curveOf(&points[j])
		if _, ok := members[k]; !ok {
			curves = append(curves, k)
		}
		members[k] = append(members[k], &points[j])
	}
	out := make([][]*inputs.Point, len(curves))
	for i, k := range curves {
		out[i] = members[k]
	}
	return out
}

// FirstMissing walks the points in the order Run measures them, the sizes refinement
// adds included, chosen from the recorded times as Run chose them, and returns the
// first without a record (has), nil when every one has: where a job that died was,
// even inside a refinement. time gives a recorded point's estimate by its key without
// ranks (zero: none, a fault).
func FirstMissing(points []inputs.Point, has func(record.Key) bool, time func(record.Key) Estimate) *inputs.Point {
	for i := range points {
		if !has(points[i].LookupKey()) {
			return &points[i]
		}
		for _, listed := range curvesEndingAt(points, i) {
			times := map[int64]Estimate{}
			for _, p := range listed {
				times[p.Size] = time(p.Key().WithoutRanks())
			}
			base := listed[0]
			f := newRefiner(base.Settings().Refine, base.Settings().SizeGrain(base.Op()), times)
			for {
				s, ok := f.next()
				if !ok {
					break
				}
				pt := *base
				pt.Size, pt.Refined, pt.Index = s, true, 0
				if !has(pt.LookupKey()) {
					return &pt
				}
				f.measured(s, time(pt.Key().WithoutRanks()))
			}
		}
	}
	return nil
}

// refineCurve measures the sizes rank 0's refiner chooses, one point at a time; each
// choice is broadcast (-1: done), so every rank runs the same points.
func (r *Runner) refineCurve(listed []*inputs.Point, syncer measure.Syncer, next *int) error {
	var f *refiner
	if r.World.Rank() == 0 {
		times := map[int64]Estimate{}
		for _, p := range listed {
			times[p.Size] = r.times[p.Key().WithoutRanks()]
		}
		base := listed[0]
		f = newRefiner(base.Settings().Refine, base.Settings().SizeGrain(base.Op()), times)
	}
	for {
		size := int64(-1)
		if f != nil {
			if s, ok := f.next(); ok {
				size = s
			}
		}
		got, err := r.World.Bcast(size)
		if err != nil {
			return err
		}
		if got < 0 {
			return r.confirmSteps(listed[0], f, syncer, *next)
		}
		pt := *listed[0]
		pt.Size, pt.Refined, pt.Index = got, true, *next
		*next++
		if err := r.runPoint(&pt, syncer); err != nil {
			return err
		}
		if f != nil {
			f.measured(got, r.times[pt.Key().WithoutRanks()])
		}
	}
}

// noteTime keeps a point's estimate for refinement (rank 0): measured now, or in the
// run this one resumes.
func (r *Runner) noteTime(k record.Key, e Estimate) {
	if r.times == nil {
		r.times = map[record.Key]Estimate{}
	}
	r.times[k.WithoutRanks()] = e
}
