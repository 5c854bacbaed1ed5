package runner

import (
	"slices"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
)

// curve is a latency curve with an eager limit: 1 µs + 1 ns/B up to limit, then a
// rendezvous 3 µs higher.
func curve(limit int64) func(int64) float64 {
	return func(s int64) float64 {
		t := 1e-6 + float64(s)*1e-9
		if s > limit {
			t += 3e-6
		}
		return t
	}
}

func refineAll(f *refiner, at func(int64) float64) []int64 {
	var added []int64
	for {
		s, ok := f.next()
		if !ok {
			return added
		}
		added = append(added, s)
		f.measured(s, Estimate{TimeS: at(s)})
	}
}

func powers(from, to int64) []int64 {
	var out []int64
	for s := from; s <= to; s *= 2 {
		out = append(out, s)
	}
	return out
}

func TestRefinerFindsTheStepToTheByte(t *testing.T) {
	at := curve(5000)
	times := map[int64]Estimate{}
	for _, s := range powers(1, 1<<16) {
		times[s] = Estimate{TimeS: at(s)}
	}
	f := newRefiner(inputs.Refine{MaxGap: 0.1, MaxPoints: 32}, 1, times)
	added := refineAll(f, at)
	if !slices.Contains(added, 5000) || !slices.Contains(added, 5001) {
		t.Errorf("added %v: want 5000 and 5001, the last eager and the first rendezvous size", added)
	}
	if len(added) > 32 {
		t.Errorf("added %d sizes, more than max_points", len(added))
	}
	for _, s := range added {
		if s < 64 { // 1 µs ± 6 %: flat, nothing to find
			t.Errorf("refined %d B, where the curve is flat", s)
		}
	}
	// Elements of 8 bytes: the step is found to the element, never between.
	times = map[int64]Estimate{}
	for _, s := range powers(8, 1<<16) {
		times[s] = Estimate{TimeS: at(s)}
	}
	added = refineAll(newRefiner(inputs.Refine{MaxGap: 0.1, MaxPoints: 32}, 8, times), at)
	if !slices.Contains(added, 5000) || !slices.Contains(added, 5008) {
		t.Errorf("8-byte elements: added %v, want 5000 and 5008", added)
	}
	for _, s := range added {
		if s%8 != 0 {
			t.Errorf("added %d B, not a whole number of elements", s)
		}
	}
}

func TestRefinerBudgetAndFaults(t *testing.T) {
	at := curve(5000)
	times := map[int64]Estimate{}
	for _, s := range powers(1, 1<<16) {
		times[s] = Estimate{TimeS: at(s)}
	}
	if added := refineAll(newRefiner(inputs.Refine{MaxGap: 0.1, MaxPoints: 3}, 1, times), at); len(added) != 3 {
		t.Errorf("max_points 3: added %v", added)
	}
	// A size without a time (a fault) refines nothing next to it.
	times = map[int64]Estimate{4096: {TimeS: at(4096)}, 8192: {}, 16384: {TimeS: at(16384)}}
	if added := refineAll(newRefiner(inputs.Refine{MaxGap: 0.1, MaxPoints: 32}, 1, times), at); len(added) != 0 {
		t.Errorf("around a fault: added %v", added)
	}
	// A straight line with an intercept: one midpoint per interval that changes, no more.
	line := func(s int64) float64 { return 1e-6 + float64(s)*1e-9 }
	times = map[int64]Estimate{}
	for _, s := range powers(1<<14, 1<<18) {
		times[s] = Estimate{TimeS: line(s)}
	}
	if added := refineAll(newRefiner(inputs.Refine{MaxGap: 0.1, MaxPoints: 32}, 1, times), line); len(added) != 4 {
		t.Errorf("a straight line over 5 sizes: added %v, want the 4 midpoints", added)
	}
}

