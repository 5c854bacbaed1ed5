package compare

import (
	"strings"
	"sync"
	"testing"

	"github.com/skampi/skampi/internal/aadata"
	"github.com/skampi/skampi/report"
)

// loadQuiet reads the runs recorded on the quiet machine once.
var loadQuiet = func() func(t *testing.T) *report.Results {
	var once sync.Once
	var res *report.Results
	var err error
	return func(t *testing.T) *report.Results {
		t.Helper()
		once.Do(func() { res, err = aadata.Quiet() })
		if err != nil || len(res.Runs) != 24 || len(res.Points) != 480 {
			t.Fatalf("quiet aa: %v", err)
		}
		return res
	}
}()

// The quiet machine's runs (nothing else running; 2 of 24 runs were slow at every
// measurement): at 4+4 runs a 1.2× shift of every measurement fails the gate in most
// splits (in 44 % of them when those runs stayed in the absolute test), a doubled
// measurement in nearly all, and nothing changed in 5 % at most.
func TestGatePowerQuiet(t *testing.T) {
	const trials = 100
	q := loadQuiet(t)
	same := func(r *report.Results) *report.Results { return r }
	for _, per := range []int{4, 8} {
		if r := gateRateOn(t, q, per, trials, same); r > 0.05 {
			t.Errorf("A/A %d+%d: the gate failed in %.0f%% of splits", per, per, 100*r)
		}
	}
	all := func(r *report.Results) *report.Results { return scaleOp(r, "", 1.2) }
	if r := gateRateOn(t, q, 4, trials, all); r < 0.7 {
		t.Errorf("every measurement ×1.2, 4+4: the gate failed in only %.0f%% of splits", 100*r)
	}
	for _, op := range []string{"Pingpong_Send_Recv", "Put", "Allreduce", "Bcast"} {
		doubled := func(r *report.Results) *report.Results { return scaleOp(r, op, 2) }
		if r := gateRateOn(t, q, 4, trials, doubled); r < 0.9 {
			t.Errorf("%s doubled, 4+4: the gate failed in only %.0f%% of splits", op, 100*r)
		}
	}
}

// A run slow at every measurement is left out of each measurement's absolute test that
// it slowed, and the note says which and by how much; the relative test keeps it.
func TestHiccupLeftOut(t *testing.T) {
	q := loadQuiet(t)
	ids := runIDs(q)
	// Runs 6 and 19 of the recording took about twice as long at every measurement.
	hiccup := ids[5]
	a := []string{ids[0], ids[1], ids[2], hiccup}
	b := []string{ids[6], ids[7], ids[8], ids[9]}
	c, err := Compare([]Labelled{{"a", runs(q, a, 1)}, {"b", runs(q, b, 1)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	left := 0
	for _, tb := range c.Tables {
		s := tb.Shift
		if strings.Contains(s.Note, hiccup) {
			left++
			if s.N1 != 3 || s.N2 != 4 || !strings.Contains(s.Note, "× its side's other runs") {
				t.Errorf("%s: %d+%d runs, note %q", tb.Op, s.N1, s.N2, s.Note)
			}
		}
		if s.Relative.N1 != 4 {
			t.Errorf("%s: the relative test holds %d baseline runs, want all 4", tb.Op, s.Relative.N1)
		}
	}
	if left == 0 {
		t.Errorf("no measurement left run %s out", hiccup)
	}
	// Without a hiccup nothing is left out.
	c, err = Compare([]Labelled{{"a", runs(q, ids[:4], 1)}, {"b", runs(q, b, 1)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range c.Tables {
		if strings.Contains(tb.Shift.Note, "left out") {
			t.Errorf("%s: %s", tb.Op, tb.Shift.Note)
		}
	}
}
