package runner

import (
	"math"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// A busy computation further than computeTolerance of its target, and beyond three
// standard errors of its measurement, is flagged, however short: the computation is
// calibrated at its own length (SpinFor), so a short one has no excuse.
const computeTolerance = 0.25

// fullTolerance: post + wait and the full operation, measured apart, may differ by
// this share of the larger before they are flagged (beyond three standard errors).
const fullTolerance = 0.10

// measureBreakdown measures a point of a non-blocking operation the method paper's
// way, every measurement of it in turn on the same ranks and settings:
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
// whole keeps to them (and to its hang timeout). The Result is full's; the record
// rank 0 makes from it gets the breakdown.
func (r *Runner) measureBreakdown(pt *inputs.Point, spec ops.Request, t measure.Task) (*record.Point, error) {
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
		return nil, err
	}
	at := func(p ops.Phase, spin int64) ops.Request {
		o := spec
		// The computation alone runs in the same chunks as the overlap's, without
		// the tests: the difference is the communication and the tests' own time.
		o.Phase, o.Spin, o.ProgressEvery, o.TimerOverhead = p, spin, s.Progress, overhead
		return o
	}
	elapsed := time.Since(calibrated)
	var verdicts []measure.Verdict // of every measurement: the record's flags say how each stopped
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
			verdicts = append(verdicts, res.Verdict)
		}
		return res, err
	}

	full, err := run(at(ops.PhaseFull, 0), ops.Request{})
	if err != nil {
		return nil, err
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
		return nil, err
	}
	if fullTime = math.Float64frombits(uint64(bits)); !(fullTime > 0) {
		// Nothing to calibrate against: full's statistics (its flags say why) and no
		// breakdown, which the flag says is missing.
		if full == nil {
			return nil, nil
		}
		p := r.point(pt, full)
		p.AddFlag(record.FlagBreakdownMissing)
		if full.N > 0 && full.Time <= 0 {
			// The iteration timer's full less its clock reads' cost: kept as measured.
			p.AddFlag(record.FlagNegative)
		}
		return p, nil
	}

	// A part converges against full's time: the wait after an eager post, or the time
	// not hidden by the computation, may be near zero.
	t.StopScale = fullTime
	t.Iterations = int(iters)
	var bd breakdown
	var calibrationFull *float64
	if iteration {
		p, err := run(at(ops.PhasePost, 0), ops.Request{})
		if err != nil {
			return nil, err
		}
		w, err := run(at(ops.PhaseWait, 0), ops.Request{})
		if err != nil {
			return nil, err
		}
		if p != nil {
			bd.post, bd.wait = estimate(p), estimate(w)
			bd.sum = bd.post.Sum(bd.wait)
		}
	} else {
		d, err := run(at(ops.PhaseFull, 0), at(ops.PhasePost, 0))
		if err != nil {
			return nil, err
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
			calibrationFull = &calibration
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
	target := ops.ComputeFactor * fullTime
	spin := int64(0)
	if nsPerIter > 0 {
		spin = r.World.SpinFor(target, nsPerIter)
	}
	rates, err := r.World.Gather(nsPerIter)
	if err != nil {
		return nil, err
	}
	spins, err := r.World.Gather(float64(spin))
	if err != nil {
		return nil, err
	}
	elapsed += time.Since(calibrated)
	// A step of the overlap lasts about 1 + ComputeFactor full operations.
	t.Iterations = int(max(1, math.Round(float64(iters)/(1+ops.ComputeFactor))))
	if iteration {
		o, err := run(at(ops.PhaseOverlap, spin), ops.Request{})
		if err != nil {
			return nil, err
		}
		c, err := run(at(ops.PhaseCompute, spin), ops.Request{})
		if err != nil {
			return nil, err
		}
		if o != nil {
			bd.notHidden, bd.compute = estimate(o), estimate(c)
		}
	} else {
		d, err := run(at(ops.PhaseOverlap, spin), at(ops.PhaseCompute, spin))
		if err != nil {
			return nil, err
		}
		if d != nil {
			bd.notHidden, bd.compute = estimate(d), subtracted(d)
		}
	}
	if r.World.Rank() != 0 {
		return nil, nil
	}
	full.Elapsed = elapsed
	p := r.point(pt, full)
	for _, v := range verdicts { // before anything can return: they say why a part is missing
		if f := verdictFlag(v); f != "" {
			p.AddFlag(f)
		}
	}
	for _, e := range []measure.Estimate{bd.post, bd.wait, bd.notHidden, bd.compute} {
		if math.IsNaN(e.V) || math.IsNaN(e.SE) {
			// A part with fewer than two valid repetitions (no error): no breakdown
			// rather than one made up; full's time stands, the flag says the rest is missing.
			p.AddFlag(record.FlagBreakdownMissing)
			return p, nil
		}
	}
	b := &record.Breakdown{
		FullS: full.Time, FullStderrS: full.Stderr, PostS: bd.post.V, PostStderrS: bd.post.SE,
		WaitS: bd.wait.V, WaitStderrS: bd.wait.SE, OverlappedS: bd.notHidden.V, OverlappedStderrS: bd.notHidden.SE,
		ComputeS: bd.compute.V, ComputeTargetS: target, ProgressEvery: s.Progress,
		FullCalibrationS: calibrationFull,
	}
	if spec.Info.SHMEM { // no MPI request to test: the setting does nothing there
		b.ProgressEvery = 0
	}
	computes := computingRanks(pt)
	for _, rank := range pt.Ranks {
		ns, n := 0.0, int64(0)
		if computes[rank] {
			ns, n = rates[rank], int64(spins[rank])
		}
		b.SpinNsPerIter = append(b.SpinNsPerIter, ns)
		b.SpinIters = append(b.SpinIters, n)
		b.TimerOverheadS = append(b.TimerOverheadS, overheads[rank])
	}
	p.Breakdown = b
	bd.full = measure.Estimate{V: full.Time, SE: full.Stderr}
	flagBreakdown(p, bd, target)
	return p, nil
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

// flagBreakdown computes the overlap ratio and flags what deserves a second look.
func flagBreakdown(p *record.Point, bd breakdown, target float64) {
	b := p.Breakdown
	if r, ok := measure.OverlapRatio(bd.notHidden, bd.full); ok {
		b.OverlapRatio, b.OverlapRatioStderr = r.Ratio, r.SE
		if r.Clamped {
			raw := r.Raw
			b.OverlapRatioRaw = &raw
			p.AddFlag(record.FlagRatioClamped)
		}
	}
	if d := math.Abs(bd.compute.V - target); target > 0 && d > computeTolerance*target && d > 3*bd.compute.SE {
		p.AddFlag(record.FlagComputeOffTarget)
	}
	if bd.wait.V < 0 || bd.notHidden.V < 0 || bd.post.V < 0 { // kept as measured, never clamped
		p.AddFlag(record.FlagNegative)
	}
	// post + wait against full; with the global-loop timer, where they add up to it by
	// construction, the full measured first against the one alternating with the post:
	// conditions that changed within the point (the method paper's "stability").
	if !bd.sum.Agrees(bd.full, fullTolerance) || bd.calibration.V > 0 && !bd.calibration.Agrees(bd.full, fullTolerance) {
		p.AddFlag(record.FlagFullMismatch)
	}
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
