package plots

import (
	"testing"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// A halo figure: one per run and process count, a line per exchange and computation
// time, the computations as horizontal lines; points without halo_compute_s, or
// one size per line, draw none.
func TestHaloFigure(t *testing.T) {
	pt := func(op string, bytes int64, compute, time float64) record.Point {
		c := compute
		return record.Point{Kind: record.KindPoint, RunID: "r", Measurement: op, Op: op, MsgBytes: bytes, NProcs: 2,
			TimeS: time, StderrS: time / 100, P10S: time, P90S: time, Reps: 8, HaloComputeS: &c}
	}
	res := &report.Results{Runs: []record.Run{{Kind: record.KindRun, RunID: "r", NProcs: 2, MPILibrary: "Open MPI"}},
		Points: []record.Point{pt("Halo_Twosided", 8, 0, 4e-7), pt("Halo_Twosided", 16384, 0, 7e-6),
			pt("Halo_Onesided_Fence", 8, 0, 6e-7), pt("Halo_Onesided_Fence", 16384, 0, 1.4e-6),
			pt("Halo_Twosided", 8, 5e-5, 5.1e-5), pt("Halo_Twosided", 16384, 5e-5, 5.7e-5)}}
	res.Points = append(res.Points, record.Point{Kind: record.KindPoint, RunID: "r", Measurement: "x", Op: "Put", MsgBytes: 8,
		NProcs: 2, TimeS: 1e-6, Reps: 8})
	gs := haloGroups(res)
	if len(gs) != 1 || len(gs[0].Points) != 6 {
		t.Fatalf("groups %+v", gs)
	}
	f, err := buildHalo(gs[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "halo-np2" || f.Kind != "halo" {
		t.Errorf("figure %q of kind %q", f.Name, f.Kind)
	}
	if l := haloLine(&res.Points[4]); l != "Halo_Twosided, compute 50 µs" {
		t.Errorf("line %q", l)
	}
	one := &report.Results{Runs: res.Runs, Points: []record.Point{pt("Halo_Twosided", 8, 0, 4e-7), pt("Halo_Twosided", 8, 5e-5, 5e-5)}}
	if gs := haloGroups(one); len(gs) != 0 {
		t.Errorf("one size per line drew %d figures", len(gs))
	}
}