// The runner measures the sizes refinement adds as ordinary points numbered after the
// plan's, flagged refined; a resumed run, given the times, chooses the same sizes and
// measures none of them again.
func TestRunnerRefines(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 2
max_repetitions = 2
iterations = 1
refine = { max_gap = 0.1, max_points = 40 }
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = { from = 1024, to = 65536, step = "*2" }
`)
	sink := &collect{}
	w := &fakeWorld{size: 2, step: 5001}
	r := &Runner{World: w, RunID: "x", Sink: sink, Library: "Open MPI v4.1.4"}
	pts := expand(t, p, "a", "a")
	if err := r.Run(pts); err != nil {
		t.Fatal(err)
	}
	var done record.KeySet
	earlier := map[record.Key]Estimate{}
	sizes := map[int64]bool{}
	for i, pt := range sink.points {
		if pt.PointIndex != i+1 {
			t.Errorf("point %d has index %d", i+1, pt.PointIndex)
		}
		if pt.Refined != (i >= len(pts)) {
			t.Errorf("%d B: refined %v", pt.MsgBytes, pt.Refined)
		}
		sizes[pt.MsgBytes] = true
		done.Add(pt.Key())
		earlier[pt.Key().WithoutRanks()] = Estimate{pt.TimeS, pt.StderrS}
	}
	if !sizes[5000] || !sizes[5001] || len(sink.points) > len(pts)+40 {
		t.Fatalf("%d points, 5000 B %v, 5001 B %v", len(sink.points), sizes[5000], sizes[5001])
	}
	// The step, measured again at both sizes, alternately, before it is claimed.
	if len(sink.steps) != 1 {
		t.Fatalf("%d steps recorded, want 1", len(sink.steps))
	}
	if st := sink.steps[0]; !st.Confirmed || st.LoBytes != 5000 || st.HiBytes != 5001 || len(st.Rounds) != confirmRounds {
		t.Errorf("step %+v: want 5000..5001 B confirmed in %d rounds", st, confirmRounds)
	}
	var steps record.KeySet
	steps.Add(sink.steps[0].Key())
	// A job that died inside the refinement: the first refined size without a record
	// is where, found by choosing the sizes again from the recorded times.
	cut := sink.points[len(pts)+4]
	var kept record.KeySet
	for _, p := range sink.points {
		if p.MsgBytes != cut.MsgBytes {
			kept.Add(p.Key())
		}
	}
	timeOf := func(k record.Key) Estimate { return earlier[k] }
	if m := FirstMissing(expand(t, p, "a", "a"), kept.Has, timeOf); m == nil || m.Size != cut.MsgBytes || !m.Refined {
		t.Errorf("first missing %+v, want the refined %d B", m, cut.MsgBytes)
	}
	if m := FirstMissing(expand(t, p, "a", "a"), done.Has, timeOf); m != nil {
		t.Errorf("every point recorded, first missing %+v", m)
	}
	made := len(w.made)
	r = &Runner{World: w, RunID: "y", Sink: &collect{}, Library: "Open MPI v4.1.4", Done: &done, Earlier: earlier, Steps: &steps}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	if len(w.made) != made || r.Skipped != len(sink.points) {
		t.Errorf("resumed: %d ops made, %d skipped of %d", len(w.made)-made, r.Skipped, len(sink.points))
	}
}

// One outlier, or one noisy estimate, is not a bend: a midpoint off the line by less
// than three standard errors leaves the interval alone, so a noisy curve is not
// bisected into its flat half.
func TestRefinerWeighsTheNoise(t *testing.T) {
	line := func(s int64) float64 { return 1e-6 + float64(s)*1e-9 }
	est := map[int64]Estimate{}
	for _, s := range powers(1<<12, 1<<14) {
		est[s] = Estimate{line(s), 0.02 * line(s)}
	}
	f := newRefiner(inputs.Refine{MaxGap: 0.1, MaxPoints: 32}, 1, est)
	s, ok := f.next()
	if !ok {
		t.Fatal("nothing refined on a rising curve")
	}
	// 20 % above the line, but its standard error is 10 %: within the noise.
	around := f.pending
	f.measured(s, Estimate{1.2 * line(s), 0.1 * line(s)})
	for {
		s, ok := f.next()
		if !ok {
			break
		}
		if s > around.lo && s < around.hi {
			t.Errorf("bisected into %d B, beside a midpoint within its noise", s)
		}
		f.measured(s, Estimate{line(s), 0.02 * line(s)})
	}
	if steps := f.found(); len(steps) != 0 {
		t.Errorf("steps %v on a straight line", steps)
	}
}

// A step that does not come back when both sizes are measured again is not claimed to
// the element: the record says so and brackets it by the measured sizes around it.
func TestStepNotConfirmed(t *testing.T) {
	f := newRefiner(inputs.Refine{MaxGap: 0.1, MaxPoints: 32}, 1, map[int64]Estimate{
		4096: {1e-6, 1e-9}, 4944: {1.3e-6, 1e-9}, 4945: {5e-6, 1e-9}, 8192: {5.4e-6, 1e-9}})
	s := span{4944, 4945}
	if !f.stepsAgain(s, Estimate{1.3e-6, 1e-9}, Estimate{5.1e-6, 1e-9}) {
		t.Error("the same jump measured again: not confirmed")
	}
	if f.stepsAgain(s, Estimate{5e-6, 1e-9}, Estimate{5.1e-6, 1e-9}) {
		t.Error("no jump measured again: confirmed")
	}
	if f.stepsAgain(s, Estimate{1.3e-6, 1e-6}, Estimate{5e-6, 1e-6}) {
		t.Error("a jump within three standard errors: confirmed")
	}
	if lo, hi := f.bracket(s); lo != 4096 || hi != 8192 {
		t.Errorf("bracket %d..%d, want 4096..8192", lo, hi)
	}
}
