package runner

import (
	"fmt"
	"math"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/repsync"
)

// The engine produces results and the strategies outcomes; records are made here, and
// only here.

// buildRecord assembles the record of a measured point from the point and what
// measuring it brought back. It returns the point, and the fault that stands in for it
// when check_data found a corrupt byte (its time is not a measurement of the operation).
func (r *Runner) buildRecord(pt *inputs.Point, o outcome) (*record.Point, *record.Fault) {
	p := r.point(pt, o.res)
	if o.parts != nil {
		breakdownFields(p, pt, o.res, o.parts)
	}
	syncFields(p, o.window)
	recordFamilies(p, pt, o.notes)
	noiseFields(p, pt, o.noise)
	if m, _ := pt.Op().Method(pt.Method); m.RootTimed && p.Reps > 0 && p.TimeS <= 0 {
		p.AddFlag(record.FlagNegative) // the kernel subtracted its helper time
	}
	if pt.Fallback != "" {
		p.AddFlag(record.FlagPairFallback)
	}
	if o.pvars != nil {
		p.PVars, p.PVarsMissing = o.pvars.vals, o.pvars.missing
	}
	if o.corrupt != nil {
		return p, corruptFault(pt, r.RunID, o.corrupt, p)
	}
	return p, nil
}

// point is the record of a point measured with result res: what the point is, res's
// statistics, and what follows from the operation's catalogue entry.
func (r *Runner) point(pt *inputs.Point, res *measure.Result) *record.Point {
	m, op, s := pt.Measurement, pt.Op(), pt.Settings()
	p := &record.Point{
		RunID: r.RunID, PointIndex: pt.Index, Measurement: m.Name, MeasurementIndex: m.Index,
		Op: op.Name, Method: pt.Method, Family: op.Family, MsgBytes: pt.Size, NProcs: pt.NProcs, Refined: pt.Refined,
		Ranks: pt.Ranks, Timer: s.Timer, Sync: s.Sync,
	}
	if op.Windowed {
		p.Window, p.RecvSlots = s.Window, s.RecvSlots
	}
	if w := s.WindowFor(op, pt.Method); !op.Windowed && w > 1 {
		// IMB-IO's aggregate mode: w writes a sample, time_s per write. One write a
		// sample is recorded as it always was, without a window.
		p.Window = w
	}
	p.Cache, p.CheckData = s.Cache, s.CheckData
	if p.Cache == inputs.CacheCold {
		p.ColdAreaBytes = ops.ColdArea(s.CacheSize)
	}
	fill(p, res, s.MinReps)
	p.TaskTimeS = res.TaskTimes
	if m, _ := op.Method(pt.Method); op.SingleShot && res.Iterations > 1 && !m.BarrierEach {
		// Asked for explicitly: consecutive calls overlap, which is a different
		// measurement from one synchronised call (what OSU and IMB report, though).
		p.AddFlag(record.FlagPipelined)
	}
	if m, _ := op.Method(pt.Method); s.Sync == "window" || m.WindowSync {
		// Repetitions that started late are discarded; how many says how well the
		// window fits the operation.
		// A subtraction ran whole and part alternately, N valid repetitions of each.
		valid := res.N
		if m.Subtract != "" {
			valid *= 2
		}
		frac := float64(res.Discarded) / float64(max(1, valid+res.Discarded))
		p.InvalidFraction = &frac
	}
	if res.N == 0 {
		return p
	}
	if res.Subtracted != nil && p.TimeS <= 0 { // not even zero is a time of the operation
		p.AddFlag(record.FlagNegative)
	}
	if op.RoundTrip {
		lat := p.TimeS / 2
		p.LatencyS = &lat
	}
	if op.AtomicRate && p.TimeS > 0 && pt.NProcs > 1 {
		rate := float64(pt.NProcs-1) / p.TimeS
		p.OpsPerS = &rate
	}
	if op.Throughput && p.TimeS > 0 {
		tp := float64(pt.NProcs-1) * float64(pt.Size) / p.TimeS
		p.ThroughputBps = &tp
	}
	if op.Bandwidth && p.TimeS > 0 {
		bw := op.BytesMoved(pt.Size, s.Window, op.Pairs(r.World.Size())) / p.TimeS
		if !math.IsInf(bw, 0) {
			p.BandwidthBps = &bw
		}
		rate := op.Messages(s.Window, op.Pairs(r.World.Size())) / p.TimeS
		p.MessagesPerS = &rate
	}
	return p
}

