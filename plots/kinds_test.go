package plots

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

func load(t *testing.T, files ...string) *report.Results {
	t.Helper()
	var args []string
	for _, f := range files {
		args = append(args, "testdata/"+f)
	}
	res, err := report.LoadAll(report.ParseSources(args), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func figuresOf(t *testing.T, res *report.Results, kind string, opts Options) []*Figure {
	t.Helper()
	opts.Kinds = []string{kind}
	figs, err := Figures(res, opts)
	if err != nil {
		t.Fatal(err)
	}
	return figs
}

func kindNamed(t *testing.T, name string) Kind {
	for _, k := range Kinds() {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("no kind %q", name)
	return Kind{}
}

// near compares plotted values with record values converted to the axis unit.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// pointsOf returns the points of one (measurement, op), by size.
func pointsOf(res *report.Results, keep func(p *record.Point) bool) []record.Point {
	var out []record.Point
	for _, p := range res.Points {
		if keep(&p) {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].MsgBytes < out[j].MsgBytes })
	return out
}

func checkSeries(t *testing.T, f *Figure, s chart.Series, ps []record.Point, y func(*record.Point) float64) {
	t.Helper()
	if len(s.X) != len(ps) || len(s.Y) != len(ps) {
		t.Fatalf("%s: %d/%d values for %d points", s.Label, len(s.X), len(s.Y), len(ps))
	}
	for i, p := range ps {
		if s.X[i] != float64(p.MsgBytes) || !near(s.Y[i], y(&p)/f.Y.Div) {
			t.Errorf("%s[%d]: plotted (%g, %g), record (%d, %g) / %g", s.Label, i, s.X[i], s.Y[i], p.MsgBytes, y(&p), f.Y.Div)
		}
	}
}

func TestAppliesTo(t *testing.T) {
	cases := []struct {
		files []string
		want  map[string]int
	}{
		{[]string{"pt2pt-a.jsonl"}, map[string]int{"latency": 2, "bandwidth": 1}},
		{[]string{"timers.jsonl"}, map[string]int{"latency": 1, "method-timer": 1}},
		{[]string{"quick-np2.jsonl"}, map[string]int{"latency": 1, "bandwidth": 1}},
		{[]string{"quick-np2.jsonl", "quick-np4.jsonl"}, map[string]int{"latency": 2, "bandwidth": 2, "scalability": 3}},
		{[]string{"overlap-np2.jsonl"}, map[string]int{"latency": 1, "overlap": 2, "overlap-ratio": 1}},
		{[]string{"onesided-np2.jsonl"}, map[string]int{"latency": 1, "throughput": 1, "method-timing": 2, "bandwidth": 2}},
	}
	for _, c := range cases {
		res := load(t, c.files...)
		for _, k := range Kinds() {
			if got := len(k.Groups(res)); got != c.want[k.Name] {
				t.Errorf("%v: %s applies to %d group(s), want %d", c.files, k.Name, got, c.want[k.Name])
			}
		}
	}
}

// Ten ping-pongs are more than one figure shows: the blocking and the non-blocking
// ones apart, Pingpong_Send_Recv in both as the reference.
func TestLatencyFigure(t *testing.T) {
	res := load(t, "pt2pt-a.jsonl")
	figs := figuresOf(t, res, "latency", Options{})
	if len(figs) != 2 {
		t.Fatalf("%d figures", len(figs))
	}
	want := map[string][]string{
		"latency-pt2pt-blocking-np2": {"Pingpong_Send_Recv", "Pingpong_Send_Recv_AT", "Pingpong_Ssend_Recv", "Pingpong_Sendrecv",
			"Pingpong_Sendrecv_replace", "Pingping_Send_Recv"},
		"latency-pt2pt-non-blocking-np2": {"Pingpong_Send_Recv", "Pingpong_Send_Iprobe_Recv", "Pingpong_Send_Irecv",
			"Pingpong_Isend_Recv", "Pingpong_Issend_Recv"},
	}
	for _, f := range figs {
		part := strings.TrimSuffix(strings.TrimPrefix(f.Name, "latency-pt2pt-"), "-np2")
		if f.Title != "pt2pt operations: time vs message size ("+part+")" {
			t.Errorf("name %q title %q", f.Name, f.Title)
		}
		if !strings.Contains(f.Caption, "Open MPI v4.1.4") || !strings.Contains(f.Caption, "1 host") ||
			!strings.Contains(f.Caption, "2 processes") || !strings.Contains(f.Caption, "stderr") {
			t.Errorf("caption %q", f.Caption)
		}
		// 1 B to 4 MiB: log-log; the geometric middle of the times is in µs. Ping-pongs
		// one-way (a ping-ping's time is its own).
		if !f.X.Log || !f.Y.Log || f.Y.Unit != "µs" || f.Y.Div != 1e-6 || !strings.HasSuffix(f.Y.Label, " [µs]") {
			t.Errorf("axes %+v %+v", f.X, f.Y)
		}
		if wantY := map[bool]string{true: "time (ping-pongs: one-way latency) [µs]", false: "one-way latency [µs]"}[part == "blocking"]; f.Y.Label != wantY ||
			!strings.Contains(f.Caption, "one-way latency = round trip / 2") {
			t.Errorf("%s: y %q, caption %q", f.Name, f.Y.Label, f.Caption)
		}
		var labels []string
		for _, s := range f.Series {
			labels = append(labels, s.Label)
		}
		if !slices.Equal(labels, want[f.Name]) {
			t.Errorf("%s: series %q", f.Name, labels)
		}
		for _, s := range f.Series {
			ps := pointsOf(res, func(p *record.Point) bool { return p.Op == s.Label })
			half := 1.0 // a round trip's one-way latency and its error bars: half the round trip's
			if ps[0].LatencyS != nil {
				half = 0.5
			}
			checkSeries(t, f, s, ps, func(p *record.Point) float64 { return half * p.TimeS })
			for j, p := range ps {
				if !near(s.Lo[j], half*(p.TimeS-p.StderrS)/1e-6) || !near(s.Hi[j], half*(p.TimeS+p.StderrS)/1e-6) || s.Clipped[j] {
					t.Errorf("%s %d B: error bar %g..%g", s.Label, p.MsgBytes, s.Lo[j], s.Hi[j])
				}
			}
		}
		if f.Y.Min <= 0 || f.Y.Min > f.Series[0].Lo[0] || f.X.Min > 1 || f.X.Max < 4<<20 {
			t.Errorf("range x %g..%g y %g..%g", f.X.Min, f.X.Max, f.Y.Min, f.Y.Max)
		}
	}
}

// No figure draws more than 8 lines, whatever the suite (the collectives: rooted,
// all-to-all, reductions; a family without panels in parts).
func TestSplitWide(t *testing.T) {
	var pts []record.Point
	for i := 0; i < 19; i++ {
		pts = append(pts, record.Point{Op: fmt.Sprintf("Op%02d", i), Measurement: fmt.Sprintf("Op%02d", i), Family: "x", NProcs: 2, MsgBytes: 8})
	}
	for _, op := range []string{"Bcast", "Scatter", "Alltoall", "Allreduce", "Barrier"} {
		pts = append(pts, record.Point{Op: op, Measurement: op, Family: "coll", NProcs: 2, MsgBytes: 8})
	}
	for _, m := range []string{"barrier", "ack"} {
		pts = append(pts, record.Point{Op: "Bcast", Measurement: "Bcast methods", Method: m, Family: "coll", NProcs: 2, MsgBytes: 8})
	}
	groups := splitWide([]Group{{Key: "x", Points: pts[:19]}, {Key: "coll", Points: pts[19:]}}, measurementOp)
	var parts []string
	for _, g := range groups {
		parts = append(parts, fmt.Sprintf("%s:%d", g.Part, countLabels(g.Points, measurementOp)))
	}
	// 5 collectives + 2 methods = 7 lines: one figure, methods and all.
	if want := []string{"1 of 3:8", "2 of 3:8", "3 of 3:3", ":7"}; !slices.Equal(parts, want) {
		t.Errorf("parts %q, want %q", parts, want)
	}
	for i := 0; i < 5; i++ {
		pts = append(pts, record.Point{Op: "Gather", Measurement: fmt.Sprintf("Gather %d", i), Family: "coll", NProcs: 2, MsgBytes: 8})
	}
	parts = nil
	for _, g := range splitWide([]Group{{Key: "coll", Points: pts[19:]}}, measurementOp) {
		parts = append(parts, fmt.Sprintf("%s:%d", g.Part, countLabels(g.Points, measurementOp)))
	}
	// 12 lines: by panel, the broadcast's methods left to their own figure.
	if want := []string{"rooted:7", "all-to-all:1", "reductions:2"}; !slices.Equal(parts, want) {
		t.Errorf("parts %q, want %q", parts, want)
	}
}

func TestLatencyP10P90(t *testing.T) {
	res := load(t, "quick-np2.jsonl")
	f := figuresOf(t, res, "latency", Options{Errors: ErrP10P90})[0]
	if len(f.Series) != 2 || f.Series[0].Label != "ping-pong, blocking\nPingpong_Send_Recv" || f.Title != "pt2pt operations: time vs message size" {
		t.Fatalf("%d series, %q, %q", len(f.Series), f.Series[0].Label, f.Title)
	}
	if f.Y.Label != "one-way latency [µs]" || !strings.Contains(f.Caption, "p10–p90") {
		t.Errorf("%q %q", f.Y.Label, f.Caption)
	}
	ps := pointsOf(res, func(p *record.Point) bool { return p.Op == "Pingpong_Send_Recv" })
	s := f.Series[0]
	checkSeries(t, f, s, ps, func(p *record.Point) float64 { return *p.LatencyS })
	for i, p := range ps {
		if !near(s.Lo[i], p.P10S/2/f.Y.Div) || !near(s.Hi[i], p.P90S/2/f.Y.Div) {
			t.Errorf("%d B: %g..%g, want p10 %g p90 %g", p.MsgBytes, s.Lo[i], s.Hi[i], p.P10S, p.P90S)
		}
	}
}

// A ping-pong point without latency_s (a record of another tool, an edited file) is
// not halved: its operation's line is the round trip, and the axis says so.
func TestLatencyWithoutOneWay(t *testing.T) {
	res := load(t, "quick-np2.jsonl")
	for i := range res.Points {
		res.Points[i].LatencyS = nil
	}
	f := figuresOf(t, res, "latency", Options{})[0]
	if f.Y.Label != "round-trip time [µs]" || strings.Contains(f.Caption, "one-way") {
		t.Errorf("%q %q", f.Y.Label, f.Caption)
	}
	ps := pointsOf(res, func(p *record.Point) bool { return p.Op == "Pingpong_Send_Recv" })
	checkSeries(t, f, f.Series[0], ps, func(p *record.Point) float64 { return p.TimeS })
}

func TestBandwidthFigure(t *testing.T) {
	res := load(t, "pt2pt-a.jsonl")
	f := figuresOf(t, res, "bandwidth", Options{})[0]
	if f.Name != "bandwidth-pt2pt-np2" || len(f.Series) != 3 || !f.Y.Log || f.Y.Unit != "MB/s" || f.Y.Div != 1e6 {
		t.Fatalf("%s: %d series, y %+v", f.Name, len(f.Series), f.Y)
	}
	for _, s := range f.Series {
		ps := pointsOf(res, func(p *record.Point) bool { return p.Op == s.Label })
		checkSeries(t, f, s, ps, func(p *record.Point) float64 { return *p.BandwidthBps })
		for i, p := range ps {
			rel := p.StderrS / p.TimeS
			if !near(s.Lo[i], *p.BandwidthBps*(1-rel)/1e6) || !near(s.Hi[i], *p.BandwidthBps*(1+rel)/1e6) {
				t.Errorf("%s %d B: %g..%g", s.Label, p.MsgBytes, s.Lo[i], s.Hi[i])
			}
		}
	}
	// 1 KiB to 256 KiB, 0.9 to 6.6 GB/s: log sizes, linear GB/s from zero.
	q := figuresOf(t, load(t, "quick-np2.jsonl"), "bandwidth", Options{})[0]
	if !q.X.Log || q.Y.Log || q.Y.Unit != "GB/s" || q.Y.Min != 0 || q.Title != "bandwidth" {
		t.Errorf("quick bandwidth: x %+v y %+v %q", q.X, q.Y, q.Title)
	}
}

func TestMethodFigure(t *testing.T) {
	res := load(t, "timers.jsonl")
	figs := figuresOf(t, res, "method-timer", Options{})
	if len(figs) != 1 {
		t.Fatalf("%d figures", len(figs))
	}
	f := figs[0]
	if f.Name != "method-timer-Pingpong_Send_Recv-np2" || f.Title != "Pingpong_Send_Recv" ||
		!strings.Contains(f.Caption, "timer: global-loop vs iteration") || f.Y.Label != "one-way latency [µs]" {
		t.Errorf("%q %q %q %q", f.Name, f.Title, f.Caption, f.Y.Label)
	}
	if len(f.Series) != 2 || f.Series[0].Label != "global-loop" || f.Series[1].Label != "iteration" {
		t.Fatalf("series %+v", f.Series)
	}
	for _, s := range f.Series {
		ps := pointsOf(res, func(p *record.Point) bool { return p.Timer == s.Label })
		checkSeries(t, f, s, ps, func(p *record.Point) float64 { return *p.LatencyS })
	}
	// The same timer in two runs is no comparison; two runs with different timers are.
	if n := len(MethodGroups(load(t, "pt2pt-a.jsonl", "quick-np2.jsonl"), TimerMethod)); n != 0 {
		t.Errorf("%d method groups for one timer", n)
	}
	both := load(t, "quick-np2.jsonl", "timers.jsonl")
	gs := MethodGroups(both, TimerMethod)
	if len(gs) != 1 || len(gs[0].Runs) != 2 {
		t.Fatalf("%d groups", len(gs))
	}
	lines := MethodLines(gs[0], TimerMethod, Options{Labels: map[string]string{both.Runs[0].RunID: "q2"}})
	var labels []string
	for _, l := range lines {
		labels = append(labels, l.Label)
	}
	if got := strings.Join(labels, "|"); got != "global-loop (run q2)|global-loop (run 9f6af082)|iteration" {
		t.Errorf("labels %s", got)
	}
}

func TestScalabilityFigure(t *testing.T) {
	res := load(t, "quick-np2.jsonl", "quick-np4.jsonl")
	figs := figuresOf(t, res, "scalability", Options{})
	if len(figs) != 3 {
		t.Fatalf("%d figures", len(figs))
	}
	f := figs[0]
	if f.Name != "scalability-ping-pong-blocking" || f.Title != "ping-pong, blocking" || f.X.Quantity != chart.Count ||
		!strings.Contains(f.Caption, "2, 4 processes") || !strings.Contains(f.Caption, "2 runs") {
		t.Errorf("%q %q %q", f.Name, f.Title, f.Caption)
	}
	sizes := sortedSizes(pointsOf(res, func(p *record.Point) bool { return p.Op == "Pingpong_Send_Recv" }))
	want := spread(sizes, scalingSizes)
	if len(f.Series) != len(want) || len(want) != 4 || want[0] != sizes[0] || want[3] != sizes[len(sizes)-1] {
		t.Fatalf("%d series, sizes %v of %v", len(f.Series), want, sizes)
	}
	for i, s := range f.Series {
		if s.Label != chart.FormatBytes(float64(want[i])) || len(s.X) != 2 || s.X[0] != 2 || s.X[1] != 4 {
			t.Errorf("series %q x %v", s.Label, s.X)
		}
		for j, np := range []int{2, 4} {
			ps := pointsOf(res, func(p *record.Point) bool {
				return p.Op == "Pingpong_Send_Recv" && p.MsgBytes == want[i] && p.NProcs == np
			})
			if len(ps) != 1 || !near(s.Y[j], *ps[0].LatencyS/f.Y.Div) { // ping-pongs one-way
				t.Errorf("%s at %d: %g", s.Label, np, s.Y[j])
			}
		}
	}
	// The same point in two runs is averaged, and said so.
	dup := load(t, "quick-np2.jsonl", "quick-np4.jsonl")
	extra := load(t, "quick-np2.jsonl")
	extra.Runs[0].RunID = "copy"
	for i := range extra.Points {
		extra.Points[i].RunID = "copy"
		extra.Points[i].TimeS *= 3
		if l := extra.Points[i].LatencyS; l != nil {
			l3 := *l * 3
			extra.Points[i].LatencyS = &l3
		}
	}
	dup.Merge(extra)
	d := figuresOf(t, dup, "scalability", Options{})[0]
	ps := pointsOf(res, func(p *record.Point) bool { return p.Op == "Pingpong_Send_Recv" && p.MsgBytes == 1 && p.NProcs == 2 })
	if !near(d.Series[0].Y[0], 2**ps[0].LatencyS/d.Y.Div) || len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "mean") ||
		d.Y.Label != "one-way latency [µs]" {
		t.Errorf("averaged %g, want %g; notes %q, y %q", d.Series[0].Y[0], 2**ps[0].LatencyS/d.Y.Div, d.Notes, d.Y.Label)
	}
}

// The transposes' throughput has a figure of its own, put beside get; the latency
// figure gives every timing method a line of its own.
func TestThroughputAndMethodLines(t *testing.T) {
	res := load(t, "onesided-np2.jsonl")
	f := figuresOf(t, res, "throughput", Options{})[0]
	if f.Name != "throughput-onesided-np2" || f.Y.Quantity != chart.Rate || len(f.Series) != 2 ||
		f.Series[0].Label != "Transpose_Put" || f.Series[1].Label != "Transpose_Get" {
		t.Fatalf("%s: %+v", f.Name, f.Series)
	}
	ps := pointsOf(res, func(p *record.Point) bool { return p.Op == "Transpose_Put" })
	if len(f.Series[0].Y) != len(ps) || !near(f.Series[0].Y[0], *ps[0].ThroughputBps/f.Y.Div) {
		t.Errorf("%v vs %v", f.Series[0].Y, *ps[0].ThroughputBps)
	}
	var names []string
	for _, f := range figuresOf(t, res, "bandwidth", Options{}) {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{"bandwidth-onesided-fence-np2", "bandwidth-onesided-lock_all-np2"}) {
		t.Errorf("bandwidth figures %q: one per method", names)
	}
	l := figuresOf(t, res, "latency", Options{})[0]
	var labels []string
	for _, s := range l.Series {
		labels = append(labels, s.Label)
	}
	if !slices.Contains(labels, "Put_Pingpong, fence") || !slices.Contains(labels, "Put_Pingpong, lock_all") {
		t.Errorf("latency lines %q", labels)
	}
}

// OpenSHMEM's atomics get a bar per kind and width, not a line against their size;
// what was not measured (the denied compare-and-swaps) is named.
func TestAtomicsFigure(t *testing.T) {
	res := load(t, "shmem-np2.jsonl")
	if n := len(kindNamed(t, "latency").Groups(res)); n != 0 { // the puts report bandwidth, the atomics are bars
		t.Errorf("%d latency groups", n)
	}
	f := figuresOf(t, res, "atomics", Options{})[0]
	if f.Name != "atomics-np2" || len(f.Notes) != 1 || f.Notes[0] != "not measured (no bar): Compare_Swap Int, Compare_Swap Long" {
		t.Errorf("%s: notes %q", f.Name, f.Notes)
	}
	for _, format := range Formats {
		if b := render(t, f, format); len(b) < 100 {
			t.Errorf("%s: %d bytes", format, len(b))
		}
	}
	// A bar per kind, in the catalogue's order, from its fields (not the names).
	var kinds []string
	for _, in := range ops.All() {
		if in.AtomicRate && !slices.Contains(kinds, in.AtomicKind) {
			kinds = append(kinds, in.AtomicKind)
		}
	}
	var labels []string
	for _, tk := range f.Plot.X.Tick.Marker.Ticks(f.X.Min, f.X.Max) {
		labels = append(labels, tk.Label)
	}
	if len(kinds) != 14 || !slices.Equal(labels, kinds) {
		t.Errorf("bars %q, want the catalogue's kinds %q", labels, kinds)
	}
	if b := atomicBar("Shmem_Atomic_Fetch_Add_Long"); b != [2]string{"Fetch_Add", "Long"} {
		t.Errorf("bar %q", b)
	}
}
