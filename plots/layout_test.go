package plots

import (
	"testing"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// A layout figure: one per operation and process count, a line per data layout with
// the contiguous points beside; an operation measured contiguous only draws none.
func TestLayoutFigure(t *testing.T) {
	pt := func(op, layout string, size int64, time float64) record.Point {
		p := record.Point{Kind: record.KindPoint, RunID: "r", Measurement: op + " " + layout, Op: op, MsgBytes: size,
			NProcs: 2, TimeS: time, StderrS: time / 100, P10S: time, P90S: time, Reps: 8, DataLayout: layout}
		if layout != "" {
			p.Stride = 2
		}
		return p
	}
	res := &report.Results{Runs: []record.Run{{Kind: record.KindRun, RunID: "r", NProcs: 2, MPILibrary: "Open MPI"}},
		Points: []record.Point{pt("Put", "", 64, 1e-7), pt("Put", "", 1024, 2e-7), pt("Put", "vector", 64, 3e-7),
			pt("Put", "vector", 1024, 2e-6), pt("Put", "packed", 64, 2e-7), pt("Put", "packed", 1024, 6e-7),
			pt("Get", "", 64, 1e-7), pt("Get", "", 1024, 2e-7)}}
	every := pt("Put", "vector", 64, 5e-7)
	every.TypeCommit = "every_call"
	res.Points = append(res.Points, every)
	gs := layoutGroups(res)
	if len(gs) != 1 || len(gs[0].Points) != 7 {
		t.Fatalf("groups %+v", gs)
	}
	f, err := buildLayout(gs[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "layout-Put-np2" || f.Kind != "layout" {
		t.Errorf("figure %q of kind %q", f.Name, f.Kind)
	}
	lines, _ := linesBy(gs[0].Points, layoutLine, func(p *record.Point) (float64, float64, float64, bool) {
		return p.TimeS, 0, 0, false
	}, ErrNone)
	if len(lines) != 4 || lines[0].Label != "contiguous" || lines[1].Label != "vector, stride 2" || len(lines[1].X) != 2 ||
		lines[3].Label != "vector, stride 2, every call" {
		t.Errorf("lines %+v", lines)
	}
}
