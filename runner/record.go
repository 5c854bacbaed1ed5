package runner

import (
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/record"
)

// fill copies a Result's statistics into the point record and sets the flags its stop
// verdict, repetition count and subtraction call for. minReps is the point's
// min_repetitions. The engine produces results; records are made here.
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
