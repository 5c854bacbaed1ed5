package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

var t0 = time.Date(2026, 1, 1, 2, 0, 0, 0, time.UTC)

// nightly is n nightly runs of two ping-pong sizes and two Put sizes, 2 % noise;
// value(run, op, size) multiplies a point's time (1 for none).
func nightly(n int, value func(run int, op string, size int64) float64) *report.Results {
	rng := rand.New(rand.NewPCG(9, 9))
	res := &report.Results{}
	for i := range n {
		id := fmt.Sprintf("run%02d", i)
		res.Runs = append(res.Runs, record.Run{Kind: record.KindRun, RunID: id, StartTime: t0.Add(time.Duration(i) * 24 * time.Hour),
			MPILibrary: "Open MPI v4.1.4", Hosts: []string{"n1"}})
		for j, op := range []string{"Pingpong_Send_Recv", "Put"} {
			for k, size := range []int64{8, 1024} {
				f := 1.0
				if value != nil {
					f = value(i, op, size)
				}
				if f == 0 {
					continue // not measured
				}
				res.Points = append(res.Points, record.Point{Kind: record.KindPoint, RunID: id, PointIndex: 1 + 2*j + k,
					Measurement: op, Op: op, MsgBytes: size, NProcs: 2, Reps: 10,
					TimeS: 1e-6 * float64(1+j+k) * f * (1 + 0.02*rng.NormFloat64())})
			}
		}
	}
	return res
}

