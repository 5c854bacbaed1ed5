package measure

import (
	"math"
	"time"
)

// MeasureDifference measures whole minus part, the subtraction method (e.g. Bcast
// followed by a Barrier, minus a Barrier): one repetition of the whole, then one of
// the part, and so on, so both see the same conditions, until the stop rule is met by
// the difference itself. Its value is Time(whole) - Time(part) and its standard error
// sqrt(se_whole² + se_part²) (the two series are independent); n is the smaller of
// the two counts of valid repetitions, the time and the discards count both. Both ops
// share t (ranks, synchronisation, stop rule); each is warmed up and calibrated on
// its own first.
//
// The Result is the whole's, with Time(part) taken off every sample (as Subtract
// does), Mean the difference of the means, Stderr the difference's, and the part's
// time and standard error in Subtracted and SubtractedStderr. A negative difference
// is kept. The Result is returned on rank 0 and nil elsewhere.
func MeasureDifference(c Comm, whole, part Op, t Task) (*Result, error) {
	start := time.Now()
	w, p := newSeries(t, 0), newSeries(t, 0)
	wi, err := warmUp(c, whole, t, start, w)
	if err != nil {
		return nil, err
	}
	pi, err := warmUp(c, part, t, start, p)
	if err != nil {
		return nil, err
	}
	w.iters, p.iters = wi, pi
	verdict, err := loop(c, func() (Verdict, error) {
		if err := w.rep(c, whole, t); err != nil {
			return Continue, err
		}
		if err := p.rep(c, part, t); err != nil {
			return Continue, err
		}
		if w.overran(t.Stop) || p.overran(t.Stop) {
			return Overrun, nil
		}
		n := min(len(w.samples), len(p.samples))
		return t.Stop.judge(n, w.discarded+p.discarded, time.Since(start), func() (float64, float64) {
			sw, sp := Summarize(w.samples), Summarize(p.samples)
			if t.StopScale > 0 {
				return t.StopScale, math.Hypot(sw.Stderr, sp.Stderr)
			}
			return sw.Time - sp.Time, math.Hypot(sw.Stderr, sp.Stderr)
		}), nil
	})
	if err != nil || c.Rank() != 0 {
		return nil, err
	}
	res := w.result()
	res.Verdict, res.Elapsed = verdict, time.Since(start)
	res.Discarded += p.discarded
	ps := Summarize(p.samples)
	if ps.N == 0 {
		// No difference without the part: no valid result, rather than the whole's
		// time passed off as one.
		res.Summary, res.Samples = Summary{}, nil
	}
	if res.N == 0 {
		return res, nil
	}
	mean, se := res.Mean-ps.Mean, math.Hypot(res.Stderr, ps.Stderr)
	res.Subtract(ps.Time)
	res.Mean, res.Stderr, res.SubtractedStderr = mean, se, ps.Stderr
	return res, nil
}
