package compare

import (
	"math"
	"slices"
	"testing"

	"github.com/skampi/skampi/internal/aadata"
)

// Every run is a source of its own: 20 recorded runs give each of their 20 setups one
// value per run, and a setting one run lacks (an older skampi) is left out of every key
// so that its points still meet the others'.
func TestIndexRuns(t *testing.T) {
	aa := loadAA(t)
	x := IndexRuns(aa, nil)
	if len(x.Keys) != 20 || len(x.Dropped) != 0 {
		t.Fatalf("%d keys, dropped %v", len(x.Keys), x.Dropped)
	}
	for _, k := range x.Keys {
		if s := x.Side(k); s.Runs != 20 || len(s.RunIDs) != 20 || x.Name(k) == "" {
			t.Errorf("%s: %d runs, name %q", k, s.Runs, x.Name(k))
		}
	}
	old := aadata.Runs(aa, aadata.RunIDs(aa), 1)
	for i := range old.Points {
		if old.Points[i].RunID == old.Runs[0].RunID {
			old.Points[i].Cache = ""
		}
	}
	x = IndexRuns(old, nil)
	if len(x.Keys) != 20 || !slices.Equal(x.Dropped, []string{"cache"}) || x.Side(x.Keys[0]).Runs != 20 {
		t.Errorf("a run without cache: %d keys, dropped %v", len(x.Keys), x.Dropped)
	}
}

// Benjamini-Hochberg: q never below p nor above 1, in p's order, monotone in p, and
// the textbook case.
func TestBenjaminiHochberg(t *testing.T) {
	p := []float64{0.04, 0.01, 0.03, 0.5}
	q := BenjaminiHochberg(p)
	want := []float64{0.04 * 4 / 3, 0.04, 0.04 * 4 / 3, 0.5} // 0.03 takes the larger q of 0.04 above it
	for i := range p {
		if math.Abs(q[i]-want[i]) > 1e-12 || q[i] < p[i] || q[i] > 1 {
			t.Errorf("q[%d] = %g, want %g", i, q[i], want[i])
		}
	}
	if len(BenjaminiHochberg(nil)) != 0 {
		t.Error("no p, some q")
	}
}
