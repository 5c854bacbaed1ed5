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
		f.measured(s, at(s))
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
	times := map[int64]float64{}
	for _, s := range powers(1, 1<<16) {
		times[s] = at(s)
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
	times = map[int64]float64{}
	for _, s := range powers(8, 1<<16) {
		times[s] = at(s)
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
	times := map[int64]float64{}
	for _, s := range powers(1, 1<<16) {
		times[s] = at(s)
	}
	if added := refineAll(newRefiner(inputs.Refine{MaxGap: 0.1, MaxPoints: 3}, 1, times), at); len(added) != 3 {
		t.Errorf("max_points 3: added %v", added)
	}
	// A size without a time (a fault) refines nothing next to it.
	times = map[int64]float64{4096: at(4096), 8192: 0, 16384: at(16384)}
	if added := refineAll(newRefiner(inputs.Refine{MaxGap: 0.1, MaxPoints: 32}, 1, times), at); len(added) != 0 {
		t.Errorf("around a fault: added %v", added)
	}
	// A straight line with an intercept: one midpoint per interval that changes, no more.
	line := func(s int64) float64 { return 1e-6 + float64(s)*1e-9 }
	times = map[int64]float64{}
	for _, s := range powers(1<<14, 1<<18) {
		times[s] = line(s)
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
	earlier := map[record.Key]float64{}
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
		earlier[pt.Key().WithoutRanks()] = pt.TimeS
	}
	if !sizes[5000] || !sizes[5001] || len(sink.points) > len(pts)+40 {
		t.Fatalf("%d points, 5000 B %v, 5001 B %v", len(sink.points), sizes[5000], sizes[5001])
	}
	// A job that died inside the refinement: the first refined size without a record
	// is where, found by choosing the sizes again from the recorded times.
	cut := sink.points[len(pts)+4]
	var kept record.KeySet
	for _, p := range sink.points {
		if p.MsgBytes != cut.MsgBytes {
			kept.Add(p.Key())
		}
	}
	timeOf := func(k record.Key) float64 { return earlier[k] }
	if m := FirstMissing(expand(t, p, "a", "a"), kept.Has, timeOf); m == nil || m.Size != cut.MsgBytes || !m.Refined {
		t.Errorf("first missing %+v, want the refined %d B", m, cut.MsgBytes)
	}
	if m := FirstMissing(expand(t, p, "a", "a"), done.Has, timeOf); m != nil {
		t.Errorf("every point recorded, first missing %+v", m)
	}
	made := len(w.made)
	r = &Runner{World: w, RunID: "y", Sink: &collect{}, Library: "Open MPI v4.1.4", Done: &done, Earlier: earlier}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	if len(w.made) != made || r.Skipped != len(sink.points) {
		t.Errorf("resumed: %d ops made, %d skipped of %d", len(w.made)-made, r.Skipped, len(sink.points))
	}
}
