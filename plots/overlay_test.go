package plots

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// The SHMEM send-receives are drawn beside MPI_Sendrecv (ops.Info.Beside): one figure,
// a line per operation, the values the records hold; a run without the MPI side has no
// such figure.
func TestBesideFigure(t *testing.T) {
	res := load(t, "sendrecv-np2.jsonl")
	figs := figuresOf(t, res, "beside", Options{})
	if len(figs) != 1 {
		t.Fatalf("%d figures", len(figs))
	}
	f := figs[0]
	if f.Name != "beside-Sendrecv_Shift-np2" || f.Title != "Shmem_Sendrecv_Shift, Shmem_Sendrecv_Shift_Offset beside Sendrecv_Shift: time vs message size" {
		t.Errorf("%q: %q", f.Name, f.Title)
	}
	if len(f.Series) != 3 {
		t.Fatalf("%d series", len(f.Series))
	}
	for _, s := range f.Series {
		checkSeries(t, f, s, pointsOf(res, func(p *record.Point) bool { return p.Op == s.Label }), func(p *record.Point) float64 { return p.TimeS })
	}
	shmemOnly := &report.Results{Runs: res.Runs}
	for _, p := range res.Points {
		if p.Op != "Sendrecv_Shift" {
			shmemOnly.Points = append(shmemOnly.Points, p)
		}
	}
	if n := len(kindNamed(t, "beside").Groups(shmemOnly)); n != 0 {
		t.Errorf("without the MPI side: %d groups", n)
	}
}

// Two runs of one suite in one figure: a colour per run, a dash per operation, at most
// 8 lines a figure, the values the records hold (ping-pongs one-way); the title names no
// run (the legend does); one run alone has no overlay.
func TestOverlayFigure(t *testing.T) {
	res, err := report.LoadAll(report.ParseSources([]string{"a=../report/testdata/pt2pt-a.jsonl", "b=../report/testdata/pt2pt-b.jsonl"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{res.Runs[0].RunID: "a", res.Runs[1].RunID: "b"}
	figs := figuresOf(t, res, "overlay", Options{Labels: labels})
	if len(figs) < 2 {
		t.Fatalf("%d figures", len(figs))
	}
	for _, f := range figs {
		if !strings.HasPrefix(f.Name, "overlay-") || strings.Contains(f.Title, " vs ") || len(f.Series) > 8 || len(f.Series)%2 != 0 {
			t.Errorf("%s %q: %d series", f.Name, f.Title, len(f.Series))
		}
		for i, s := range f.Series {
			op, run, _ := strings.Cut(s.Label, "\n— ")
			// Pairs: the operation's dash, the run's colour.
			if s.Style == nil || s.Style.Color != i%2 || s.Style.Variant != i/2 || run != []string{"a", "b"}[i%2] {
				t.Errorf("%s: series %d %q style %+v", f.Name, i, s.Label, s.Style)
			}
			id := res.Runs[i%2].RunID
			ps := pointsOf(res, func(p *record.Point) bool { return p.RunID == id && measurementOp(p) == op })
			y := func(p *record.Point) float64 { return p.TimeS }
			if ps[0].LatencyS != nil {
				y = func(p *record.Point) float64 { return *p.LatencyS }
			}
			if strings.HasPrefix(f.Name, "overlay-bandwidth") {
				y = func(p *record.Point) float64 { return *p.BandwidthBps }
			}
			checkSeries(t, f, s, ps, y)
		}
	}
	if n := len(kindNamed(t, "overlay").Groups(load(t, "pt2pt-a.jsonl"))); n != 0 {
		t.Errorf("one run: %d overlay groups", n)
	}
}

// One operation in four runs: four colours, one dash.
func TestOverlayColourPerRun(t *testing.T) {
	var res report.Results
	for _, name := range []string{"a", "b", "c", "d"} {
		r := load(t, "quick-np2.jsonl")
		id := r.Runs[0].RunID
		r.Runs[0].RunID = name
		var keep []record.Point
		for _, p := range r.Points {
			if p.RunID == id && p.Op == "Pingpong_Send_Recv" {
				p.RunID = name
				keep = append(keep, p)
			}
		}
		r.Points = keep
		res.Merge(r)
	}
	figs := figuresOf(t, &res, "overlay", Options{})
	if len(figs) != 1 || len(figs[0].Series) != 4 {
		t.Fatalf("%d figures", len(figs))
	}
	colours := map[int]bool{}
	for _, s := range figs[0].Series {
		colours[s.Style.Color] = true
		if s.Style.Variant != 0 {
			t.Errorf("%q: variant %d", s.Label, s.Style.Variant)
		}
	}
	if len(colours) != 4 {
		t.Errorf("colours %v", colours)
	}
	if f := figs[0]; f.Title != "ping-pong, blocking" || f.Y.Label != "one-way latency [µs]" {
		t.Errorf("title %q, y %q", f.Title, f.Y.Label)
	}
}

// An operation keeps its colour from figure to figure, whatever else is drawn with it;
// a second line of it is dashed; two operations never share a colour in one figure.
func TestColourPerOperation(t *testing.T) {
	pt := func(op, m string) record.Point { return record.Point{Op: op, Measurement: m, MsgBytes: 8} }
	a := []record.Point{pt("Alltoall", "Alltoall"), pt("Alltoall_Ordered", "Alltoall_Ordered"), pt("Alltoall_Ordered", "Alltoall_Ordered, barrier")}
	b := []record.Point{pt("Alltoall_Ordered", "Alltoall_Ordered"), pt("Allgather", "Allgather")}
	style := func(pts []record.Point) map[string]chart.LineStyle {
		lines, _ := linesBy(pts, measurementOp, func(p *record.Point) (float64, float64, float64, bool) { return 1, 0, 0, false }, ErrNone)
		styleByOp(lines, pts, measurementOp)
		out := map[string]chart.LineStyle{}
		for _, l := range lines {
			out[l.Label] = *l.Style
		}
		return out
	}
	sa, sb := style(a), style(b)
	if sa["Alltoall_Ordered"] != sb["Alltoall_Ordered"] || sa["Alltoall_Ordered, barrier\nAlltoall_Ordered"].Color != sa["Alltoall_Ordered"].Color ||
		sa["Alltoall_Ordered, barrier\nAlltoall_Ordered"].Variant != 1 || sa["Alltoall"].Color == sa["Alltoall_Ordered"].Color {
		t.Errorf("styles %v / %v", sa, sb)
	}
}
