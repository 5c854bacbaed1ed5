package plots

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

const (
	noProgress = "Isend overlap, no progress"
	progress   = "Isend overlap, MPI_Test every 1000"
)

func TestOverlapKind(t *testing.T) {
	// Records without a breakdown: neither overlap kind applies.
	for _, f := range []string{"pt2pt-a.jsonl", "timers.jsonl", "quick-np2.jsonl", "quick-np4.jsonl"} {
		res := load(t, f)
		for _, k := range []string{"overlap", "overlap-ratio"} {
			if n := len(kindNamed(t, k).Groups(res)); n != 0 {
				t.Errorf("%s: %s applies to %d groups of records without a breakdown", f, k, n)
			}
		}
	}
	// With breakdowns: a figure per measurement, one ratio figure for both.
	res := load(t, "overlap-np2.jsonl")
	figs := figuresOf(t, res, "overlap", Options{})
	if len(figs) != 2 || figs[0].Title != noProgress || figs[1].Title != progress {
		t.Fatalf("%d figures", len(figs))
	}
	if figs[0].Name != "overlap-Isend-overlap-no-progress-np2" || figs[1].Name != "overlap-Isend-overlap-MPI_Test-every-1000-np2" {
		t.Errorf("names %q %q", figs[0].Name, figs[1].Name)
	}
	if r := figuresOf(t, res, "overlap-ratio", Options{}); len(r) != 1 || r[0].Name != "overlap-ratio-pt2pt-np2" || r[0].Title != "non-blocking point-to-point: overlap ratio vs message size" {
		t.Errorf("ratio figures %+v", r)
	}
	// A breakdown with no positive full time cannot be split into shares: left out.
	for i := range res.Points {
		res.Points[i].FullS = 0
	}
	for _, k := range []string{"overlap", "overlap-ratio"} {
		if n := len(kindNamed(t, k).Groups(res)); n != 0 {
			t.Errorf("%s: %d groups without a full time", k, n)
		}
	}
}

