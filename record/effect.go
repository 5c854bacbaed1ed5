package record

import (
	"fmt"
	"slices"
	"strings"
)

// Effect is something physical a point's measurement is expected to show: a positive
// time, a converged stop, a non-blocking breakdown, a relation among its values or
// with another point's (a part's share of the whole, an overlap, a faster point, a step
// at a threshold). None of them is guaranteed: a busy machine, a time cap or a
// subtraction can take any of them away. The rule the writer (runner), the readers
// (report) and the tests share is:
//
//	a point shows the effect, or carries a flag that says why not.
//
// A point that lacks an effect and has no flag explaining it is wrong: for an effect
// the record judges itself (Time, Converged, Breakdown), the writer's bug; for a
// Relation the caller observed, a finding. Lacks and Explained apply the rule;
// nothing else should assert an effect on a single point.
type Effect string

const (
	// EffectTime: a positive time_s from at least one valid repetition.
	EffectTime Effect = "time"
	// EffectConverged: the stop rule's target met (stop "converged").
	EffectConverged Effect = "converged"
	// EffectBreakdown: a non-blocking point's breakdown (full, post, wait, overlapped,
	// compute) with its overlap ratio.
	EffectBreakdown Effect = "breakdown"
	// EffectRelation: a physical relation among the point's values, or between it and
	// another point, that the caller observes (the record cannot judge it): a part's
	// share of full, the time a computation could not hide, a faster point, a step at
	// a threshold, a time at least its delay. It holds only in a point measured in one
	// steady state; any flag saying otherwise explains its absence.
	EffectRelation Effect = "relation"
	// EffectRepetitions: at least min_repetitions valid repetitions, which the caller
	// knows (the record does not say what was asked).
	EffectRepetitions Effect = "repetitions"
)

// Effects are every effect, in the order of their constants.
var Effects = []Effect{EffectTime, EffectConverged, EffectBreakdown, EffectRelation, EffectRepetitions}

// explainers: for each effect, the flags that explain its absence, the most specific
// first.
var explainers = map[Effect][]string{
	EffectTime: {FlagNoValidReps, FlagNegative},
	// The flag of every verdict but "converged" (and no repetition at all, which
	// stopped by a cap too).
	EffectConverged: {FlagMaxReps, FlagTimeCap, FlagDiscardCap, FlagOverrun, FlagNoValidReps},
	// The writer sets breakdown_missing whenever it omits the breakdown, beside the flag
	// of why (a part out of time, no valid or no positive full).
	EffectBreakdown: {FlagBreakdownMissing},
	EffectRelation: {FlagNoisy, FlagUnsteady, FlagDrift, FlagOverrun, FlagTimeCap, FlagMaxReps, FlagDiscardCap, FlagFewReps, FlagNoValidReps,
		FlagNegative, FlagBreakdownMissing, FlagComputeOffTarget, FlagFullMismatch, FlagRatioClamped},
	EffectRepetitions: {FlagFewReps, FlagNoValidReps},
}

// Explainers are the flags that explain why a point may lack e (nil for an effect
// this package does not know).
func Explainers(e Effect) []string { return slices.Clone(explainers[e]) }

// Shows reports whether the record shows e. A relation, and the repetitions asked
// for, are the caller's to observe: Shows is false for them, and LacksIf takes the
// observation.
func (p *Point) Shows(e Effect) bool {
	switch e {
	case EffectTime:
		return p.Reps > 0 && p.TimeS > 0
	case EffectConverged:
		return p.Stop == "converged"
	case EffectBreakdown:
		return p.Breakdown != nil
	}
	return false
}

// Lacks applies the rule to an effect the record judges: ok is true when p shows e
// (flag "") or lacks it with a flag that says why (flag names it); false when p lacks
// e and no flag says why, which is the writer's bug.
func (p *Point) Lacks(e Effect) (flag string, ok bool) { return p.LacksIf(e, p.Shows(e)) }

// LacksIf is Lacks for an effect the caller observed itself: shown says whether p has
// it (a relation among its values, or with another point's).
func (p *Point) LacksIf(e Effect, shown bool) (flag string, ok bool) {
	if shown {
		return "", true
	}
	if f := p.Explanation(e); f != "" {
		return f, true
	}
	return "", false
}

// Explanation is the flag of p that explains why it may lack e, "" when none does.
func (p *Point) Explanation(e Effect) string {
	for _, f := range explainers[e] {
		if slices.Contains(p.Flags, f) {
			return f
		}
	}
	return ""
}

// Explained is the rule as one answer, what tests and validation call instead of
// asserting an effect: nil when p shows e or carries a flag that says why not; else
// an error naming the point, the effect and the flags that would have explained it.
func Explained(p *Point, e Effect) error { return ExplainedIf(p, e, p.Shows(e)) }

// ExplainedIf is Explained for an effect the caller observed (shown).
func ExplainedIf(p *Point, e Effect, shown bool) error {
	if _, ok := p.LacksIf(e, shown); ok {
		return nil
	}
	what := p.Measurement
	if what == "" || what == p.Op {
		what = p.Op
	} else {
		what += " (" + p.Op + ")"
	}
	if p.Method != "" {
		what += " method " + p.Method
	}
	return fmt.Errorf("%s %d B on %d: lacks its %s and no flag says why (flags %v; any of %v would)",
		what, p.MsgBytes, p.NProcs, e, p.Flags, explainers[e])
}

// ExplainedAmong is ExplainedIf for a relation among several points (one faster than
// another, a step between two sizes): nil when it holds (shown) or one of the points
// carries a flag that says why it may not.
func ExplainedAmong(e Effect, shown bool, pts ...*Point) error {
	if shown {
		return nil
	}
	var names []string
	for _, p := range pts {
		if p.Explanation(e) != "" {
			return nil
		}
		names = append(names, fmt.Sprintf("%s %d B", p.Op, p.MsgBytes))
	}
	return fmt.Errorf("%d points (%s): lack their %s and no flag says why (any of %v would)",
		len(pts), strings.Join(names, ", "), e, explainers[e])
}
