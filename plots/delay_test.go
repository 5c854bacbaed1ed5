package plots

import (
	"fmt"
	"testing"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// A delay figure: one per run and process count, a line per operation with the
// delays in order; points without a delay, or one delay only, draw none.
func TestDelayFigure(t *testing.T) {
	pt := func(op string, delay float64, time float64) record.Point {
		d := delay
		return record.Point{Kind: record.KindPoint, RunID: "r", Measurement: op, Op: op, MsgBytes: 8, NProcs: 2,
			TimeS: time, StderrS: time / 100, P10S: time, P90S: time, Reps: 8, DelayS: &d}
	}
	res := &report.Results{Runs: []record.Run{{Kind: record.KindRun, RunID: "r", NProcs: 2, MPILibrary: "Open MPI"}},
		Points: []record.Point{pt("Win_start", 1e-4, 1.1e-4), pt("Win_start", 0, 2e-6), pt("Win_test", 0, 5e-7),
			pt("Win_test", 1e-4, 6e-7), pt("Win_post", 0, 1e-6)}}
	res.Points = append(res.Points, record.Point{Kind: record.KindPoint, RunID: "r", Measurement: "x", Op: "Put", MsgBytes: 8,
		NProcs: 2, TimeS: 1e-6, Reps: 8})
	gs := delayGroups(res)
	if len(gs) != 1 || len(gs[0].Points) != 4 { // Win_post has one delay: no line
		t.Fatalf("groups %+v", gs)
	}
	f, err := buildDelay(gs[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "delay-np2" || f.Kind != "delay" {
		t.Errorf("figure %q of kind %q", f.Name, f.Kind)
	}
	// Ten lines: two figures, of 8 and 2 lines, named apart.
	many := &report.Results{Runs: res.Runs}
	for i := range 10 {
		op := fmt.Sprintf("Op%d", i)
		many.Points = append(many.Points, pt(op, 0, 1e-6), pt(op, 1e-5, 2e-6))
	}
	gs = delayGroups(many)
	if len(gs) != 2 || len(gs[0].Points) != 16 || len(gs[1].Points) != 4 {
		t.Fatalf("10 lines in %d groups", len(gs))
	}
	if f, err := buildDelay(gs[1], Options{}); err != nil || f.Name != "delay-2-of-2-np2" {
		t.Errorf("second figure %v, %v", f, err)
	}
	only := &report.Results{Runs: res.Runs, Points: []record.Point{pt("Win_start", 0, 1e-6), pt("Win_test", 1e-5, 1e-6)}}
	if gs := delayGroups(only); len(gs) != 0 {
		t.Errorf("one delay per operation drew %d figures", len(gs))
	}
}
