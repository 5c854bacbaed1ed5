package runner

import (
	"math"
	"slices"
	"testing"

	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// A point of a non-blocking operation holds its whole breakdown. The fake's Isend of
// 1 KiB takes b = 2 µs: post b/4, wait 3b/4, not hidden b/4 + 3b/20 = 0.8 µs, so the
// ratio is 1 - 0.8/2 = 0.6; the computation is calibrated for 2b = 4 µs at 0.5 ns a
// spin, 8000 spins. Both timers give the same numbers by different measurements.
func TestBreakdown(t *testing.T) {
	for _, c := range []struct {
		timer  string
		phases []ops.Phase
	}{
		{"global-loop", []ops.Phase{ops.PhaseFull, ops.PhaseFull, ops.PhasePost, ops.PhaseOverlap, ops.PhaseCompute}},
		{"iteration", []ops.Phase{ops.PhaseFull, ops.PhasePost, ops.PhaseWait, ops.PhaseOverlap, ops.PhaseCompute}},
	} {
		p := plan(t, `
[settings]
min_repetitions = 3
max_repetitions = 5
iterations = 10
timer = "`+c.timer+`"

[[measurement]]
name = "isend"
op = "Isend"
sizes = [1024]
progress = 64
`)
		w := &fakeWorld{size: 3} // the fake's pair (0, 1) is not its slow one
		sink := &collect{}
		r := &Runner{World: w, RunID: "r", Sink: sink}
		if err := r.Run(expand(t, p, "a", "a", "a")); err != nil {
			t.Fatal(err)
		}
		if len(sink.points) != 1 || sink.points[0].Breakdown == nil {
			t.Fatalf("%s: %+v", c.timer, sink.points)
		}
		pt := sink.points[0]
		b := pt.Breakdown
		near := func(got, want float64) bool { return math.Abs(got-want) < 1e-12 }
		if !near(pt.TimeS, 2e-6) || !near(b.FullS, 2e-6) || !near(b.PostS, 0.5e-6) || !near(b.WaitS, 1.5e-6) ||
			!near(b.OverlappedS, 0.8e-6) || !near(b.ComputeS, 4e-6) || !near(b.ComputeTargetS, 4e-6) ||
			!near(b.OverlapRatio, 0.6) || b.OverlapRatioRaw != nil || b.ProgressEvery != 64 {
			t.Errorf("%s: time %g, breakdown %+v", c.timer, pt.TimeS, b)
		}
		if !slices.Equal(b.SpinIters, []int64{8000, 0}) || !slices.Equal(b.SpinNsPerIter, []float64{0.5, 0}) {
			t.Errorf("%s: spins %v at %v ns: only the initiator computes", c.timer, b.SpinIters, b.SpinNsPerIter)
		}
		if len(pt.Flags) != 0 {
			t.Errorf("%s: flags %v", c.timer, pt.Flags)
		}
		if !slices.Equal(w.phases, c.phases) || w.open != 0 {
			t.Errorf("%s: measured %v (%d left open), want %v", c.timer, w.phases, w.open, c.phases)
		}
		// The timer's cost, measured for the point, reaches every measurement of it
		// (the kernels take it off what they time per call) and the record, per rank.
		for _, oh := range w.overheads {
			if oh != 25e-9 {
				t.Errorf("%s: a measurement got timer overhead %g, want 25e-9: %v", c.timer, oh, w.overheads)
			}
		}
		if len(b.TimerOverheadS) != 2 || b.TimerOverheadS[0] != 25e-9 { // (the fake's other ranks gather 0)
			t.Errorf("%s: timer_overhead_s %v, want one per rank of the pair", c.timer, b.TimerOverheadS)
		}
		// The global-loop timer's full is the one alternating with the post; the first
		// only calibrated (here both 2 µs).
		if calib := b.FullCalibrationS; (c.timer == "global-loop") != (calib != nil) || calib != nil && !near(*calib, 2e-6) {
			t.Errorf("%s: full_calibration_s %v", c.timer, calib)
		}
	}
}

// What deserves a second look is flagged, and nothing is clamped silently.
func TestFlagBreakdown(t *testing.T) {
	type est = measure.Estimate
	base := breakdown{full: est{V: 10, SE: 0.1}, post: est{V: 2, SE: 0.1}, wait: est{V: 8, SE: 0.1}, sum: est{V: 10, SE: 0.1},
		notHidden: est{V: 4, SE: 0.2}, compute: est{V: 20}}
	with := func(f func(*breakdown)) breakdown { b := base; f(&b); return b }
	for _, c := range []struct {
		name  string
		bd    breakdown
		ratio float64
		raw   *float64
		flags []string
	}{
		{"fine", base, 0.6, nil, nil},
		{"worse than none", with(func(b *breakdown) { b.notHidden.V = 12 }), 0, ptr(-0.2), []string{record.FlagRatioClamped}},
		{"negative not hidden", with(func(b *breakdown) { b.notHidden.V = -1 }), 1, ptr(1.1),
			[]string{record.FlagRatioClamped, record.FlagNegative}},
		{"negative wait", with(func(b *breakdown) { b.wait.V = -0.1 }), 0.6, nil, []string{record.FlagNegative}},
		{"slow computation", with(func(b *breakdown) { b.compute.V = 26 }), 0.6, nil, []string{record.FlagComputeOffTarget}},
		{"computation a little slow", with(func(b *breakdown) { b.compute.V = 24 }), 0.6, nil, nil},
		// Off by more than 25 % but within three of its standard errors: not shown.
		{"slow computation, noisy", with(func(b *breakdown) { b.compute = est{V: 26, SE: 2.5} }), 0.6, nil, nil},
		{"negative post", with(func(b *breakdown) { b.post.V = -0.01 }), 0.6, nil, []string{record.FlagNegative}},
		{"negative compute", with(func(b *breakdown) { b.compute.V = -0.01 }), 0.6, nil, []string{record.FlagComputeOffTarget, record.FlagNegative}},
		// The full measured first against the one alternating with the post (global loop).
		{"full moved within the point", with(func(b *breakdown) { b.calibration = est{V: 12.5, SE: 0.1} }), 0.6, nil,
			[]string{record.FlagFullMismatch}},
		{"full steady within the point", with(func(b *breakdown) { b.calibration = est{V: 10.5, SE: 0.1} }), 0.6, nil, nil},
		// post + wait measured apart from full: 8.5 against 10 is beyond 3 * 0.14 and 10 %.
		{"post + wait is not full", with(func(b *breakdown) { b.sum.V = 8.5 }), 0.6, nil, []string{record.FlagFullMismatch}},
		{"within 10 %", with(func(b *breakdown) { b.sum.V = 9.1 }), 0.6, nil, nil},
		{"within the errors", with(func(b *breakdown) { b.sum = est{V: 8.5, SE: 1} }), 0.6, nil, nil},
	} {
		p := &record.Point{Breakdown: &record.Breakdown{}}
		flagBreakdown(p, c.bd, 20)
		b := p.Breakdown
		if math.Abs(b.OverlapRatio-c.ratio) > 1e-12 || (b.OverlapRatioRaw == nil) != (c.raw == nil) ||
			(c.raw != nil && math.Abs(*b.OverlapRatioRaw-*c.raw) > 1e-12) || !slices.Equal(p.Flags, c.flags) {
			t.Errorf("%s: ratio %v raw %v flags %v; want %v %v %v", c.name, b.OverlapRatio, b.OverlapRatioRaw, p.Flags, c.ratio, c.raw, c.flags)
		}
	}
}

// whole undoes a subtraction: the whole's time and its own error.
func TestWhole(t *testing.T) {
	sub := 2.0
	r := &measure.Result{Summary: measure.Summary{N: 8, Time: 8, Stderr: 0.5}, Subtracted: &sub, SubtractedStderr: 0.3}
	if w := whole(r); math.Abs(w.V-10) > 1e-12 || math.Abs(w.SE-0.4) > 1e-12 {
		t.Errorf("%+v", w)
	}
	r.N = 1
	if w := whole(r); !math.IsNaN(w.V) {
		t.Errorf("one repetition: %+v", w)
	}
}

// A part without two valid repetitions leaves no breakdown, and the point says so and
// why (the part's stop).
func TestBreakdownMissing(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 3
max_repetitions = 5
iterations = 10
max_discarded = 0

[[measurement]]
name = "isend"
op = "Isend"
sizes = [1024]
`)
	w := &fakeWorld{size: 3, nanPhase: ops.PhaseCompute}
	sink := &collect{}
	r := &Runner{World: w, RunID: "r", Sink: sink}
	if err := r.Run(expand(t, p, "a", "a", "a")); err != nil {
		t.Fatal(err)
	}
	if len(sink.points) != 1 {
		t.Fatalf("%d points, %d faults", len(sink.points), len(sink.faults))
	}
	pt := sink.points[0]
	if pt.Breakdown != nil || !slices.Contains(pt.Flags, record.FlagBreakdownMissing) ||
		!slices.Contains(pt.Flags, record.FlagDiscardCap) || pt.TimeS <= 0 {
		t.Errorf("time %g, flags %v, breakdown %+v", pt.TimeS, pt.Flags, pt.Breakdown)
	}
}

func ptr(v float64) *float64 { return &v }

// The writer's half of the rule (record.Effect): whichever measurement of a breakdown
// has no valid repetition, under either timer, the record holds the breakdown or the
// flag that says why not, a time or the flag, and a converged stop or its flag.
func TestBreakdownOrItsFlag(t *testing.T) {
	for _, timer := range []string{"global-loop", "iteration"} {
		for _, nan := range []ops.Phase{0, ops.PhasePost, ops.PhaseWait, ops.PhaseOverlap, ops.PhaseCompute} {
			p := plan(t, `
[settings]
min_repetitions = 3
max_repetitions = 5
iterations = 10
max_discarded = 0
timer = "`+timer+`"

[[measurement]]
name = "isend"
op = "Isend"
sizes = [1024]
`)
			w := &fakeWorld{size: 3, nanPhase: nan}
			sink := &collect{}
			r := &Runner{World: w, RunID: "r", Sink: sink}
			if err := r.Run(expand(t, p, "a", "a", "a")); err != nil {
				t.Fatal(err)
			}
			if len(sink.points) != 1 {
				t.Fatalf("%s, phase %d invalid: %d points, %d faults", timer, nan, len(sink.points), len(sink.faults))
			}
			pt := sink.points[0]
			for _, e := range []record.Effect{record.EffectBreakdown, record.EffectTime, record.EffectConverged} {
				if err := record.Explained(pt, e); err != nil {
					t.Errorf("%s, phase %d invalid: %v", timer, nan, err)
				}
			}
			// The global-loop timer takes the wait as full less the post: it never runs it.
			whole := nan == 0 || timer == "global-loop" && nan == ops.PhaseWait
			if whole != (pt.Breakdown != nil) {
				t.Errorf("%s, phase %d invalid: breakdown %+v, flags %v", timer, nan, pt.Breakdown, pt.Flags)
			}
		}
	}
}

// A full at or below zero (the iteration timer's, net of its clock reads) has no
// overlap ratio: no breakdown, and the flags say so and why.
func TestBreakdownOfNoPositiveFull(t *testing.T) {
	for _, v := range []float64{0, -1e-8} {
		p := &record.Point{Reps: 4, TimeS: v}
		full := &measure.Result{Summary: measure.Summary{N: 4, Time: v}}
		bp := &breakdownParts{calibrated: true, est: breakdown{post: measure.Estimate{V: 1e-7, SE: 1e-9},
			wait: measure.Estimate{V: 1e-7, SE: 1e-9}, notHidden: measure.Estimate{V: 1e-7, SE: 1e-9}, compute: measure.Estimate{V: 1e-6, SE: 1e-9}}}
		breakdownFields(p, nil, full, bp)
		if p.Breakdown != nil || !slices.Contains(p.Flags, record.FlagBreakdownMissing) || !slices.Contains(p.Flags, record.FlagNegative) {
			t.Errorf("full %g: breakdown %+v, flags %v", v, p.Breakdown, p.Flags)
		}
	}
}
