package runner

import (
	"math"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
)

// nonblocking measures a point of a non-blocking operation the method paper's way,
// every measurement of it in turn on the same ranks and settings:
//
//   - full: post + completion; its time is the point's time;
//   - post, and wait = full - post by the subtraction method (Alg. 9), the two
//     alternating (global-loop timer); or post and wait each timed on its own
//     (iteration timer, Alg. 8);
//   - overlap: post, a busy computation of ops.ComputeFactor times full, completion,
//     less the computation alone with the same spin count, alternating (global-loop
//     timer); or the post and the completion timed apart around it (iteration timer).
//
// The point's time limits are shared out among the measurements, so the point as a
// whole keeps to them (and to its hang timeout). The outcome's result is full's, its
// parts the rest.
type nonblocking struct{}

// breakdownParts is what a non-blocking point measured beside full (rank 0).
type breakdownParts struct {
	// calibrated: full had a time to calibrate against, so the parts were measured.
	calibrated bool
	verdicts   []measure.Verdict // of every measurement: the record's flags say how each stopped
	est        breakdown
	// calibrationFull: the full measured first, when the point's full is another (the
	// global-loop timer's, alternating with the post).
	calibrationFull *float64
	target          float64 // the computation's target, seconds
	// Per world rank: the computation's rate (ns per spin), its spin count, and what a
	// timer interval costs.
	spinRates, spins, overheads []float64
}

func (nonblocking) measure(r *Runner, pt *inputs.Point, spec ops.Request, t measure.Task) (outcome, error) {
	s := pt.Settings()
	iteration := s.Timer == inputs.TimerIteration
	parts := 3
	if iteration {
		parts = 5
	}
	t.Stop.MaxTime /= time.Duration(parts)
	t.Stop.Budget /= time.Duration(parts)
	// What a timer interval costs here, taken off every interval timed per call (the
	// post always; every part under the iteration timer): a post timed per call and a
	// loop timed once are then comparable. Measured now, on every rank, for this point.
	calibrated := time.Now()
	overhead := r.World.TimerOverhead()
	overheads, err := r.World.Gather(overhead)
	if err != nil {
		return outcome{}, err
	}
	at := func(p ops.Phase, spin int64) ops.Request {
		o := spec
		// The computation alone runs in the same chunks as the overlap's, without
		// the tests: the difference is the communication and the tests' own time.
		o.Phase, o.ProgressEvery, o.TimerOverhead = p, s.Progress, overhead
		o.SetParam(ops.ParamOverlapSpin, float64(spin))
		return o
	}
	elapsed := time.Since(calibrated)
	bp := &breakdownParts{calibrated: true, overheads: overheads}
	run := func(whole, part ops.Request) (*measure.Result, error) {
		var res *measure.Result
		var err error
		if part.Info.Name == "" {
			res, err = r.measureOnce(whole, t)
		} else {
			res, err = r.measureDifference(whole, part, t)
		}
		if res != nil {
			elapsed += res.Elapsed
			bp.verdicts = append(bp.verdicts, res.Verdict)
		}
		return res, err
	}

	full, err := run(at(ops.PhaseFull, 0), ops.Request{})
	if err != nil {
		return outcome{}, err
	}
	// Every rank needs full's time and iterations: the computation is calibrated
	// against the time, and the other measurements take their iteration counts from
	// full's (calibrating on a post alone would count only the timed part of steps
	// that last the whole operation).
	fullTime, iters := math.NaN(), int64(1)
	if full != nil && full.N > 0 {
		fullTime, iters = full.Time, int64(full.Iterations)
	}
	bits, err := r.World.Bcast(int64(math.Float64bits(fullTime)))
	if err == nil {
		iters, err = r.World.Bcast(iters)
	}
	if err != nil {
		return outcome{}, err
	}
	if fullTime = math.Float64frombits(uint64(bits)); !(fullTime > 0) {
		// Nothing to calibrate against: full's statistics (its flags say why) and no
		// breakdown, which the flag says is missing.
		if full == nil {
			return outcome{}, nil
		}
		return outcome{res: full, parts: &breakdownParts{}}, nil
	}

	// A part converges against full's time: the wait after an eager post, or the time
	// not hidden by the computation, may be near zero.
	t.StopScale = fullTime
	t.Iterations = int(iters)
	bd := &bp.est
	if iteration {
		p, err := run(at(ops.PhasePost, 0), ops.Request{})
		if err != nil {
			return outcome{}, err
		}
		w, err := run(at(ops.PhaseWait, 0), ops.Request{})
		if err != nil {
			return outcome{}, err
		}
		if p != nil {
			bd.post, bd.wait = estimate(p), estimate(w)
			bd.sum = bd.post.Sum(bd.wait)
		}
	} else {
		d, err := run(at(ops.PhaseFull, 0), at(ops.PhasePost, 0))
		if err != nil {
			return outcome{}, err
		}
		if d != nil {
			bd.post, bd.wait, bd.sum = subtracted(d), estimate(d), whole(d)
		}
		// The point's full is the one the post was taken from, measured in
		// alternation with it (Alg. 9: the loop the post is subtracted from), so
		// full = post + wait; the first full only calibrated the iterations and the
		// computation, and is kept beside it.
		if wf := wholeOf(d); wf != nil && wf.N >= 2 && full != nil {
			calibration := full.Time
			bp.calibrationFull = &calibration
			bd.calibration = measure.Estimate{V: full.Time, SE: full.Stderr}
			full = wf
			bd.sum = estimate(full)
		}
	}

	// The computation: calibrated now, for this point, on the ranks that compute
	// (on the others it would only take a core from them).
	calibrated = time.Now()
	nsPerIter := 0.0
	if computingRanks(pt)[r.World.Rank()] {
		nsPerIter = r.World.CalibrateSpin()
	}
	bp.target = ops.ComputeFactor * fullTime
	spin := int64(0)
	if nsPerIter > 0 {
		spin = r.World.SpinFor(bp.target, nsPerIter)
	}
	if bp.spinRates, err = r.World.Gather(nsPerIter); err != nil {
		return outcome{}, err
	}
	if bp.spins, err = r.World.Gather(float64(spin)); err != nil {
		return outcome{}, err
	}
	elapsed += time.Since(calibrated)
	// A step of the overlap lasts about 1 + ComputeFactor full operations.
	t.Iterations = int(max(1, math.Round(float64(iters)/(1+ops.ComputeFactor))))
	if iteration {
		o, err := run(at(ops.PhaseOverlap, spin), ops.Request{})
		if err != nil {
			return outcome{}, err
		}
		c, err := run(at(ops.PhaseCompute, spin), ops.Request{})
		if err != nil {
			return outcome{}, err
		}
		if o != nil {
			bd.notHidden, bd.compute = estimate(o), estimate(c)
		}
	} else {
		d, err := run(at(ops.PhaseOverlap, spin), at(ops.PhaseCompute, spin))
		if err != nil {
			return outcome{}, err
		}
		if d != nil {
			bd.notHidden, bd.compute = estimate(d), subtracted(d)
		}
	}
	if r.World.Rank() != 0 {
		return outcome{}, nil
	}
	full.Elapsed = elapsed
	return outcome{res: full, parts: bp}, nil
}