func TestOverlapBars(t *testing.T) {
	figs := figuresOf(t, load(t, "overlap-np2.jsonl"), "overlap", Options{})
	f, st := figs[0], figs[0].Stack
	if st == nil || f.Kind != "overlap" {
		t.Fatal("no stack")
	}
	wantCats := []string{"8 B", "64 B", "1 KiB", "16 KiB", "256 KiB", "1 MiB"}
	// post/full, max(0, overlapped-post)/full, the rest: from the records' full, post, overlapped.
	want := [][3]float64{
		{0.25, 0.65, 0.1},                     // 2.0, 0.5, 1.8 µs
		{0.25, 0.65, 0.1},                     // 2.2, 0.55, 1.98 µs
		{0.2, 0.8, 0},                         // 4.0, 0.8, 4.8 µs: overlapped above full, capped
		{0.1, 0.5, 0.4},                       // 12, 1.2, 7.2 µs
		{0.02, 0.38, 0.6},                     // 100, 2, 40 µs
		{2.5 / 380, 149.5 / 380, 228.0 / 380}, // 380, 2.5, 152 µs
	}
	wantAnn := []string{"10% · 2.0 µs", "10% · 2.2 µs", "0%* · 4.0 µs", "40% · 12 µs", "60% · 100 µs", "60% · 380 µs"}
	if len(st.Parts) != 3 || st.Parts[0].Label != "post" || st.Parts[1].Label != "wait not hidden" || st.Parts[2].Label != "hidden by computation" {
		t.Fatalf("parts %+v", st.Parts)
	}
	if strings.Join(st.Categories, "|") != strings.Join(wantCats, "|") || strings.Join(st.Annotations, "|") != strings.Join(wantAnn, "|") {
		t.Errorf("categories %q annotations %q", st.Categories, st.Annotations)
	}
	for i, w := range want {
		sum := 0.0
		for j := range st.Parts {
			if v := st.Parts[j].Values[i]; !near(v, w[j]) && !(w[j] == 0 && v == 0) {
				t.Errorf("%s %s: %g, want %g", st.Categories[i], st.Parts[j].Label, v, w[j])
			}
			sum += st.Parts[j].Values[i]
		}
		if !near(sum, 1) {
			t.Errorf("%s: parts add up to %g", st.Categories[i], sum)
		}
	}
	if f.Y.Label != "share of the full operation time" || f.Y.Unit != "" || f.Y.Min != 0 || f.Y.Max <= 1.05 || f.Y.Log {
		t.Errorf("y %+v", f.Y)
	}
	for _, tk := range f.Plot.Y.Tick.Marker.Ticks(f.Y.Min, f.Y.Max) {
		if tk.Value > 1 {
			t.Errorf("tick %g above a share of 1", tk.Value)
		}
	}
	notes := strings.Join(f.Notes, "\n")
	for _, w := range []string{
		"overlapped time above the full time at 1 size (1 KiB): nothing hidden, the bar is capped at the full time",
		"* overlap ratio clamped to 0–100%; measured -20% at 1 KiB",
	} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes %q lack %q", f.Notes, w)
		}
	}
	if len(f.Notes) != 2 || !strings.Contains(f.Caption, "Isend") || !strings.Contains(f.Caption, "no MPI_Test during the computation") ||
		!strings.Contains(f.Caption, "above each bar: overlap ratio · full time") || strings.Contains(f.Caption, "error bars") {
		t.Errorf("caption %q notes %q", f.Caption, f.Notes)
	}
	g := figs[1]
	if !strings.Contains(g.Caption, "MPI_Test every 1000 spin iterations") || len(g.Notes) != 1 ||
		g.Notes[0] != "computation more than 25% off its target at 1 size (8 B)" || g.Stack.Annotations[5] != "75% · 390 µs" {
		t.Errorf("caption %q notes %q annotations %q", g.Caption, g.Notes, g.Stack.Annotations)
	}
	for _, fig := range figs {
		for _, format := range Formats {
			if b := render(t, fig, format); !hasMagic(b, format) {
				t.Errorf("%s %s", fig.Name, format)
			}
		}
	}
}

func TestOverlapShares(t *testing.T) {
	cases := []struct {
		o       Overlap
		want    [3]float64
		capped  bool
		comment string
	}{
		{Overlap{FullS: 10, PostS: 2, OverlappedS: 5}, [3]float64{0.2, 0.3, 0.5}, false, "partly hidden"},
		{Overlap{FullS: 10, PostS: 2, OverlappedS: 1}, [3]float64{0.1, 0, 0.9}, true, "overlapped below the post"},
		{Overlap{FullS: 10, PostS: 2, OverlappedS: -1}, [3]float64{0, 0, 1}, true, "overlapped below zero"},
		{Overlap{FullS: 10, PostS: 2, OverlappedS: 10}, [3]float64{0.2, 0.8, 0}, false, "nothing hidden"},
		{Overlap{FullS: 10, PostS: 2, OverlappedS: 14}, [3]float64{0.2, 0.8, 0}, true, "overlapped above full"},
		{Overlap{FullS: 10, PostS: 12, OverlappedS: 14}, [3]float64{1, 0, 0}, true, "post above full"},
	}
	for _, c := range cases {
		p, nh, h, capped := c.o.Shares()
		if got := [3]float64{p, nh, h}; !near(got[0], c.want[0]) || !near(got[1], c.want[1]) || !near(got[2], c.want[2]) || capped != c.capped {
			t.Errorf("%s: %v capped %v, want %v %v", c.comment, got, capped, c.want, c.capped)
		}
	}
}

