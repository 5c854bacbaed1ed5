package history

import (
	"math"

	"github.com/skampi/skampi/report/compare"
)

// detect fills every series and its change points. The setups are one family of tests
// and the measurements' absolute and relative series another, as compare corrects rows
// and measurements apart: a measurement is judged once as a whole, and each of its
// setups once.
func (h *History) detect(opt Options) {
	d := Detector{Alpha: opt.Alpha, MinSegment: opt.MinSegment}
	whole := make([]map[string]float64, len(h.Measurements)) // run id: mean log time
	for i := range h.Measurements {
		whole[i] = h.wholeRuns(&h.Measurements[i])
	}
	var family [][]float64
	var fill []func([]Change)
	add := func(s *Series, done func([]Change)) {
		s.Tested = len(s.Values) >= 2*opt.MinSegment
		family = append(family, s.logs())
		fill = append(fill, done)
	}
	for i := range h.Measurements {
		m := &h.Measurements[i]
		for j := range m.Setups {
			s := &m.Setups[j].Series
			add(s, func(c []Change) { s.Changes = s.steps(c) })
		}
	}
	run := func() {
		for i, c := range d.Detect(family) {
			fill[i](c)
		}
		family, fill = nil, nil
	}
	run()
	for i := range h.Measurements {
		m := &h.Measurements[i]
		m.Absolute = h.series(whole[i], math.Exp)
		m.Absolute.Gaps = m.wholeGaps(len(h.Runs))
		m.Relative = h.series(compare.LessOthers(whole, i), math.Exp)
		add(&m.Absolute, func(c []Change) { m.Absolute.Changes = m.Absolute.steps(c) })
		add(&m.Relative, func(c []Change) { m.supported(c, whole[i], h) })
	}
	run()
}

// wholeRuns is each run's mean log time over the measurement's sizes: the setups held
// by at least half of the runs holding any (a size the suite added lately, or one a run
// lost to a fault, would otherwise leave out every run or every other size), over the
// runs holding every one of them (a run that missed a size would shift its mean by the
// size's level, not by a change).
func (h *History) wholeRuns(m *Measurement) map[string]float64 {
	runs := map[int]bool{}
	for _, s := range m.Setups {
		for _, r := range s.Runs {
			runs[r] = true
		}
	}
	sum, count := map[int]float64{}, map[int]int{}
	for _, s := range m.Setups {
		if 2*len(s.Runs) < len(runs) {
			continue
		}
		m.Sizes++
		for i, r := range s.Runs {
			sum[r] += math.Log(s.Values[i])
			count[r]++
		}
	}
	out := map[string]float64{}
	for r, n := range count {
		if n == m.Sizes {
			out[h.Runs[r-1].RunID] = sum[r] / float64(n)
		}
	}
	return out
}

// series is a measurement's run values (run id: a log) in time order, as f of them.
func (h *History) series(byRun map[string]float64, f func(float64) float64) Series {
	index := map[string]int{}
	for _, r := range h.Runs {
		index[r.RunID] = r.Index
	}
	var ids []string
	var vs []float64
	for id, v := range byRun {
		ids = append(ids, id)
		vs = append(vs, f(v))
	}
	return series(ids, vs, index)
}

// supported keeps the relative changes whose runs' absolute values lean the same way
// (Welch's test over the same two segments, two-sided p at most compare.SupportP, each
// segment winsorized as the detector's, so that one slow run does not hide it) and
// moves the others to OthersMoved: a measurement that stayed while the others of its
// runs got faster differs from them as much as one that slowed among unchanged ones;
// only its own level tells the two apart.
func (m *Measurement) supported(changes []Change, abs map[string]float64, h *History) {
	steps := m.Relative.steps(changes)
	for i, st := range steps {
		lo, hi := 0, len(m.Relative.Values)
		if i > 0 {
			lo = changes[i-1].At
		}
		if i+1 < len(changes) {
			hi = changes[i+1].At
		}
		side := func(from, to int) []float64 {
			var out []float64
			for _, r := range m.Relative.Runs[from:to] {
				out = append(out, abs[h.Runs[r-1].RunID])
			}
			return out
		}
		ratio, p, _ := compare.Welch(winsorize(side(lo, changes[i].At)), winsorize(side(changes[i].At, hi)), h.Alpha)
		if p <= compare.SupportP && (ratio > 1) == (st.Ratio > 1) {
			m.Relative.Changes = append(m.Relative.Changes, st)
		} else {
			m.OthersMoved = append(m.OthersMoved, st)
		}
	}
}
