package runner

import (
	"math"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// A busy computation further than computeTolerance of its target, and more than
// computeFloor seconds (a timer read and a call cost tens of nanoseconds), is flagged.
const (
	computeTolerance = 0.25
	computeFloor     = 100e-9
)

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
func (r *Runner) measureBreakdown(pt *inputs.Point, spec OpSpec, t measure.Task) (*record.Point, error) {
	s := pt.Settings()
	iteration := s.Timer == inputs.TimerIteration
	parts := 3
	if iteration {
		parts = 5
	}
	t.Stop.MaxTime /= time.Duration(parts)
	t.Stop.Budget /= time.Duration(parts)
	at := func(p ops.Phase, spin int64) OpSpec {
		o := spec
		o.Phase, o.Spin = p, spin
		if p == ops.PhaseOverlap {
			o.ProgressEvery = s.Progress
		}
		return o
	}
	elapsed := time.Duration(0)
	var verdicts []measure.Verdict // of every measurement: the record's flags say how each stopped
	run := func(whole, part OpSpec) (*measure.Result, error) {
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

	full, err := run(at(ops.PhaseFull, 0), OpSpec{})
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
		// Nothing to calibrate against: the point is recorded with full's statistics
		// (its flags say why) and no breakdown.
		if full == nil {
			return nil, nil
		}
		return r.point(pt, full), nil
	}

	// A difference converges against full's time: the wait after an eager post, or the
	// time not hidden by the computation, may be near zero.
	t.StopScale = fullTime
	t.Iterations = int(iters)
	var post, wait measure.Estimate
	if iteration {
		p, err := run(at(ops.PhasePost, 0), OpSpec{})
		if err != nil {
			return nil, err
		}
		w, err := run(at(ops.PhaseWait, 0), OpSpec{})
		if err != nil {
			return nil, err
		}
		if p != nil {
			post, wait = estimate(p), estimate(w)
		}
	} else {
		d, err := run(at(ops.PhaseFull, 0), at(ops.PhasePost, 0))
		if err != nil {
			return nil, err
		}
		if d != nil {
			post, wait = subtracted(d), estimate(d)
		}
	}

	// The computation: calibrated on every rank now, for this point.
	nsPerIter := r.World.CalibrateSpin()
	target := ops.ComputeFactor * fullTime
	spin := int64(0)
	if nsPerIter > 0 {
		spin = int64(math.Round(target * 1e9 / nsPerIter))
	}
	rates, err := r.World.Gather(nsPerIter)
	if err != nil {
		return nil, err
	}
	spins, err := r.World.Gather(float64(spin))
	if err != nil {
		return nil, err
	}
	// A step of the overlap lasts about 1 + ComputeFactor full operations.
	t.Iterations = int(max(1, math.Round(float64(iters)/(1+ops.ComputeFactor))))
	var notHidden, compute measure.Estimate
	if iteration {
		o, err := run(at(ops.PhaseOverlap, spin), OpSpec{})
		if err != nil {
			return nil, err
		}
		c, err := run(at(ops.PhaseCompute, spin), OpSpec{})
		if err != nil {
			return nil, err
		}
		if o != nil {
			notHidden, compute = estimate(o), estimate(c)
		}
	} else {
		d, err := run(at(ops.PhaseOverlap, spin), at(ops.PhaseCompute, spin))
		if err != nil {
			return nil, err
		}
		if d != nil {
			notHidden, compute = estimate(d), subtracted(d)
		}
	}
	if r.World.Rank() != 0 {
		return nil, nil
	}
	full.Elapsed = elapsed
	p := r.point(pt, full)
	b := &record.Breakdown{
		FullS: full.Time, FullStderrS: full.Stderr, PostS: post.V, PostStderrS: post.SE,
		WaitS: wait.V, WaitStderrS: wait.SE, OverlappedS: notHidden.V, OverlappedStderrS: notHidden.SE,
		ComputeS: compute.V, ComputeTargetS: target, ProgressEvery: s.Progress,
	}
	computes := computingRanks(pt)
	for _, rank := range pt.Ranks {
		ns, n := 0.0, int64(0)
		if computes[rank] {
			ns, n = rates[rank], int64(spins[rank])
		}
		b.SpinNsPerIter = append(b.SpinNsPerIter, ns)
		b.SpinIters = append(b.SpinIters, n)
	}
	for _, e := range []measure.Estimate{post, wait, notHidden, compute} {
		if math.IsNaN(e.V) || math.IsNaN(e.SE) {
			// A measurement without one valid repetition: no breakdown rather than one
			// made up; full's time stands, and the flag says the rest is missing.
			p.AddFlag(record.FlagBreakdownMissing)
			return p, nil
		}
	}
	p.Breakdown = b
	for _, v := range verdicts {
		if f := verdictFlag(v); f != "" {
			p.AddFlag(f)
		}
	}
	flagBreakdown(p, measure.Estimate{V: full.Time, SE: full.Stderr}, post, wait, notHidden, compute, target)
	return p, nil
}

// flagBreakdown computes the overlap ratio and flags what deserves a second look.
func flagBreakdown(p *record.Point, full, post, wait, notHidden, compute measure.Estimate, target float64) {
	b := p.Breakdown
	if r, ok := measure.OverlapRatio(notHidden, full); ok {
		b.OverlapRatio, b.OverlapRatioStderr = r.Ratio, r.SE
		if r.Clamped {
			raw := r.Raw
			b.OverlapRatioRaw = &raw
			p.AddFlag(record.FlagRatioClamped)
		}
	}
	if d := math.Abs(compute.V - target); target > 0 && d > computeTolerance*target && d > computeFloor {
		p.AddFlag(record.FlagComputeOffTarget)
	}
	if wait.V < 0 || notHidden.V < 0 { // kept as measured, never clamped
		p.AddFlag(record.FlagNegative)
	}
	if !post.Sum(wait).Agrees(full, fullTolerance) {
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

// subtracted is the part a difference took off (the subtraction method's helper).
func subtracted(r *measure.Result) measure.Estimate {
	if r == nil || r.N < 2 || r.Subtracted == nil {
		return measure.Estimate{V: math.NaN(), SE: math.NaN()}
	}
	return measure.Estimate{V: *r.Subtracted, SE: r.SubtractedStderr}
}
