package measure

import (
	"math"
	"math/bits"
	"time"
)

// StopRule is SKaMPI's: repeat until at least Min repetitions are in and the standard
// error of the reported time is at most MaxRelStderr of it, or Max repetitions are
// in. Two hard caps make sure no point runs forever: time spent, and repetitions
// thrown away as invalid. Budget > 0 lets the repetitions follow the cost of the
// operation: Max is then only a hard cap, and a point that has not converged stops
// once it has spent Budget (after at least Min repetitions), so a cheap operation
// gets many repetitions and an expensive one few.
type StopRule struct {
	Min, Max     int
	MaxRelStderr float64
	MaxTime      time.Duration
	MaxDiscarded int
	Budget       time.Duration
	// Overrun > 0 bounds every repetition: one that took longer than this and more
	// than OverrunFactor times the fastest so far (per operation, warm-up included)
	// ends the point's repetitions, flagged, its samples kept. A repetition cannot be
	// cut short (every rank must run the same steps), so the next is what this
	// prevents: a point calibrated in a quiet moment that goes on at the scheduler's
	// speed. The runner sets it from hang_timeout.
	Overrun time.Duration
}

// OverrunFactor is how many times slower than the fastest repetition (per operation)
// a repetition must be before StopRule.Overrun ends the point.
const OverrunFactor = 20

// Verdict says whether to go on measuring a point, and if not, why it stopped.
type Verdict int

const (
	Continue   Verdict = iota
	Converged          // stderr target met with at least Min repetitions
	MaxReps            // Max repetitions or the Budget reached, stderr still above target
	TimeCap            // MaxTime reached
	DiscardCap         // more than MaxDiscarded repetitions were invalid
	Overrun            // a repetition took far longer than the fastest (StopRule.Overrun)
)

var verdictNames = [...]string{"continue", "converged", "max_repetitions", "time_cap", "discard_cap", "repetition_overrun"}

func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "unknown"
}

// Decide looks at the valid samples so far, the count of discarded repetitions and
// the time spent on the point.
func (r StopRule) Decide(samples []float64, discarded int, elapsed time.Duration) Verdict {
	return r.judge(len(samples), discarded, elapsed, func() (float64, float64) {
		s := Summarize(samples)
		return s.Time, s.Stderr
	})
}

// judge applies the rule to n valid repetitions whose estimate (the value and its
// standard error) est computes; est is called only when the answer can matter.
func (r StopRule) judge(n, discarded int, elapsed time.Duration, est func() (v, se float64)) Verdict {
	return r.judgeAfter(n, 0, discarded, elapsed, est)
}

// judgeAfter is judge when dropped more valid repetitions were run and dropped as a
// transient: they count against Max, not towards Min.
func (r StopRule) judgeAfter(n, dropped, discarded int, elapsed time.Duration, est func() (v, se float64)) Verdict {
	limit := r.limit(n, dropped, discarded, elapsed)
	// One sample has no error estimate: it never converges.
	if n >= r.Min && n >= 2 && (limit != Continue || checkpoint(n)) {
		if v, se := est(); se <= r.MaxRelStderr*math.Abs(v) {
			return Converged
		}
	}
	return limit
}

// limit is the cap a point has reached, Continue when none.
func (r StopRule) limit(n, dropped, discarded int, elapsed time.Duration) Verdict {
	switch {
	case n+dropped >= r.Max:
		return MaxReps
	case discarded > r.MaxDiscarded:
		return DiscardCap
	case elapsed >= r.MaxTime:
		return TimeCap
	case r.Budget > 0 && elapsed >= r.Budget && n >= r.Min:
		return MaxReps
	}
	return Continue
}

// checkpoint says whether the estimate is looked at after n repetitions: after every
// one up to 63, then 32 times per doubling of n. Summarising sorts the samples, which
// after every one of thousands of cheap repetitions would cost more than they do;
// this way a point runs at most 1/32 more repetitions than it needs.
func checkpoint(n int) bool {
	step := 1 << max(0, bits.Len(uint(n))-6)
	return n%step == 0
}
