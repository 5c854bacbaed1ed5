package compare

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// load reads a file of report/testdata; pt2pt-a and pt2pt-b are two real runs of the
// pt2pt suite on one machine, trimmed to 6 ping-pong and 3 bandwidth sizes.
func load(t *testing.T, name string) *report.Results {
	t.Helper()
	res, err := report.Source{Label: name, Name: "../testdata/" + name}.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func compareAB(t *testing.T, opt Options) (*Comparison, *report.Results, *report.Results) {
	t.Helper()
	a, b := load(t, "pt2pt-a.jsonl"), load(t, "pt2pt-b.jsonl")
	c, err := Compare([]Labelled{{"a", a}, {"b", b}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c, a, b
}

func row(t *testing.T, tb Table, size int64) Row {
	t.Helper()
	for _, r := range tb.Rows {
		if r.MsgBytes == size {
			return r
		}
	}
	t.Fatalf("%s: no row for %d bytes", tb.Measurement, size)
	return Row{}
}

func near(x, y, rel float64) bool { return math.Abs(x-y) <= rel*math.Abs(y) }

func TestCompareRealRuns(t *testing.T) {
	a0 := load(t, "pt2pt-a.jsonl")
	samples := slices.Clone(a0.Points[0].SamplesS)
	c, err := Compare([]Labelled{{"a", a0}, {"b", load(t, "pt2pt-b.jsonl")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a0.Points[0].SamplesS, samples) {
		t.Error("Compare reordered the caller's samples")
	}
	if c.Baseline != "a" || !slices.Equal(c.Others, []string{"b"}) || c.Alpha != 0.05 || c.Metric != MetricTime || len(c.Tables) != 2 {
		t.Fatalf("%+v", c)
	}
	pp, bw := c.Tables[0], c.Tables[1]
	if pp.Measurement != "Pingpong_Send_Recv" || bw.Measurement != "Bandwidth_Isend_Irecv" || len(pp.Rows) != 6 || len(bw.Rows) != 3 {
		t.Fatalf("tables %s (%d rows), %s (%d rows)", pp.Measurement, len(pp.Rows), bw.Measurement, len(bw.Rows))
	}
	for i := 1; i < len(pp.Rows); i++ {
		if pp.Rows[i-1].MsgBytes >= pp.Rows[i].MsgBytes {
			t.Error("rows not sorted by size")
		}
	}
	// The p-values and sample counts are benchstat's on the same data (exported with
	// WriteGoBench): 1 B ~ (p=0.631 n=32+9), 256 B -8.33% (p=0.018 n=32), 4 KiB
	// +30.94% (p=0.000 n=32); benchstat's change is of medians, ours of time_s.
	r1 := row(t, pp, 1)
	if !r1.Tested || r1.Significant || r1.N1 != 32 || r1.N2 != 9 || math.Abs(r1.P-0.631) > 0.0005 || r1.Verdict() != "~ (p=0.631 n=32+9)" {
		t.Errorf("1 B: %+v %q", r1, r1.Verdict())
	}
	r256 := row(t, pp, 256)
	if !r256.Significant || !r256.Better() || r256.Worse() || math.Abs(r256.P-0.018) > 0.0005 || r256.Verdict() != "-9.8% (p=0.018 n=32+32)" {
		t.Errorf("256 B: %q", r256.Verdict())
	}
	r4k := row(t, pp, 4096)
	if !r4k.Significant || !r4k.Worse() || !near(r4k.Ratio, r4k.Other.TimeS/r4k.Base.TimeS, 1e-12) || r4k.Verdict() != "+31.6% (p=0.000 n=32+32)" {
		t.Errorf("4 KiB: %+v %q", r4k, r4k.Verdict())
	}
	for _, p := range a0.Points {
		if p.Op == "Pingpong_Send_Recv" && p.MsgBytes == 4096 && (r4k.Base.TimeS != p.TimeS || r4k.Base.Points != 1 || r4k.N1 != p.Reps) {
			t.Errorf("central value is not time_s: %+v", r4k.Base)
		}
	}
	// The geomean row: of the ratios, and the ratio of the geomeans.
	var logs float64
	for _, r := range pp.Rows {
		logs += math.Log(r.Ratio)
	}
	g := pp.Geomean
	if g.N != 6 || !near(g.Ratio, math.Exp(logs/6), 1e-12) || !near(g.Ratio, g.Other/g.Base, 1e-12) {
		t.Errorf("geomean %+v, want ratio %g", g, math.Exp(logs/6))
	}
	tot := c.Totals[0]
	if tot.Rows != 9 || tot.Compared != 9 || tot.Significant != tot.Better+tot.Worse || tot.Significant == 0 || tot.Significant == 9 {
		t.Errorf("totals %+v", tot)
	}
	// Time is the metric, but bandwidth operations carry their bandwidth too.
	if r := row(t, bw, 4096); bw.Metric != MetricTime || r.Base.BandwidthBps <= 0 || r.Ratio != r.Other.TimeS/r.Base.TimeS {
		t.Errorf("bandwidth table in time: %+v", r)
	}
}

func TestCompareBandwidthAndAlpha(t *testing.T) {
	c, _, _ := compareAB(t, Options{Metric: MetricBandwidth, Alpha: 0.01})
	pp, bw := c.Tables[0], c.Tables[1]
	if pp.Metric != MetricTime || bw.Metric != MetricBandwidth {
		t.Fatalf("metrics %s %s", pp.Metric, bw.Metric)
	}
	r := row(t, bw, 4096)
	if !near(r.Ratio, r.Other.BandwidthBps/r.Base.BandwidthBps, 1e-12) || r.Ratio >= 1 || !r.Worse() || r.Better() {
		t.Errorf("bandwidth row %+v", r)
	}
	// p=0.018 is significant at 0.05, not at 0.01.
	if r := row(t, pp, 256); r.Significant || r.Delta() != "~" || r.Alpha != 0.01 {
		t.Errorf("alpha 0.01: %+v", r)
	}
}

func TestCompareMissingFaultsAndFewSamples(t *testing.T) {
	a, b := load(t, "pt2pt-a.jsonl"), load(t, "pt2pt-b.jsonl")
	var pts []record.Point
	for _, p := range b.Points {
		switch p.MsgBytes {
		case 65536: // missing in b
		case 2097152: // a timeout in b
			b.Faults = append(b.Faults, record.Fault{Kind: record.KindFault, RunID: p.RunID, PointIndex: p.PointIndex,
				Measurement: p.Measurement, Op: p.Op, MsgBytes: p.MsgBytes, NProcs: p.NProcs, Fault: record.FaultTimeout})
		case 1024: // no valid repetition in b
			if p.Op == "Pingpong_Send_Recv" {
				p.Reps, p.TimeS, p.SamplesS = 0, 0, nil
			}
			pts = append(pts, p)
		case 256: // three repetitions a side cannot be significant at 0.05
			p.SamplesS = p.SamplesS[:3]
			pts = append(pts, p)
		default:
			pts = append(pts, p)
		}
	}
	extra := pts[0]
	extra.Measurement, extra.PointIndex = "only in b", 99
	b.Points = append(pts, extra)
	for i := range a.Points {
		if a.Points[i].MsgBytes == 256 {
			a.Points[i].SamplesS = a.Points[i].SamplesS[:3]
		}
	}
	c, err := Compare([]Labelled{{"a", a}, {"b", b}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tables) != 3 || c.Tables[2].Measurement != "only in b" {
		t.Fatalf("%d tables", len(c.Tables))
	}
	pp := c.Tables[0]
	if r := row(t, pp, 65536); r.Compared() || r.Other.State != SideMissing || r.Base.State != SideMeasured || r.Verdict() != "not compared" {
		t.Errorf("missing: %+v", r)
	}
	if r := row(t, pp, 2097152); r.Compared() || r.Other.State != SideFault || r.Other.Fault != "timeout" {
		t.Errorf("fault: %+v", r)
	}
	if r := row(t, pp, 1024); r.Compared() || r.Other.State != SideNoValue {
		t.Errorf("no valid reps: %+v", r)
	}
	r := row(t, pp, 256)
	if !r.Tested || r.Significant || len(r.Notes) != 1 || r.Notes[0] != "need >= 4 samples to detect a difference at alpha level 0.05" {
		t.Errorf("few samples: %+v", r)
	}
	if only := c.Tables[2].Rows[0]; only.Base.State != SideMissing || only.Other.State != SideMeasured {
		t.Errorf("only in b: %+v", only)
	}
	if pp.Geomean.N != 3 {
		t.Errorf("geomean over %d rows, want the 3 compared", pp.Geomean.N)
	}
	tot := c.Totals[0]
	if tot.Rows != 10 || tot.Compared != 6 || tot.OnlyBase != 1 || tot.OnlyOther != 1 || tot.Faults != 1 {
		t.Errorf("totals %+v", tot)
	}
	var buf bytes.Buffer
	if err := WriteComparison(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"missing", "fault: timeout", "no valid reps", "¹ need >= 4 samples",
		"~    (p=0.700 n=3+3)¹", "only in b (Pingpong_Send_Recv), 2 processes", "1 missing in b, 1 missing in a, 1 with faults"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCompareErrors(t *testing.T) {
	a := load(t, "pt2pt-a.jsonl")
	if _, err := Compare([]Labelled{{"a", a}}, Options{}); err == nil || !strings.Contains(err.Error(), "at least two sources") {
		t.Errorf("one source: %v", err)
	}
	for _, opt := range []Options{{Alpha: 1.5}, {Metric: "latency"}} {
		if _, err := Compare([]Labelled{{"a", a}, {"b", a}}, opt); err == nil {
			t.Errorf("%+v accepted", opt)
		}
	}
	np4 := load(t, "pt2pt-b.jsonl")
	for i := range np4.Points {
		np4.Points[i].NProcs = 4
	}
	_, err := Compare([]Labelled{{"a", a}, {"np4", np4}}, Options{})
	if err == nil || err.Error() != "a and np4 have no point in common: points are matched by measurement, op, message size and process count (2 vs 4 processes)" {
		t.Errorf("np4: %v", err)
	}
	other := load(t, "pt2pt-b.jsonl")
	for i := range other.Points {
		other.Points[i].Measurement = "x"
	}
	_, err = Compare([]Labelled{{"a", a}, {"x", other}}, Options{})
	if err == nil || !strings.Contains(err.Error(), `no measurement name in common ("Pingpong_Send_Recv", "Bandwidth_Isend_Irecv" vs "x")`) {
		t.Errorf("names: %v", err)
	}
}

func TestCompareThreeSourcesAndPooling(t *testing.T) {
	a, b := load(t, "pt2pt-a.jsonl"), load(t, "pt2pt-b.jsonl")
	both := load(t, "pt2pt-a.jsonl")
	both.Merge(b) // two runs in one source: their points are pooled
	c, err := Compare([]Labelled{{"a", a}, {"b", b}, {"a+b", both}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Others, []string{"b", "a+b"}) || len(c.Tables) != 4 || c.Tables[2].Other != "a+b" || len(c.Totals) != 2 {
		t.Fatalf("others %v, %d tables", c.Others, len(c.Tables))
	}
	r := row(t, c.Tables[2], 1)
	want := (a.Points[0].TimeS + b.Points[0].TimeS) / 2
	if r.Other.Points != 2 || !near(r.Other.TimeS, want, 1e-12) || r.N2 != 32+9 || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "2 points pooled") {
		t.Errorf("pooled: %+v", r)
	}
}

func TestCompareImportedSKOIsNotTested(t *testing.T) {
	a := load(t, "pt2pt-a.jsonl")
	var buf bytes.Buffer
	sko := report.NewSKO(&buf)
	err := sko.Run(&a.Runs[0])
	for i := range a.Points {
		err = errors.Join(err, sko.Point(&a.Points[i]))
	}
	if err := errors.Join(err, sko.Close()); err != nil {
		t.Fatal(err)
	}
	imported, err := report.ReadSKO(&buf, "a.sko")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compare([]Labelled{{"jsonl", a}, {"sko", imported}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range c.Tables {
		for _, r := range tb.Rows {
			if !r.Compared() || r.Tested || r.Significant || math.Abs(r.Change()) > 1e-3 ||
				!strings.HasSuffix(r.Verdict(), "(not tested)") || !strings.Contains(r.Notes[0], "no repetitions stored in sko") {
				t.Errorf("%s %d: %+v %q", tb.Measurement, r.MsgBytes, r, r.Verdict())
			}
		}
	}
	if c.Totals[0].Untested != 9 {
		t.Errorf("totals %+v", c.Totals[0])
	}
}

func TestWriteComparison(t *testing.T) {
	c, _, _ := compareAB(t, Options{})
	var buf bytes.Buffer
	if err := WriteComparison(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"b vs a (baseline): Mann-Whitney U test on the repetitions, alpha 0.05\n",
		"\nPingpong_Send_Recv, 2 processes\n",
		"      size                   a                   b   vs base\n",
		"       1 B     1.176 µs ± 4.0%     1.232 µs ± 2.9%         ~    (p=0.631 n=32+9)\n",
		"     4 KiB      9.663 µs ± 14%    12.718 µs ± 6.7%    +31.6%   (p=0.000 n=32+32)\n",
		"\nBandwidth_Isend_Irecv, 2 processes\n",
		"total b vs a: 9 rows, 9 compared,",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The rows of a table are aligned: all as wide.
	for _, block := range strings.Split(out, "\n\n") {
		width := -1
		for _, l := range strings.Split(block, "\n") {
			if !strings.HasSuffix(l, ")") || !strings.HasPrefix(l, " ") {
				continue
			}
			if n := utf8.RuneCountInString(l); width < 0 {
				width = n
			} else if n != width {
				t.Errorf("row %q is %d wide, not %d", l, n, width)
			}
		}
	}
}