// fill copies a Result's statistics into the point record and sets the flags its stop
// verdict, repetition count and subtraction call for. minReps is the point's
// min_repetitions.
func fill(p *record.Point, r *measure.Result, minReps int) {
	p.Kind = record.KindPoint
	p.Iterations = r.Iterations
	p.Reps, p.Discarded = r.N, r.Discarded
	p.Stop = r.Verdict.String()
	p.ElapsedS = r.Elapsed.Seconds()
	p.SamplesS = r.Samples
	p.RankTimeS = r.RankTime
	if f := verdictFlag(r.Verdict); f != "" {
		p.AddFlag(f)
	}
	if p.TransientReps, p.Unsteady = r.Transient, r.Unsteady; r.Transient > 0 {
		p.AddFlag(record.FlagTransient)
	}
	if r.Unsteady != "" {
		p.AddFlag(record.FlagUnsteady)
	}
	p.SubtractedS = r.Subtracted
	if r.Subtracted != nil {
		se := r.SubtractedStderr
		p.SubtractedStderr = &se
	}
	if r.N == 0 {
		// JSON has no NaN: the times stay 0 and the flag says there are none.
		p.AddFlag(record.FlagNoValidReps)
		return
	}
	if r.N < minReps {
		p.AddFlag(record.FlagFewReps)
	}
	s := r.Summary
	p.TimeS, p.MeanS, p.MedianS = s.Time, s.Mean, s.Median
	p.MinS, p.P10S, p.P90S, p.MaxS, p.StderrS = s.Min, s.P10, s.P90, s.Max, s.Stderr
	if s.BatchStderr > 0 {
		b := s.BatchStderr
		p.BatchStderrS = &b
		if b > 2*s.Stderr {
			p.AddFlag(record.FlagDrift)
		}
	}
}

// verdictFlag is the flag of a measurement that stopped before converging ("": none).
func verdictFlag(v measure.Verdict) string {
	switch v {
	case measure.MaxReps:
		return record.FlagMaxReps
	case measure.TimeCap:
		return record.FlagTimeCap
	case measure.DiscardCap:
		return record.FlagDiscardCap
	case measure.Overrun:
		return record.FlagOverrun
	}
	return ""
}

// syncFields records the window a window-synchronised point ended with.
func syncFields(p *record.Point, win *repsync.Window) {
	if win != nil {
		p.Sync = win.Name()
		wd := win.Width()
		p.WindowS = &wd
	}
}

// WarmUnchecked says what a point of an operation that reaches neither a window nor
// symmetric memory with the cache setting yet measured (warm), and checks its data
// only where the check may reach it (ops.Info.DataCheckReaches): the one-sided and
// OpenSHMEM families' records.
func WarmUnchecked(p *record.Point, pt *inputs.Point) {
	p.Cache, p.ColdAreaBytes = inputs.CacheWarm, 0
	p.CheckData = p.CheckData && pt.Op().DataCheckReaches(pt.Method)
}

// corruptFault is the record of a point whose data arrived corrupt: its time is not
// a measurement of the operation, so the fault stands in for the point.
func corruptFault(pt *inputs.Point, runID string, c *record.Corrupt, p *record.Point) *record.Fault {
	f := pt.Fault(runID)
	f.Mark(record.FaultCorrupt, fmt.Sprintf("rank %d received byte %d of the message from rank %d (slot %d) as 0x%02x, sent 0x%02x, in repetition %d",
		c.Rank, c.Offset, c.From, c.Slot, c.Actual, c.Expected, c.Repetition))
	f.Corrupt, f.ElapsedS = c, p.ElapsedS
	return &f
}

