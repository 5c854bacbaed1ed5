package compare

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/skampi/skampi/internal/aadata"
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

// loadAA reads the recorded A/A runs (internal/aadata).
// loadAA reads the recorded runs once; tests only copy from them (runs, scaleOp).
var loadAA = func() func(t *testing.T) *report.Results {
	var once sync.Once
	var res *report.Results
	var err error
	return func(t *testing.T) *report.Results {
		t.Helper()
		once.Do(func() { res, err = aadata.Results() })
		if err != nil || len(res.Runs) != 20 || len(res.Points) != 400 {
			t.Fatalf("aa: %v", err)
		}
		return res
	}
}()

var (
	runs   = aadata.Runs
	runIDs = aadata.RunIDs
)

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

// A/A: runs that differ in nothing, split at random into two sides, must show no
// significant difference at 95 % of points or more. Repetitions pooled across runs (the
// test this replaced) called a third of these rows significant.
func TestCompareAANoDifference(t *testing.T) {
	aa := loadAA(t)
	ids := runIDs(aa)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, per := range []int{4, 5, 10} {
		rows, sig, trialsWithAny := 0, 0, 0
		const trials = 40
		for trial := 0; trial < trials; trial++ {
			rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
			c, err := Compare([]Labelled{{"a", runs(aa, ids[:per], 1)}, {"b", runs(aa, ids[per:2*per], 1)}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			tot := c.Totals[0]
			if tot.Compared != 20 || tot.Tested != 20 {
				t.Fatalf("%d runs a side: %+v", per, tot)
			}
			rows += tot.Compared
			sig += tot.Significant
			if tot.Significant > 0 {
				trialsWithAny++
			}
		}
		t.Logf("%2d runs a side: %d of %d rows significant over %d trials; %d trials with any", per, sig, rows, trials, trialsWithAny)
		if float64(sig) > 0.05*float64(rows) {
			t.Errorf("%d runs a side: %d of %d A/A rows significant (more than 5 %%)", per, sig, rows)
		}
	}
}

// The same data with one side's times doubled: every row must be a significant
// regression once each side has enough runs, so the A/A test above can fail.
func TestCompareDetectsAShift(t *testing.T) {
	aa := loadAA(t)
	ids := runIDs(aa)
	c, err := Compare([]Labelled{{"a", runs(aa, ids[:10], 1)}, {"b", runs(aa, ids[10:], 2)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tot := c.Totals[0]
	if tot.Worse != 20 || tot.Better != 0 {
		t.Errorf("a doubling, 10 runs a side: %+v", tot)
	}
	for _, tb := range c.Tables {
		for _, r := range tb.Rows {
			if r.N1 != 10 || r.N2 != 10 || r.Q < r.P || r.Q > 1 {
				t.Errorf("%s: n=%d+%d p=%g q=%g", r.Setup, r.N1, r.N2, r.P, r.Q)
			}
		}
	}
	g := Gate{FailAbove: 0.05}.Check(c)
	if len(g.Failed) != 20 || len(g.Untestable) != 0 {
		t.Errorf("gate: %+v", g)
	}
	if g := (Gate{FailAbove: 1.5}).Check(c); len(g.Failed) != 0 {
		t.Errorf("a doubling is not a regression above 150 %%: %+v", g.Explanation)
	}
	// Bandwidth: the doubled time is half the bandwidth, a regression too.
	c, err = Compare([]Labelled{{"a", runs(aa, ids[:10], 1)}, {"b", runs(aa, ids[10:], 2)}}, Options{Metric: MetricBandwidth})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range c.Tables {
		if tb.Op == "Put" && (tb.Metric != MetricBandwidth || !near(tb.Geomean.Ratio, 0.5, 0.2) || !tb.Rows[0].Worse()) {
			t.Errorf("bandwidth: %s %+v", tb.Metric, tb.Geomean)
		}
	}
}

func TestCompareSingleRunsAreNotTested(t *testing.T) {
	c, err := Compare([]Labelled{{"a", load(t, "pt2pt-a.jsonl")}, {"b", load(t, "pt2pt-b.jsonl")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pp := c.Tables[0]
	if pp.Measurement != "Pingpong_Send_Recv" || len(pp.Rows) != 6 || len(c.Tables) != 2 {
		t.Fatalf("tables: %+v", c.Tables)
	}
	r := row(t, pp, 4096)
	if !r.Compared() || r.Tested || r.Significant || r.N1 != 1 || r.N2 != 1 || r.Verdict() != "+31.6% (1+1 runs: not tested)" ||
		!strings.Contains(r.Notes[0], "no significance can be claimed") {
		t.Errorf("4 KiB: %+v %q", r, r.Verdict())
	}
	if !near(r.Ratio, r.Other.TimeS/r.Base.TimeS, 1e-12) || r.Base.RelSpread() != r.Base.StderrS/r.Base.TimeS {
		t.Errorf("one run: its time and its standard error: %+v", r.Base)
	}
	tot := c.Totals[0]
	if tot.Compared != 9 || tot.Untested != 9 || tot.Tested != 0 || tot.Significant != 0 {
		t.Errorf("totals %+v", tot)
	}
	if g := (Gate{FailAbove: 0.05}).Check(c); len(g.Untestable) != 1 || len(g.Failed) != 0 || !strings.Contains(g.Explanation, "no row of b vs a could be tested") {
		t.Errorf("a gate on single runs must refuse to judge: %+v", g)
	}
}

// Points are matched by what they measured, not by the measurement's name: a built-in
// suite's "put-latency" and a one-line run's "Put" share their rows; methods and
// settings that change the number are never pooled.
func TestCompareMatchesSetupsNotNames(t *testing.T) {
	aa := loadAA(t)
	ids := runIDs(aa)
	a, b := runs(aa, ids[:5], 1), runs(aa, ids[5:10], 1)
	for i := range b.Points {
		b.Points[i].Measurement = "renamed " + b.Points[i].Measurement
	}
	c, err := Compare([]Labelled{{"a", a}, {"b", b}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tot := c.Totals[0]; tot.Compared != 20 || tot.OnlyBase+tot.OnlyOther != 0 || c.Tables[0].Measurement != "Pingpong_Send_Recv" {
		t.Errorf("renamed: %+v, first table %q", tot, c.Tables[0].Measurement)
	}
	// The other side measured Put under two methods and two windows: four tables, each
	// matched with the baseline's only where the setup is the same.
	var more []record.Point
	for _, p := range b.Points {
		if p.Op != "Put" {
			continue
		}
		q := p
		q.Method, q.PointIndex = "fence", p.PointIndex+100
		w := p
		w.Window, w.PointIndex = 1, p.PointIndex+200
		more = append(more, q, w)
	}
	b.Points = append(b.Points, more...)
	c, err = Compare([]Labelled{{"a", a}, {"b", b}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, tb := range c.Tables {
		if tb.Op == "Put" {
			titles = append(titles, tb.Method+"|"+tb.Settings)
			only := tb.Rows[0].Base.State == SideMissing
			if only != (tb.Method == "fence" || tb.Key.Window == 1) {
				t.Errorf("%s %s: base %s", tb.Method, tb.Settings, tb.Rows[0].Base.State)
			}
		}
	}
	// The recorded Put points name no method: Put without one is Put under flush.
	if strings.Join(titles, ",") != "flush|window=64,fence|window=64,flush|window=1" {
		t.Errorf("Put tables %q", titles)
	}
}

// A point recorded without a method (an older skampi) and one that names the
// operation's default (flush for Put) are the same setup: every row is compared.
func TestCompareDefaultMethodMatches(t *testing.T) {
	aa := loadAA(t)
	ids := runIDs(aa)
	a, b := runs(aa, ids[:5], 1), runs(aa, ids[5:10], 1)
	named := 0
	for i := range b.Points {
		if b.Points[i].Op == "Put" {
			if b.Points[i].Method != "" {
				t.Fatalf("the recorded Put points name a method: %q", b.Points[i].Method)
			}
			b.Points[i].Method = "flush"
			named++
		}
	}
	c, err := Compare([]Labelled{{"a", a}, {"b", b}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tot := c.Totals[0]; named != 25 || tot.Compared != 20 || tot.OnlyBase+tot.OnlyOther != 0 {
		t.Errorf("%d named: %+v", named, tot)
	}
}

// Two measurements of one setup in one run (what the record does not tell apart,
// such as two data types) keep their names in the key instead of being pooled.
func TestCompareAmbiguousSetupsKeepNames(t *testing.T) {
	aa := loadAA(t)
	ids := runIDs(aa)
	a := runs(aa, ids[:3], 1)
	var twice []record.Point
	for _, p := range a.Points {
		if p.Op == "Allreduce" {
			p.Measurement, p.PointIndex = "Allreduce twice", p.PointIndex+100
			twice = append(twice, p)
		}
	}
	a.Points = append(a.Points, twice...)
	c, err := Compare([]Labelled{{"a", a}, {"b", a}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tb := range c.Tables {
		if tb.Op == "Allreduce" {
			n++
			if tb.Key.Measurement == "" || tb.Rows[0].N1 != 3 {
				t.Errorf("%s: key %+v, %d runs", tb.Measurement, tb.Key, tb.Rows[0].N1)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d Allreduce tables, want 2", n)
	}
}

func TestCompareMissingAndFaults(t *testing.T) {
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
		default:
			pts = append(pts, p)
		}
	}
	extra := pts[0]
	extra.Op, extra.Measurement, extra.PointIndex = "Pingpong_Ssend_Recv", "only in b", 99
	b.Points = append(pts, extra)
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
	if only := c.Tables[2].Rows[0]; only.Base.State != SideMissing || only.Other.State != SideMeasured {
		t.Errorf("only in b: %+v", only)
	}
	tot := c.Totals[0]
	if tot.Rows != 10 || tot.Compared != 6 || tot.OnlyBase != 1 || tot.OnlyOther != 1 || tot.Faults != 1 {
		t.Errorf("totals %+v", tot)
	}
	var buf bytes.Buffer
	if err := WriteComparison(&buf, c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"missing", "fault: timeout", "no valid reps", "only in b (Pingpong_Ssend_Recv), 2 processes",
		"1 missing in b, 1 missing in a, 1 with faults", "6 not tested (too few runs a side)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
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
	if !errors.Is(err, ErrNothingInCommon) || !strings.Contains(err.Error(), "(2 vs 4 processes; e.g. op=Pingpong_Send_Recv msg_bytes=1 nprocs=2") {
		t.Errorf("np4: %v", err)
	}
	other := load(t, "pt2pt-b.jsonl")
	for i := range other.Points {
		other.Points[i].Op = "X"
	}
	_, err = Compare([]Labelled{{"a", a}, {"x", other}}, Options{})
	if err == nil || !strings.Contains(err.Error(), `no operation in common ("Pingpong_Send_Recv", "Bandwidth_Isend_Irecv" vs "X")`) {
		t.Errorf("ops: %v", err)
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
	if tot := c.Totals[0]; tot.Compared != 9 || tot.Untested != 9 {
		t.Errorf("sko: %+v", tot)
	}
}

func TestWriteComparison(t *testing.T) {
	aa := loadAA(t)
	ids := runIDs(aa)
	c, err := Compare([]Labelled{{"a", runs(aa, ids[:10], 1)}, {"b", runs(aa, ids[10:], 2)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteComparison(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"b vs a (baseline): each run is one sample; Mann-Whitney U test over the runs, p adjusted for the 20 rows tested (Benjamini-Hochberg: q), alpha 0.05\n",
		"\nPut, method flush, 2 processes\n",
		"n=10+10)",
		"total b vs a: 20 rows, 20 compared, 20 significantly different (0 better, 20 worse)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// The U test's floor: 2+2 runs can never be significant (p >= 0.33), 4+4 can (0.029);
// a row whose run counts cannot reach alpha is not tested, never "not significant".
func TestMinPAndUntestableRows(t *testing.T) {
	for _, c := range []struct {
		n1, n2 int
		p      float64
	}{{1, 1, 1}, {2, 2, 1.0 / 3}, {3, 3, 0.1}, {4, 4, 2.0 / 70}, {5, 5, 2.0 / 252}, {3, 5, 2.0 / 56}} {
		if got := MinP(c.n1, c.n2); math.Abs(got-c.p) > 1e-12 {
			t.Errorf("MinP(%d, %d) = %g, want %g", c.n1, c.n2, got, c.p)
		}
	}
	if RunsNeeded(0.05) != 4 || RunsNeeded(0.01) != 5 {
		t.Errorf("runs needed: %d at 0.05, %d at 0.01", RunsNeeded(0.05), RunsNeeded(0.01))
	}
	aa := loadAA(t)
	ids := runIDs(aa)
	// Three runs a side of a doubling: every row differs, none can be called so.
	c, err := Compare([]Labelled{{"a", runs(aa, ids[:3], 1)}, {"b", runs(aa, ids[3:6], 2)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tot := c.Totals[0]; tot.Tested != 0 || tot.Untested != 20 || tot.Significant != 0 {
		t.Errorf("3+3 runs: %+v", tot)
	}
	if g := (Gate{FailAbove: 0.05}).Check(c); len(g.Untestable) != 1 || len(g.Failed) != 0 {
		t.Errorf("3+3 runs: the gate must refuse to judge: %+v", g)
	}
	// Two others, one of which cannot be tested: the gate fails on it.
	c, err = Compare([]Labelled{{"a", runs(aa, ids[:5], 1)}, {"b", runs(aa, ids[5:10], 1)}, {"c", runs(aa, ids[10:11], 1)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g := (Gate{FailAbove: 0.05}).Check(c); len(g.Untestable) != 1 || g.Untestable[0] != "c" || !strings.Contains(g.Explanation, "no row of c vs a") {
		t.Errorf("one untestable other: %+v", g)
	}
}

// A setting one table of an operation has and another lacks names the first in its
// title, whatever the order of the tables.
func TestVaryingSettingsOrder(t *testing.T) {
	plain := Key{Setup: record.Setup{Op: "Isend", Timer: "global-loop"}}
	progress := Key{Setup: record.Setup{Op: "Isend", Timer: "global-loop", ProgressEvery: 4096}}
	for _, order := range [][]Key{{plain, progress}, {progress, plain}} {
		v := varyingSettings(order)
		if v[progress] != "progress_every=4096" || v[plain] != "" {
			t.Errorf("order %v: %q", order, v)
		}
	}
}