func buildOK(t *testing.T, res *report.Results, labels map[string]string, opt Options) *History {
	t.Helper()
	h, err := Build(res, labels, opt)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Runs are numbered by start time whatever order the sources hold them in, keep their
// labels, and every series follows that order.
func TestBuildOrdersRunsByStartTime(t *testing.T) {
	res := nightly(8, func(run int, _ string, _ int64) float64 { return float64(1 + run) })
	for i, j := 0, len(res.Runs)-1; i < j; i, j = i+1, j-1 {
		res.Runs[i], res.Runs[j] = res.Runs[j], res.Runs[i]
	}
	h := buildOK(t, res, map[string]string{"run00": "old", "run07": "new"}, Options{})
	for i, r := range h.Runs {
		if r.Index != i+1 || r.RunID != fmt.Sprintf("run%02d", i) {
			t.Fatalf("run %d: %+v", i+1, r)
		}
	}
	if h.Runs[0].Label != "old" || h.Runs[7].Label != "new" || h.Runs[3].Label != "" {
		t.Errorf("labels %+v", h.Runs)
	}
	for _, m := range h.Measurements {
		for _, s := range m.Setups {
			for i := 1; i < len(s.Values); i++ {
				if s.Runs[i] != i+1 || s.Values[i] <= s.Values[i-1] {
					t.Fatalf("%s: runs %v values %v", s.Setup, s.Runs, s.Values)
				}
			}
		}
	}
}

// The latest value and the median of the window before it.
func TestBuildBaseline(t *testing.T) {
	res := nightly(8, nil)
	for i := range res.Points {
		p := &res.Points[i]
		p.TimeS = float64(p.RunID[4]-'0'+1) * 1e-6 // run i: (i+1) µs exactly
	}
	for _, c := range []struct {
		window, runs int
		base         float64
	}{{5, 5, 5e-6}, {1, 1, 7e-6}, {20, 7, 4e-6}} {
		h := buildOK(t, res, nil, Options{Window: c.window})
		s := h.Measurements[0].Setups[0]
		if run, v := s.Latest(); run != 8 || v != 8e-6 || s.BaselineRuns != c.runs || math.Abs(s.Baseline-c.base) > 1e-15 {
			t.Errorf("window %d: latest %g at run %d, baseline %g over %d runs", c.window, v, run, s.Baseline, s.BaselineRuns)
		}
	}
}

// A measurement as a whole combines the sizes most of its runs hold, over the runs that
// hold all of them: a size added lately does not drop the older runs, a run that lost a
// size drops out alone.
func TestBuildWholeSizes(t *testing.T) {
	res := nightly(10, func(run int, op string, size int64) float64 {
		if op == "Put" && size == 1024 && run < 7 || op == "Pingpong_Send_Recv" && size == 1024 && run == 4 {
			return 0
		}
		return 1
	})
	h := buildOK(t, res, nil, Options{})
	pp, put := h.Measurements[0], h.Measurements[1]
	if pp.Sizes != 2 || len(pp.Absolute.Values) != 9 || put.Sizes != 1 || len(put.Absolute.Values) != 10 {
		t.Errorf("ping-pong %d sizes over %d runs, Put %d sizes over %d runs", pp.Sizes, len(pp.Absolute.Values), put.Sizes, len(put.Absolute.Values))
	}
	if len(put.Relative.Values) != 9 { // run 5 has no ping-pong value as a whole
		t.Errorf("Put against the others: %d runs", len(put.Relative.Values))
	}
}

// A change of library or hosts is noted at its run; runs without a start time come
// first, with a note.
func TestBuildNotes(t *testing.T) {
	res := nightly(6, nil)
	res.Runs[4].MPILibrary = "Open MPI v5.0.3"
	res.Runs[5].MPILibrary = "Open MPI v5.0.3"
	res.Runs[5].Hosts = []string{"n2"}
	res.Runs[3].StartTime = time.Time{}
	h := buildOK(t, res, nil, Options{})
	notes := strings.Join(h.Notes, "\n")
	for _, want := range []string{"the MPI library changed from Open MPI v4.1.4 to Open MPI v5.0.3",
		"run 6 (2026-01-06 02:00): the hosts changed from n1 to n2", "1 run without a start time"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if h.Runs[0].RunID != "run03" {
		t.Errorf("the run without a start time is run %+v", h.Runs[0])
	}
	if _, err := Build(&report.Results{}, nil, Options{}); err == nil {
		t.Error("no point, no error")
	}
	if _, err := Build(res, nil, Options{Alpha: 1}); err == nil {
		t.Error("alpha 1 accepted")
	}
}

// One measurement twice as slow from the 7th of 12 nights on: its setups and the whole
// change at run 7; the other measurement's relative series moves with the first's (it
// is the median of the others) but its own level stays, so that is not counted; the gate
// calls the first a lasting regression until its level comes back. (The other may show
// a change of a few per cent: with three of the four series of the family changed, the
// fourth is tested at nearly the full level, as Benjamini-Hochberg does.)
func TestWriteHistoryStep(t *testing.T) {
	slow := func(run int, op string, _ int64) float64 {
		if op == "Put" && run >= 6 {
			return 2
		}
		return 1
	}
	h := buildOK(t, nightly(12, slow), map[string]string{"run06": "nightly"}, Options{})
	put := h.Measurements[1]
	if len(put.Absolute.Changes) != 1 || put.Absolute.Changes[0].Run != 7 || len(put.Relative.Changes) != 1 {
		t.Fatalf("Put as a whole: %+v %+v", put.Absolute.Changes, put.Relative.Changes)
	}
	if c := put.Absolute.Changes[0]; c.Ratio < 1.9 || c.Ratio > 2.1 || c.Q > 0.05 {
		t.Errorf("Put's step %+v", c)
	}
	pp := h.Measurements[0]
	for _, c := range pp.Absolute.Changes {
		if c.Ratio < 0.95 || c.Ratio > 1.05 {
			t.Errorf("ping-pong as a whole: %+v", c)
		}
	}
	if len(pp.Relative.Changes) != 0 || len(pp.OthersMoved) != 1 || pp.OthersMoved[0].Run != 7 {
		t.Errorf("ping-pong against the others: %+v, others moved %+v", pp.Relative.Changes, pp.OthersMoved)
	}
	var b bytes.Buffer
	if err := WriteHistory(&b, h); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"12 runs, 2026-01-01 02:00 to 2026-01-12 02:00, from - (11), nightly (1); Open MPI v4.1.4 on n1\n",
		"\nPut, method flush, 2 processes\nsize    runs   latest     baseline   vs baseline   change points\n8 B     12     ",
		"8 B     12     3.904 µs   4.022 µs   -2.9%         run 7 (2026-01-07 02:00, nightly): 1.983 µs → 4.005 µs, +101.9%, p=",
		"as a whole (geometric mean of 2 sizes, 12 runs): run 7 (2026-01-07 02:00, nightly): ",
		"against the run's other measurements: none (not counted, its own level did not move with it: run 7 -",
		"  run 7  2026-01-07T02:00:00Z  run06  nightly  Open MPI v4.1.4  n1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if regs := h.Regressions(0.5); len(regs) != 4 || regs[0].Measurement != "Put, method flush" { // as a whole, relative, 2 sizes
		t.Errorf("regressions above 50 %%: %+v", regs)
	}
	if regs := h.Regressions(1.5); len(regs) != 0 {
		t.Errorf("regressions above 150 %%: %+v", regs)
	}
	j, err := json.Marshal(h)
	if err != nil || !bytes.Contains(j, []byte(`"changes":[{"run":7,`)) {
		t.Errorf("json %v: %.300s", err, j)
	}
	// Back to the old level for the last 4 nights: a change, but no lasting regression.
	back := func(run int, op string, size int64) float64 {
		if run >= 12 {
			return 1
		}
		return slow(run, op, size)
	}
	h = buildOK(t, nightly(16, back), nil, Options{})
	if regs := h.Regressions(0); len(regs) != 0 || len(h.Measurements[1].Absolute.Changes) != 2 {
		t.Errorf("undone: changes %+v, regressions %+v", h.Measurements[1].Absolute.Changes, regs)
	}
}
