package runner

import (
	"fmt"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/record"
)

// StepSink is a sink that also takes the steps refinement finds (report's JSONL and
// terminal table); a sink without it leaves them out.
type StepSink interface {
	Step(*record.Step) error
}

// confirmRounds is how often both sizes of a step are measured again, in the order
// lo hi, hi lo, ...: a drift between the two first measurements (the upper size was
// measured later, after other sizes) cannot pass for the step, nor cancel it.
const confirmRounds = 2

// confirmSteps measures the two sizes of each one-element step the curve's refinement
// found again, alternately, before rank 0 records it (record.Step): confirmed when
// every round shows the jump, else with the wider bracket the measured sizes allow.
// Every rank takes part (the steps are broadcast); a step an earlier run of a resumed
// one recorded is left alone. index is the next point index, for a fault the watchdog
// may write.
func (r *Runner) confirmSteps(base *inputs.Point, f *refiner, syncer measure.Syncer, index int) error {
	var steps []span
	if f != nil {
		for _, s := range f.found() {
			if r.Steps == nil || !r.Steps.Has(r.stepOf(base, f, s).Key()) {
				steps = append(steps, s)
			}
		}
	}
	n, err := r.World.Bcast(int64(len(steps)))
	if err != nil {
		return err
	}
	for i := range int(n) {
		var s span
		if f != nil {
			s = steps[i]
		}
		if s.lo, err = r.World.Bcast(s.lo); err != nil {
			return err
		}
		if s.hi, err = r.World.Bcast(s.hi); err != nil {
			return err
		}
		var rounds [][2]float64
		failed := ""
		for round := range confirmRounds {
			order := []int64{s.lo, s.hi}
			if round%2 == 1 {
				order = []int64{s.hi, s.lo}
			}
			got := map[int64]Estimate{}
			for _, size := range order {
				e, why, err := r.remeasure(base, size, syncer, index)
				if err != nil {
					return err
				}
				if why != "" && failed == "" {
					failed = fmt.Sprintf("round %d, %d B: %s", round+1, size, why)
				}
				got[size] = e
			}
			if got[s.lo].TimeS > 0 && got[s.hi].TimeS > 0 {
				rounds = append(rounds, [2]float64{got[s.lo].TimeS, got[s.hi].TimeS})
			}
			if f != nil && failed == "" && !f.stepsAgain(s, got[s.lo], got[s.hi]) {
				failed = fmt.Sprintf("round %d: %s at %d B, %s at %d B, not the jump", round+1,
					secondsText(got[s.lo].TimeS), s.lo, secondsText(got[s.hi].TimeS), s.hi)
			}
		}
		if f == nil {
			continue
		}
		st := r.stepOf(base, f, s)
		st.Rounds, st.Confirmed = rounds, failed == ""
		if !st.Confirmed {
			st.LoBytes, st.HiBytes = f.bracket(s)
			st.Detail = fmt.Sprintf("measured again: %s; a step, if there is one, lies between %d and %d B", failed, st.LoBytes, st.HiBytes)
		}
		if sink, ok := r.Sink.(StepSink); ok {
			if err := sink.Step(st); err != nil {
				return fmt.Errorf("writing results: %w", err)
			}
		}
	}
	return nil
}

// stepOf is the record of a step before it is measured again (rank 0).
func (r *Runner) stepOf(base *inputs.Point, f *refiner, s span) *record.Step {
	p := base.Fault(r.RunID) // the curve's names, as its points carry them
	return &record.Step{Kind: record.KindStep, RunID: r.RunID, Measurement: p.Measurement, Op: p.Op, Method: p.Method,
		NProcs: p.NProcs, Ranks: p.Ranks, LoBytes: s.lo, HiBytes: s.hi, FoundLo: s.lo, FoundHi: s.hi,
		BeforeS: f.est[s.lo].TimeS, AfterS: f.est[s.hi].TimeS}
}

// stepsAgain: measured again, the two sizes still jump the way they first did, by
// more than the gap and the noise.
func (f *refiner) stepsAgain(s span, lo, hi Estimate) bool {
	first := f.est[s.hi].TimeS - f.est[s.lo].TimeS
	if lo.TimeS <= 0 || hi.TimeS <= 0 || (hi.TimeS-lo.TimeS)*first <= 0 {
		return false
	}
	return change(lo.TimeS, hi.TimeS) > f.gap && apart(lo, hi)
}

// bracket is the interval the measured sizes allow for a step that did not come back
// at one element: from the nearest measured size below s to the nearest above.
func (f *refiner) bracket(s span) (int64, int64) {
	lo, hi := s.lo, s.hi
	for size, e := range f.est {
		if e.TimeS <= 0 {
			continue
		}
		if size < s.lo && (lo == s.lo || size > lo) {
			lo = size
		}
		if size > s.hi && (hi == s.hi || size < hi) {
			hi = size
		}
	}
	return lo, hi
}

// remeasure measures a size of the curve once more without recording it as a point:
// its estimate (rank 0; zero when it failed, with why). The refinement's own estimate
// of the size is kept.
func (r *Runner) remeasure(base *inputs.Point, size int64, syncer measure.Syncer, index int) (Estimate, string, error) {
	pt := *base
	pt.Size, pt.Refined, pt.Index = size, true, index
	key := pt.Key().WithoutRanks()
	kept, had := r.times[key]
	held := &heldSink{}
	sink, done := r.Sink, r.Done
	r.Sink, r.Done = held, nil
	err := r.runPoint(&pt, syncer)
	r.Sink, r.Done = sink, done
	if had {
		r.times[key] = kept
	}
	switch {
	case err != nil:
		return Estimate{}, "", err
	case held.point != nil && held.point.Reps > 0:
		return Estimate{held.point.TimeS, held.point.StderrS}, "", nil
	case held.fault != nil:
		return Estimate{}, held.fault.Fault + ": " + held.fault.Detail, nil
	case r.World.Rank() == 0:
		return Estimate{}, "no valid repetitions", nil
	}
	return Estimate{}, "", nil
}

// heldSink keeps the record of a point measured again instead of writing it.
type heldSink struct {
	point *record.Point
	fault *record.Fault
}

func (h *heldSink) Point(p *record.Point) error { h.point = p; return nil }
func (h *heldSink) Fault(f *record.Fault) error { h.fault = f; return nil }

// secondsText prints a time in a detail, in the microseconds the table shows.
func secondsText(s float64) string { return fmt.Sprintf("%.3f µs", s*1e6) }
