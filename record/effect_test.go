package record

import (
	"slices"
	"strings"
	"testing"
)

// Every effect: a point that shows it passes, one that lacks it passes with each flag
// that explains it (and names that flag), and fails without one, also when it carries
// flags that explain something else.
func TestEffectOrItsFlag(t *testing.T) {
	shows := map[Effect]Point{
		EffectTime:      {Reps: 3, TimeS: 1e-6},
		EffectConverged: {Reps: 3, TimeS: 1e-6, Stop: "converged"},
		EffectBreakdown: {Reps: 3, TimeS: 1e-6, Breakdown: &Breakdown{FullS: 1e-6}},
	}
	lacks := map[Effect]Point{
		EffectTime:      {Reps: 3, TimeS: -1e-7},
		EffectConverged: {Reps: 3, TimeS: 1e-6, Stop: "time_cap"},
		EffectBreakdown: {Reps: 3, TimeS: 1e-6},
		EffectRelation:  {Reps: 3, TimeS: 1e-6},
		// Asked for 8: the caller knows.
		EffectRepetitions: {Reps: 3, TimeS: 1e-6},
	}
	for _, e := range Effects {
		if p, ok := shows[e]; ok {
			if flag, ok := p.Lacks(e); !ok || flag != "" || Explained(&p, e) != nil {
				t.Errorf("%s shown: Lacks %q %v", e, flag, ok)
			}
		}
		p := lacks[e]
		if p.Shows(e) {
			t.Fatalf("%s: the lacking point shows it", e)
		}
		if _, ok := p.Lacks(e); ok {
			t.Errorf("%s lacking, no flag: explained", e)
		}
		err := Explained(&p, e)
		if err == nil || !strings.Contains(err.Error(), string(e)) {
			t.Errorf("%s lacking, no flag: %v", e, err)
		}
		if len(Explainers(e)) == 0 {
			t.Errorf("%s: nothing explains its absence", e)
		}
		for _, f := range Explainers(e) {
			q := p
			q.Flags = []string{FlagPairFallback, f}
			if flag, ok := q.Lacks(e); !ok || flag != f || Explained(&q, e) != nil {
				t.Errorf("%s lacking with %s: %q %v", e, f, flag, ok)
			}
		}
		// A flag that says nothing about this effect explains nothing.
		q := p
		q.Flags = []string{FlagPairFallback, FlagPipelined, FlagLockNotHeld}
		if _, ok := q.Lacks(e); ok {
			t.Errorf("%s explained by %v", e, q.Flags)
		}
	}
}

// A relation is the caller's to observe: the record never claims it, and the caller's
// observation decides (shown, or explained by a flag, or a finding).
func TestRelationIsObserved(t *testing.T) {
	p := Point{Op: "Isend", Measurement: "isend", MsgBytes: 8, NProcs: 2, Reps: 10, TimeS: 1e-6, Stop: "converged",
		Breakdown: &Breakdown{FullS: 1e-6}}
	if p.Shows(EffectRelation) {
		t.Error("the record judged a relation")
	}
	if ExplainedIf(&p, EffectRelation, true) != nil {
		t.Error("an observed relation failed")
	}
	err := ExplainedIf(&p, EffectRelation, false)
	if err == nil || !strings.Contains(err.Error(), "isend (Isend) 8 B on 2: lacks its relation") {
		t.Errorf("unexplained: %v", err)
	}
	p.Flags = []string{FlagNoisy}
	if flag, ok := p.LacksIf(EffectRelation, false); !ok || flag != FlagNoisy {
		t.Errorf("noisy: %q %v", flag, ok)
	}
}

// A zero time of valid repetitions, or a time with none, is no time.
func TestTimeIsPositiveAndMeasured(t *testing.T) {
	for _, p := range []Point{{Reps: 0, TimeS: 0}, {Reps: 4, TimeS: 0}, {Reps: 0, TimeS: 1e-6}} {
		if p.Shows(EffectTime) {
			t.Errorf("%d reps of %g s show a time", p.Reps, p.TimeS)
		}
	}
	p := Point{Reps: 0, Flags: []string{FlagNoValidReps}}
	if f, ok := p.Lacks(EffectTime); !ok || f != FlagNoValidReps {
		t.Errorf("no valid repetition: %q %v", f, ok)
	}
}

// Every flag that explains an effect is a flag the package defines, and Explainers is
// a copy: changing it changes no rule.
func TestExplainersAreFlags(t *testing.T) {
	known := []string{FlagMaxReps, FlagTimeCap, FlagDiscardCap, FlagOverrun, FlagFewReps, FlagNoValidReps, FlagPairFallback,
		FlagNegative, FlagPipelined, FlagRatioClamped, FlagComputeOffTarget, FlagFullMismatch, FlagLockNotHeld,
		FlagBreakdownMissing, FlagNoisy, FlagTransient, FlagUnsteady, FlagDrift}
	for _, e := range Effects {
		for _, f := range Explainers(e) {
			if !slices.Contains(known, f) {
				t.Errorf("%s: %q is no flag", e, f)
			}
		}
		Explainers(e)[0] = "changed"
		if Explainers(e)[0] == "changed" {
			t.Errorf("%s: Explainers shares the rule", e)
		}
	}
}

// A relation among points holds, or one of them says why it may not.
func TestRelationAmongPoints(t *testing.T) {
	a := Point{Op: "Pingpong_Send_Recv", MsgBytes: 4944, Reps: 9, TimeS: 1e-6, Stop: "converged"}
	b := Point{Op: "Pingpong_Send_Recv", MsgBytes: 4945, Reps: 9, TimeS: 1.1e-6, Stop: "converged"}
	if ExplainedAmong(EffectRelation, true, &a, &b) != nil {
		t.Error("a relation that holds failed")
	}
	err := ExplainedAmong(EffectRelation, false, &a, &b)
	if err == nil || !strings.Contains(err.Error(), "Pingpong_Send_Recv 4944 B, Pingpong_Send_Recv 4945 B") {
		t.Errorf("unexplained: %v", err)
	}
	b.Flags = []string{FlagNoisy}
	if ExplainedAmong(EffectRelation, false, &a, &b) != nil {
		t.Error("one noisy point does not explain it")
	}
	if ExplainedAmong(EffectRelation, false) == nil {
		t.Error("no points explain nothing")
	}
}