// breakdown is what the parts of a point measured. sum is post + wait with its own
// error: by subtraction it is the whole the post was taken from (a second measurement
// of full), else the sum of two separate measurements.
type breakdown struct {
	full, post, wait, sum, notHidden, compute measure.Estimate
	// calibration: the full measured first, when the point's full is another (the
	// global-loop timer's, alternating with the post); zero otherwise.
	calibration measure.Estimate
}

// computingRanks are the ranks that run the non-blocking operation and its
// computation: every rank of a collective, the initiator of a pair.
func computingRanks(pt *inputs.Point) map[int]bool {
	out := map[int]bool{}
	for i, rank := range pt.Ranks {
		if pt.Op().Pattern == ops.PatternAll || i == 0 {
			out[rank] = true
		}
	}
	return out
}

// estimate is a result's time and standard error; unknown (NaN) without at least two
// valid repetitions, which give no error.
func estimate(r *measure.Result) measure.Estimate {
	if r == nil || r.N < 2 {
		return measure.Estimate{V: math.NaN(), SE: math.NaN()}
	}
	return measure.Estimate{V: r.Time, SE: r.Stderr}
}

// whole is the time a difference's part was taken from, with its own error.
func whole(r *measure.Result) measure.Estimate {
	if r == nil || r.N < 2 || r.Subtracted == nil {
		return measure.Estimate{V: math.NaN(), SE: math.NaN()}
	}
	// se_diff² = se_whole² + se_part²
	return measure.Estimate{V: r.Time + *r.Subtracted, SE: math.Sqrt(max(0, r.Stderr*r.Stderr-r.SubtractedStderr*r.SubtractedStderr))}
}

// wholeOf is the whole a difference's part was taken from as a result of its own (its
// samples, its statistics); nil without valid repetitions.
func wholeOf(d *measure.Result) *measure.Result {
	if d == nil || d.N == 0 || d.Subtracted == nil {
		return nil
	}
	w := *d
	s := *d.Subtracted
	w.Samples = make([]float64, len(d.Samples))
	for i, x := range d.Samples {
		w.Samples[i] = x + s
	}
	w.RankTime = make([]float64, len(d.RankTime))
	for i, x := range d.RankTime {
		w.RankTime[i] = x + s
	}
	w.Summary = measure.Summarize(w.Samples)
	w.Subtracted, w.SubtractedStderr = nil, 0
	return &w
}

// subtracted is the part a difference took off (the subtraction method's helper).
func subtracted(r *measure.Result) measure.Estimate {
	if r == nil || r.N < 2 || r.Subtracted == nil {
		return measure.Estimate{V: math.NaN(), SE: math.NaN()}
	}
	return measure.Estimate{V: *r.Subtracted, SE: r.SubtractedStderr}
}
