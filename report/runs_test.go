package report

import (
	"testing"

	"github.com/skampi/skampi/record"
)

// Points of several runs: the median over them, and a run's error that does not cover
// how far the runs scatter is said; another run's or a single run's points are not.
func TestSpreads(t *testing.T) {
	pt := func(run string, size int64, tm, se float64) record.Point {
		return record.Point{RunID: run, Measurement: "m", Op: "Pingpong_Send_Recv", MsgBytes: size, NProcs: 2, Ranks: []int{0, 1},
			TimeS: tm, StderrS: se, Reps: 8}
	}
	res := &Results{Points: []record.Point{
		pt("a", 8, 1.00e-6, 0.01e-6), pt("a", 64, 2.0e-6, 0.2e-6),
		pt("b", 8, 1.50e-6, 0.01e-6), pt("b", 64, 2.1e-6, 0.2e-6),
		pt("c", 8, 1.20e-6, 0.01e-6), pt("c", 64, 1.9e-6, 0.2e-6),
		pt("other", 8, 9e-6, 0), pt("a", 1024, 5e-6, 0),
	}}
	got := Spreads(res, []string{"a", "b", "c"})
	if len(got) != 2 {
		t.Fatalf("%d spreads: %+v", len(got), got)
	}
	if s := got[0]; s.Key.MsgBytes != 8 || s.Runs != 3 || s.MedianS != 1.2e-6 || s.MinS != 1e-6 || s.MaxS != 1.5e-6 || !s.Understated {
		t.Errorf("8 B: %+v", s)
	}
	if s := got[1]; s.Key.MsgBytes != 64 || s.Understated {
		t.Errorf("64 B: %+v: runs within one run's error", s)
	}
}
