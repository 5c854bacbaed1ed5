package history

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// noisy is n values of Gaussian noise (sd) about level, from its own stream.
func noisy(rng *rand.Rand, n int, level, sd float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = level + sd*rng.NormFloat64()
	}
	return out
}

func ats(cs []Change) []int {
	var out []int
	for _, c := range cs {
		out = append(out, c.At)
	}
	return out
}

// A clean step of ten noise levels is found where it is, once, with a small p.
func TestDetectCleanStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for trial := 0; trial < 20; trial++ {
		x := append(noisy(rng, 10, 0, 0.05), noisy(rng, 8, 0.5, 0.05)...)
		got := Detector{}.Detect([][]float64{x})[0]
		if !slices.Equal(ats(got), []int{10}) || got[0].P > 0.01 || got[0].Q != got[0].P {
			t.Fatalf("trial %d: changes %+v", trial, got)
		}
	}
}

// Noise alone: 200 series of 20 values tested as one family, the false discovery rate
// controlled at 5 %: with no change anywhere, rarely any finding at all.
func TestDetectNoStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	var family [][]float64
	for range 200 {
		family = append(family, noisy(rng, 20, 1, 0.1))
	}
	found := 0
	for _, cs := range (Detector{}).Detect(family) {
		found += len(cs)
	}
	if found > 2 {
		t.Errorf("%d changes in 200 series of noise", found)
	}
	// Each alone (a family of one, tested at 5 %): about one in twenty.
	alone := 0
	for _, x := range family {
		if len((Detector{}).Detect([][]float64{x})[0]) > 0 {
			alone++
		}
	}
	if alone > 20 {
		t.Errorf("%d of 200 series of noise tested alone show a change", alone)
	}
}

// Two steps, up then down again: binary segmentation finds the first split and then
// the second within a segment; both at their places, in time order.
func TestDetectTwoSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := 0; trial < 10; trial++ {
		x := slices.Concat(noisy(rng, 8, 0, 0.05), noisy(rng, 7, 0.6, 0.05), noisy(rng, 8, 0.2, 0.05))
		if got := ats(Detector{}.Detect([][]float64{x})[0]); !slices.Equal(got, []int{8, 15}) {
			t.Fatalf("trial %d: changes at %v", trial, got)
		}
	}
}

// A change undone later (a regression, then its fix): the level before and after the
// stretch is the same, so no single split separates much (each side mixes both levels),
// and the arc scan finds the stretch with both its ends.
func TestDetectUndone(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for trial := 0; trial < 10; trial++ {
		x := slices.Concat(noisy(rng, 6, 0, 0.05), noisy(rng, 6, 0.5, 0.05), noisy(rng, 6, 0, 0.05))
		if got := ats((Detector{}).Detect([][]float64{x})[0]); !slices.Equal(got, []int{6, 12}) {
			t.Fatalf("trial %d: changes at %v", trial, got)
		}
	}
}

// A series shorter than two segments is not tested; at exactly two segments of three,
// a perfect step cannot reach 5 %: six runs split into three and three only so many
// ways, and the permutation p of the best split is 0.07.
func TestDetectTooShort(t *testing.T) {
	for _, x := range [][]float64{nil, {1}, {0, 0, 0, 1, 1}} {
		if got := (Detector{}).Detect([][]float64{x})[0]; len(got) != 0 {
			t.Errorf("%v: %v", x, got)
		}
	}
	d := Detector{}.withDefaults()
	s := d.test([]float64{0, 0.01, -0.01, 1, 1.01, 0.99}, 0, 6, 999, 0)
	if !s.ok || !slices.Equal(s.at, []int{3}) || s.p < 0.05 {
		t.Errorf("six runs, a perfect step: %+v", s)
	}
	if got := d.Detect([][]float64{{0, 0.01, -0.01, 1, 1.01, 0.99}})[0]; len(got) != 0 {
		t.Errorf("six runs: %v", got)
	}
}

// A run far off (a busy machine: twenty times the spread) does not make a change of a
// flat series, nor hide a step the others share (found within a run of its place: a
// slow run just before a step is one of the later level as far as any test can tell).
func TestDetectOutliers(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	misses, falses := 0, 0
	for trial := 0; trial < 20; trial++ {
		flat := noisy(rng, 14, 0, 0.05)
		flat[rng.IntN(14)] += 1
		if len((Detector{}).Detect([][]float64{flat})[0]) > 0 {
			falses++
		}
		step := append(noisy(rng, 7, 0, 0.05), noisy(rng, 7, 0.3, 0.05)...)
		step[rng.IntN(14)] += 1
		if got := ats((Detector{}).Detect([][]float64{step})[0]); len(got) != 1 || got[0] < 6 || got[0] > 8 {
			misses++
		}
	}
	t.Logf("of 20: %d flat series with a change, %d steps missed", falses, misses)
	if falses > 2 || misses > 2 {
		t.Errorf("of 20: %d flat series with a change, %d steps missed or with another change", falses, misses)
	}
}

// The same input gives the same answer: the permutations are seeded.
func TestDetectDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var family [][]float64
	for range 30 {
		family = append(family, append(noisy(rng, 8, 0, 0.1), noisy(rng, 8, 0.15, 0.1)...))
	}
	a, b := Detector{}.Detect(family), Detector{}.Detect(family)
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("series %d: %v then %v", i, a[i], b[i])
		}
	}
}
