package plots

import (
	"testing"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// The delay figure: one per delayed op and process count measured at two delays or
// more, one line per size, each point the time less its delay; an op at one delay, or
// without one, draws none.
func TestImbalanceFigure(t *testing.T) {
	pt := func(op string, delay float64, bytes int64, time float64) record.Point {
		p := record.Point{Kind: record.KindPoint, RunID: "r", Op: op, Measurement: op, MsgBytes: bytes, NProcs: 2,
			TimeS: time, StderrS: 1e-7, P10S: time, P90S: time, Reps: 8}
		if delay > 0 {
			p.DelayS = &delay
		}
		return p
	}
	res := &report.Results{Points: []record.Point{
		pt("delayed_Alltoall", 20e-6, 8, 21e-6), pt("delayed_Alltoall", 100e-6, 8, 103e-6),
		pt("delayed_Alltoall", 20e-6, 1024, 22e-6), pt("delayed_Alltoall", 100e-6, 1024, 104e-6),
		pt("delayed_Gather", 20e-6, 8, 21e-6), // one delay: no figure
		pt("Alltoall", 0, 8, 1e-6),
	}}
	figs := figuresOf(t, res, "imbalance", Options{})
	if len(figs) != 1 || figs[0].Name != "imbalance-delayed_Alltoall-np2" {
		t.Fatalf("figures %v", figs)
	}
	f := figs[0]
	if len(f.Series) != 2 || f.Series[0].Label != "8 B" || f.Series[1].Label != "1 KiB" {
		t.Fatalf("series %+v", f.Series)
	}
	want := [][2]float64{{20e-6, 1e-6}, {100e-6, 3e-6}}
	for i, w := range want {
		x, y := f.Series[0].X[i]*f.X.Div, f.Series[0].Y[i]*f.Y.Div
		if !near(x, w[0]) || !near(y, w[1]) {
			t.Errorf("8 B point %d: (%g, %g), want delay %g, time beyond it %g", i, x, y, w[0], w[1])
		}
	}
}