// A busy computation further than computeTolerance of its target, and beyond three
// standard errors of its measurement, is flagged, however short: the computation is
// calibrated at its own length (SpinFor), so a short one has no excuse.
const computeTolerance = 0.25

// fullTolerance: post + wait and the full operation, measured apart, may differ by
// this share of the larger before they are flagged (beyond three standard errors).
const fullTolerance = 0.10

// breakdownFields adds a non-blocking point's breakdown to its record (full's), or the
// flag that says it is missing: full gave nothing to calibrate against, or a part had
// fewer than two valid repetitions (no error). Full's time stands either way; no
// breakdown is made up.
func breakdownFields(p *record.Point, pt *inputs.Point, full *measure.Result, bp *breakdownParts) {
	if !bp.calibrated {
		p.AddFlag(record.FlagBreakdownMissing)
		if full.N > 0 && full.Time <= 0 {
			// The iteration timer's full less its clock reads' cost: kept as measured.
			p.AddFlag(record.FlagNegative)
		}
		return
	}
	for _, v := range bp.verdicts { // before anything can return: they say why a part is missing
		if f := verdictFlag(v); f != "" {
			p.AddFlag(f)
		}
	}
	bd := bp.est
	for _, e := range []measure.Estimate{bd.post, bd.wait, bd.notHidden, bd.compute} {
		if math.IsNaN(e.V) || math.IsNaN(e.SE) {
			p.AddFlag(record.FlagBreakdownMissing)
			return
		}
	}
	if !(full.Time > 0) {
		// The full the parts add up to came out at or below zero: no overlap ratio can
		// be taken of it, so no breakdown; kept as measured, and said why.
		p.AddFlag(record.FlagBreakdownMissing)
		p.AddFlag(record.FlagNegative)
		return
	}
	b := &record.Breakdown{
		FullS: full.Time, FullStderrS: full.Stderr, PostS: bd.post.V, PostStderrS: bd.post.SE,
		WaitS: bd.wait.V, WaitStderrS: bd.wait.SE, OverlappedS: bd.notHidden.V, OverlappedStderrS: bd.notHidden.SE,
		ComputeS: bd.compute.V, ComputeTargetS: bp.target, ProgressEvery: pt.Settings().Progress,
		FullCalibrationS: bp.calibrationFull,
	}
	computes := computingRanks(pt)
	for _, rank := range pt.Ranks {
		ns, n := 0.0, int64(0)
		if computes[rank] {
			ns, n = bp.spinRates[rank], int64(bp.spins[rank])
		}
		b.SpinNsPerIter = append(b.SpinNsPerIter, ns)
		b.SpinIters = append(b.SpinIters, n)
		b.TimerOverheadS = append(b.TimerOverheadS, bp.overheads[rank])
	}
	p.Breakdown = b
	bd.full = measure.Estimate{V: full.Time, SE: full.Stderr}
	flagBreakdown(p, bd, bp.target)
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
	// Kept as measured, never clamped. The iteration timer takes its clock reads' cost
	// off every part, the computation too: a computation shorter than that cost (a
	// target of a few tens of nanoseconds) comes out negative.
	if bd.wait.V < 0 || bd.notHidden.V < 0 || bd.post.V < 0 || bd.compute.V < 0 {
		p.AddFlag(record.FlagNegative)
	}
	// post + wait against full; with the global-loop timer, where they add up to it by
	// construction, the full measured first against the one alternating with the post:
	// conditions that changed within the point (the method paper's "stability").
	if !bd.sum.Agrees(bd.full, fullTolerance) || bd.calibration.V > 0 && !bd.calibration.Agrees(bd.full, fullTolerance) {
		p.AddFlag(record.FlagFullMismatch)
	}
}