func TestOverlapRatioFigure(t *testing.T) {
	res := load(t, "overlap-np2.jsonl")
	f := figuresOf(t, res, "overlap-ratio", Options{})[0]
	if f.Kind != "overlap-ratio" || !f.X.Log || f.Y.Log || f.Y.Label != "overlap ratio (share hidden)" || f.Y.Min > -0.05 || f.Y.Max < 1.05 {
		t.Errorf("axes %+v %+v", f.X, f.Y)
	}
	if len(f.Series) != 2 || f.Series[0].Label != noProgress || f.Series[1].Label != progress {
		t.Fatalf("series %+v", f.Series)
	}
	wantY := [][]float64{{0.1, 0.1, 0, 0.4, 0.6, 0.6}, {0.1, 0.1, 0.3, 0.6, 0.7, 0.75}}
	for i, s := range f.Series {
		ps := pointsOf(res, func(p *record.Point) bool { return p.Measurement == s.Label })
		checkSeries(t, f, s, ps, func(p *record.Point) float64 { return p.OverlapRatio })
		for j, p := range ps {
			if !near(s.Y[j], wantY[i][j]) && !(wantY[i][j] == 0 && s.Y[j] == 0) {
				t.Errorf("%s %d B: %g", s.Label, p.MsgBytes, s.Y[j])
			}
			if !near(s.Lo[j], p.OverlapRatio-p.OverlapRatioStderr) || !near(s.Hi[j], p.OverlapRatio+p.OverlapRatioStderr) {
				t.Errorf("%s %d B: error bar %g..%g", s.Label, p.MsgBytes, s.Lo[j], s.Hi[j])
			}
		}
	}
	if len(f.Notes) != 1 || f.Notes[0] != "1 ratio clamped to [0, 1]; measured -0.20 at 1 KiB" || !strings.Contains(f.Caption, "±stderr") {
		t.Errorf("notes %q caption %q", f.Notes, f.Caption)
	}
	for _, format := range Formats {
		if b := render(t, f, format); !hasMagic(b, format) {
			t.Errorf("%s", format)
		}
	}

	// No error bars asked; p10-p90 asked but not defined for a ratio: none, and said so.
	if n := figuresOf(t, res, "overlap-ratio", Options{Errors: ErrNone})[0]; n.Series[0].Lo != nil {
		t.Error("error bars drawn with none asked")
	}
	p := figuresOf(t, res, "overlap-ratio", Options{Errors: ErrP10P90})[0]
	for _, s := range p.Series {
		for i := range s.Lo {
			if s.Lo[i] != s.Y[i] || s.Hi[i] != s.Y[i] {
				t.Errorf("p10-p90: %s has a bar %g..%g", s.Label, s.Lo[i], s.Hi[i])
			}
		}
	}
	if strings.Contains(p.Caption, "p10") || !strings.Contains(strings.Join(p.Notes, "\n"), "no p10–p90 for a ratio") {
		t.Errorf("p10-p90: caption %q notes %q", p.Caption, p.Notes)
	}

	// Two runs: still one figure per process count, lines named by run too.
	two := load(t, "overlap-np2.jsonl")
	other := load(t, "overlap-np2.jsonl")
	other.Runs[0].RunID = "feedfacecafe0001"
	for i := range other.Points {
		other.Points[i].RunID = "feedfacecafe0001"
	}
	two.Merge(other)
	figs := figuresOf(t, two, "overlap-ratio", Options{Labels: map[string]string{two.Runs[0].RunID: "a"}})
	if len(figs) != 1 || len(figs[0].Series) != 4 || figs[0].Series[0].Label != noProgress+" (run a)" ||
		figs[0].Series[3].Label != progress+" (run feedface)" {
		t.Errorf("%d figures, series %+v", len(figs), figs[0].Series)
	}
}

// Point-to-point and collective ratios get figures of their own.
func TestNbClass(t *testing.T) {
	for op, want := range map[string]string{"Ibcast": "coll", "Ialltoall": "coll", "Isend": "pt2pt", "Isend_Irecv_Pingpong": "pt2pt", "Made_up": "other"} {
		if got := nbClass(op); got != want {
			t.Errorf("%s: %s, want %s", op, got, want)
		}
	}
}
