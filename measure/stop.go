package measure

import (
	"math"
	"time"
)

// StopRule is SKaMPI's: repeat until at least Min repetitions are in and the standard
// error is at most MaxRelStderr of the mean, or Max repetitions are in. Two hard caps
// make sure no point runs forever: time spent, and repetitions thrown away as invalid.
type StopRule struct {
	Min, Max     int
	MaxRelStderr float64
	MaxTime      time.Duration
	MaxDiscarded int
}

// Verdict says whether to go on measuring a point, and if not, why it stopped.
type Verdict int

const (
	Continue   Verdict = iota
	Converged          // stderr target met with at least Min repetitions
	MaxReps            // Max repetitions reached, stderr still above target
	TimeCap            // MaxTime reached
	DiscardCap         // more than MaxDiscarded repetitions were invalid
)

var verdictNames = [...]string{"continue", "converged", "max_repetitions", "time_cap", "discard_cap"}

func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "unknown"
}

// Decide looks at the valid samples so far, the count of discarded repetitions and
// the time spent on the point.
func (r StopRule) Decide(samples []float64, discarded int, elapsed time.Duration) Verdict {
	n := len(samples)
	if n >= r.Min && n > 0 {
		s := Summarize(samples)
		if s.Stderr <= r.MaxRelStderr*math.Abs(s.Mean) {
			return Converged
		}
	}
	switch {
	case n >= r.Max:
		return MaxReps
	case discarded > r.MaxDiscarded:
		return DiscardCap
	case elapsed >= r.MaxTime:
		return TimeCap
	}
	return Continue
}
