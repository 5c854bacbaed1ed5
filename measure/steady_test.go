package measure

import (
	"math"
	"sort"
	"strings"
	"testing"
	"time"
)

// The first point of a job at np 16 (Barrier) read 7,968 µs, "converged" with 0.1 %
// over 8 repetitions whose last two showed the job's start-up ending; the other runs
// read 3.2-4.2 µs. Replayed, then steady at 3.7 µs: the steadiness check drops the
// transient and the point ends on the steady value. A longer transient, 14 slow
// repetitions of 16 asked, is dropped as one, and the record says how many.
func TestTransientIsNotConverged(t *testing.T) {
	start := []float64{7.96e-3, 7.99e-3, 7.98e-3, 7.98e-3, 7.97e-3, 7.97e-3, 3.72e-3, 0.007e-3}
	c := &fakeComm{size: 2}
	op := &fakeOp{c: c, times: func(rep, _ int) []float64 {
		if rep < len(start) {
			return []float64{start[rep], start[rep]}
		}
		v := 3.7e-6 * (1 + 0.01*math.Sin(float64(rep))) // steady, 1 % jitter
		return []float64{v, v}
	}}
	res, err := Measure(c, op, Task{Participants: []int{0, 1}, Reduce: ReduceMax,
		Stop:       StopRule{Min: 8, Max: 1000, MaxRelStderr: 0.03, MaxTime: time.Minute, MaxDiscarded: 5},
		Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Converged || math.Abs(res.Time-3.7e-6) > 0.05*3.7e-6 {
		t.Fatalf("verdict %v, %.4g s over %d repetitions: want converged on 3.7 µs", res.Verdict, res.Time, res.N)
	}
	if res.Transient < 7 || res.Unsteady != "" || res.N < 8 {
		t.Errorf("dropped %d (want the 7 or 8 of the transient), unsteady %q, %d kept", res.Transient, res.Unsteady, res.N)
	}
	long := &fakeOp{c: c, times: func(rep, _ int) []float64 {
		v := 3.7e-6 * (1 + 0.01*math.Sin(float64(rep)))
		if rep < 14 {
			v = 7.97e-3 * (1 + 0.001*math.Sin(float64(rep)))
		}
		return []float64{v, v}
	}}
	res, err = Measure(c, long, Task{Participants: []int{0, 1}, Reduce: ReduceMax,
		Stop:       StopRule{Min: 16, Max: 1000, MaxRelStderr: 0.03, MaxTime: time.Minute, MaxDiscarded: 5},
		Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Converged || math.Abs(res.Time-3.7e-6) > 0.05*3.7e-6 || res.Transient < 14 {
		t.Errorf("14 slow repetitions first: verdict %v, %.4g s, %d dropped: want converged on 3.7 µs, the 14 dropped", res.Verdict, res.Time, res.Transient)
	}
	// The order-blind error alone, on the same 8 samples, met the 3 % target on the
	// transient (the old rule converged there); the batch means' error sees the fall.
	sorted := append([]float64(nil), start...)
	sort.Float64s(sorted)
	if se := TrimmedStderr(sorted); se > 0.03*MiddleMean(sorted) {
		t.Fatalf("the replay no longer shows the old verdict: stderr %.3g of %.3g", se, MiddleMean(sorted))
	}
	if se := BatchStderr(start); se <= 0.03*MiddleMean(sorted) {
		t.Errorf("batch means' error %.3g: the transient's halves differ by far more", se)
	}
}

// Steady samples, noisy ones included, are never cut; a series that splits in two
// halves is; one that will not settle runs to its cap and says why.
func TestSteadiness(t *testing.T) {
	noisy := make([]float64, 64)
	for i := range noisy {
		noisy[i] = 1e-6 * (1 + 0.05*math.Sin(float64(i)*1.7))
		if i%9 == 0 {
			noisy[i] *= 3 // a descheduled repetition now and then
		}
	}
	if cut, why := transient(noisy, 0.03); cut != 0 {
		t.Errorf("steady noisy samples cut at %d: %s", cut, why)
	}
	split := append(make([]float64, 0, 16), noisy[:8]...)
	for i := range 8 {
		split = append(split, 2*noisy[i+8])
	}
	if cut, why := transient(split, 0.03); cut != 8 || !strings.Contains(why, "first 8") {
		t.Errorf("a series that doubles half way: cut %d (%s), want 8", cut, why)
	}
	if cut, _ := transient([]float64{1, 1, 1, 1, -1, 1}, 0.03); cut != 0 {
		t.Error("a part with a negative sample (no scale) was judged")
	}
	// A series that splits: its first half is dropped and the rest converges; once
	// maxDrops cuts were made, it is refused convergence (the caps decide) and says why.
	levels := []float64{1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 3, 3}
	fresh := func(drops int) *series {
		return &series{samples: append([]float64(nil), levels...), perRank: [][]float64{append([]float64(nil), levels...)}, drops: drops}
	}
	always := func() Verdict { return Converged }
	capped := func() Verdict { return MaxReps }
	sr := fresh(0)
	if v := sr.steady(Converged, 0.03, always, capped); v != Converged || sr.dropped != 8 || sr.unsteady != "" || len(sr.perRank[0]) != 8 {
		t.Errorf("one split: verdict %v, %d dropped, unsteady %q, %d per rank", v, sr.dropped, sr.unsteady, len(sr.perRank[0]))
	}
	sr = fresh(maxDrops)
	if v := sr.steady(Converged, 0.03, always, capped); v != MaxReps || sr.dropped != 0 || sr.unsteady == "" {
		t.Errorf("no drop left: verdict %v, %d dropped, unsteady %q", v, sr.dropped, sr.unsteady)
	}
}
