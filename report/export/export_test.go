package export

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// load reads a file of report/testdata: two real runs of the pt2pt suite.
func load(t *testing.T, name string) *report.Results {
	t.Helper()
	res, err := report.Source{Label: name, Name: "../testdata/" + name}.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// twoRuns is pt2pt-a and pt2pt-b in one Results, a fault and a point without a valid
// repetition added to b.
func twoRuns(t *testing.T) *report.Results {
	res := load(t, "pt2pt-a.jsonl")
	b := load(t, "pt2pt-b.jsonl")
	p := b.Points[0]
	b.Faults = append(b.Faults, record.Fault{Kind: record.KindFault, RunID: p.RunID, PointIndex: 2, Measurement: p.Measurement,
		Op: p.Op, MsgBytes: 3, NProcs: 2, Fault: record.FaultCrash, Detail: "SIGSEGV\ntwice"})
	b.Points[1].Reps, b.Points[1].TimeS, b.Points[1].SamplesS = 0, 0, nil
	res.Merge(b)
	return res
}

func TestExportCSVAndSKO(t *testing.T) {
	res := twoRuns(t)
	var buf bytes.Buffer
	if err := Export(&buf, res, "csv"); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 1+len(res.Points) || strings.Join(rows[0], ",") != strings.Join(report.CSVHeader, ",") {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	if rows[1][0] != res.Runs[0].RunID || rows[len(rows)-1][0] != res.Runs[1].RunID {
		t.Error("rows not in run order")
	}
	buf.Reset()
	if err := Export(&buf, res, "sko"); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if n := strings.Count(text, "# SKaMPI-style output of skampi"); n != 2 {
		t.Errorf("%d run headers", n)
	}
	// Every block is closed before the next run's header.
	if i := strings.Index(text, "# SKaMPI-style output of skampi 24918a8"); i < 0 || !strings.HasSuffix(text[:i], "end result \"Bandwidth_Isend_Irecv\"\n\n") {
		t.Errorf("second run:\n%s", text)
	}
	back, err := report.ReadSKO(strings.NewReader(text), "two.sko")
	if err != nil || len(back.Points) != len(res.Points) || len(back.Faults) != 1 || len(back.Problems) != 0 {
		t.Errorf("read back: %v, %d points, faults %v, %v", err, len(back.Points), back.Faults, back.Problems)
	}
	if err := Export(&buf, res, "xml"); err == nil || !strings.Contains(err.Error(), "csv, sko, gobench") {
		t.Errorf("xml: %v", err)
	}
}

func TestGoBenchReadsWithBenchfmt(t *testing.T) {
	res := twoRuns(t)
	imported, err := report.ReadSKO(strings.NewReader("begin result \"ping-pong, blocking/x\"\ncount= 8 1.500 0.010 8 1.500 1.600\nend result \"ping-pong, blocking/x\"\n"), "i.sko")
	if err != nil {
		t.Fatal(err)
	}
	res.Merge(imported)
	var buf bytes.Buffer
	if err := WriteGoBench(&buf, res); err != nil {
		t.Fatal(err)
	}
	type key struct {
		name, library, suite string
	}
	lines := map[key]int{}
	var ns, mbs int
	r := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "out.txt")
	for r.Scan() {
		rec, ok := r.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("not a result: %v", r.Result())
		}
		base, parts := rec.Name.Parts()
		if len(parts) < 2 || !strings.HasPrefix(string(parts[0]), "/bytes=") || !strings.HasPrefix(string(parts[1]), "/procs=") || len(base) == 0 {
			t.Fatalf("name %s", rec.Name)
		}
		lines[key{rec.Name.String(), rec.GetConfig("mpi_library"), rec.GetConfig("suite")}]++
		if _, ok := rec.Value("sec/op"); ok {
			ns++
		}
		if _, ok := rec.Value("B/s"); ok {
			mbs++
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	// One line per repetition of every point with one; the imported point has its time.
	want, wantBW := 1, 0
	for _, p := range res.Points {
		want += len(p.SamplesS)
		if p.BandwidthBps != nil {
			wantBW += len(p.SamplesS)
		}
	}
	if ns != want || mbs != wantBW {
		t.Errorf("%d time values, want %d; %d bandwidths, want %d", ns, want, mbs, wantBW)
	}
	a := res.Points[0]
	if n := lines[key{"Pingpong_Send_Recv/bytes=1/procs=2/timer=global-loop/sync=barrier", "Open MPI v4.1.4", "pt2pt"}]; n != len(a.SamplesS)+len(res.Points[9].SamplesS) {
		t.Errorf("1 B: %d lines", n)
	}
	if n := lines[key{"ping-pong_blocking_x/bytes=8/procs=2", "", "i"}]; n != 1 {
		t.Errorf("imported point: %d lines (%v)", n, lines)
	}
	// The values are the samples, in benchstat's units.
	r = benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "out.txt")
	r.Scan()
	rec := r.Result().(*benchfmt.Result)
	if v, _ := rec.Value("sec/op"); math.Abs(v-a.SamplesS[0]) > 1e-9*a.SamplesS[0] || rec.Iters != a.Iterations {
		t.Errorf("first line %v iters %d, want %g iters %d", rec.Values, rec.Iters, a.SamplesS[0], a.Iterations)
	}
	out := buf.String()
	for _, want := range []string{
		"\n# run cb3feaa982186dd3: skampi f8594c2-dirty, 2 processes on vm, started 2026-11-22T02:50:32Z\nmpi_library: Open MPI v4.1.4\nmpi_version: 3.1\nsuite: pt2pt\n",
		"# fault crash: Pingpong_Send_Recv (Pingpong_Send_Recv), 3 bytes, 2 processes: SIGSEGV twice\n",
		"# no valid repetition: Pingpong_Send_Recv (Pingpong_Send_Recv), 256 bytes, 2 processes\n",
		"\nmpi_library:\nmpi_version:\nsuite: i\n", // the import knows no library: the keys are cleared
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// Bandwidth lines: bytes per operation / sample, in MB/s.
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "BenchmarkBandwidth_Isend_Irecv/") && !strings.HasSuffix(l, " MB/s") {
			t.Errorf("bandwidth line %q", l)
		}
	}
}

func TestBenchKey(t *testing.T) {
	for in, want := range map[string]string{"ping-pong, blocking": "ping-pong_blocking", " a / b\tc ": "a_b_c", "": "_", "x=1": "x=1"} {
		if got := benchKey(in); got != want {
			t.Errorf("benchKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// A run of one operation under three timing methods gives one benchmark per method and
// size, the method a key benchstat can make the columns (-col /method), and every
// setting the point records a key after it, in Setup's order.
func TestGoBenchKeepsTheMethod(t *testing.T) {
	res := load(t, "put-methods.jsonl")
	names := goBenchNames(t, res)
	methods := map[string]bool{}
	for name := range names {
		methods[nameKey(benchfmt.Name(name), "method")] = true
	}
	if len(names) != len(res.Points) || len(methods) != 3 || !methods["lock_all"] || !methods["lock"] || !methods["fence"] {
		t.Fatalf("%d names for %d points, methods %v", len(names), len(res.Points), methods)
	}
	for _, p := range res.Points {
		name := fmt.Sprintf("Put/method=%s/bytes=%d/procs=2/timer=global-loop/sync=barrier/window=64/recv_slots=shared/cache=warm/rma_window=allocate", p.Method, p.MsgBytes)
		if names[name] != len(p.SamplesS) {
			t.Errorf("%s: %d lines, want %d", name, names[name], len(p.SamplesS))
		}
	}
}

// A point's name does not depend on what else is exported: the window-64 points of a
// file that also holds a window-1 point (the onesided suite) are named as in a file of
// window 64 alone (a one-line run), so benchstat matches the two files.
func TestGoBenchNamesDependOnThePointAlone(t *testing.T) {
	both := load(t, "put-methods.jsonl")
	both.Points[0].Window = 1
	alone := load(t, "put-methods.jsonl")
	alone.Points = alone.Points[1:]
	a, b := goBenchNames(t, both), goBenchNames(t, alone)
	for name, n := range b {
		if a[name] != n {
			t.Errorf("%s: %d lines with window 1 beside it, %d without", name, a[name], n)
		}
	}
	if len(a) != len(b)+1 {
		t.Errorf("%d names, want %d", len(a), len(b)+1)
	}
	if p := both.Points[0]; a[fmt.Sprintf("Put/method=%s/bytes=%d/procs=2/timer=global-loop/sync=barrier/window=1/recv_slots=shared/cache=warm/rma_window=allocate", p.Method, p.MsgBytes)] != len(p.SamplesS) {
		t.Errorf("window 1 missing: %v", a)
	}
}

// A hold time is a plain decimal: "1e-06" would end a name in what benchfmt reads as
// GOMAXPROCS.
func TestGoBenchHoldTime(t *testing.T) {
	res := load(t, "put-methods.jsonl")
	h := 1e-6
	res.Points[0].HoldS = &h
	for name := range goBenchNames(t, res) {
		_, parts := benchfmt.Name(name).Parts()
		if last := string(parts[len(parts)-1]); strings.HasPrefix(last, "-") {
			t.Errorf("%s: GOMAXPROCS part %q", name, last)
		}
		if k := nameKey(benchfmt.Name(name), "hold_s"); k != "" && k != "0.000001" {
			t.Errorf("%s: hold_s=%s", name, k)
		}
	}
	if got := benchKey("ping-pong-2"); got != "ping-pong_2" {
		t.Errorf("benchKey(ping-pong-2) = %q", got)
	}
}

// Two measurements of one run that share a setup (what the record does not tell apart,
// e.g. barriers above 4 KiB or none) keep their names as a key, and only they: in every
// run of the export, as compare's keys, since which of the two another run's point
// matches is not known.
func TestGoBenchSharedSetupKeepsTheMeasurement(t *testing.T) {
	res := load(t, "put-methods.jsonl")
	p := res.Points[0]
	p.Measurement = "ordered, no barriers"
	p.PointIndex = 1000
	res.Points[0].Measurement = "ordered, barriers above 4 KiB"
	res.Points = append(res.Points, p)
	other := load(t, "put-methods.jsonl")
	for i := range other.Points {
		other.Points[i].RunID = "another-run"
		other.Points[i].Measurement = "Put, one line"
	}
	other.Runs[0].RunID = "another-run"
	res.Merge(other)
	var buf bytes.Buffer
	if err := WriteGoBench(&buf, res); err != nil {
		t.Fatal(err)
	}
	meas := map[string]int{}
	r := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "put.txt")
	for r.Scan() {
		rec, ok := r.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("not a result: %v", r.Result())
		}
		if m := nameKey(rec.Name, "measurement"); m != "" {
			if nameKey(rec.Name, "method") != p.Method || nameKey(rec.Name, "bytes") != fmt.Sprint(p.MsgBytes) {
				t.Errorf("%s: a measurement key on a setup no run measured twice", rec.Name)
			}
			meas[m]++
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	// Both points of the first run, and the second run's point of that setup.
	want := len(p.SamplesS)
	if meas["ordered_no_barriers"] != want || meas["ordered_barriers_above_4_KiB"] != want || meas["Put_one_line"] != want || len(meas) != 3 {
		t.Errorf("measurement keys %v, want %d lines each", meas, want)
	}
}

// goBenchNames counts the lines of each benchmark name (without "Benchmark") of res's
// export, read back with benchfmt.
func goBenchNames(t *testing.T, res *report.Results) map[string]int {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteGoBench(&buf, res); err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	r := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "put.txt")
	for r.Scan() {
		rec, ok := r.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("not a result: %v", r.Result())
		}
		names[rec.Name.String()]++
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}

// nameKey is the value of a sub-benchmark key of a name, "" without it.
func nameKey(n benchfmt.Name, key string) string {
	_, parts := n.Parts()
	for _, p := range parts {
		if k, v, ok := strings.Cut(strings.TrimPrefix(string(p), "/"), "="); ok && k == key {
			return v
		}
	}
	return ""
}

// `export old=a new=b --format csv`: merged, each row keeps its side's label and its
// run's start, so the file can be split and ordered again.
func TestWriteFileCSVLabels(t *testing.T) {
	var out, problems bytes.Buffer
	err := WriteFile(FileOptions{Sources: report.ParseSources([]string{"old=../testdata/pt2pt-a.jsonl", "new=../testdata/pt2pt-b.jsonl"}),
		Format: "csv", Stdout: &out, Stderr: &problems})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(rows) < 3 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	a, b := load(t, "pt2pt-a.jsonl"), load(t, "pt2pt-b.jsonl")
	want := map[string]string{a.Runs[0].RunID: "old", b.Runs[0].RunID: "new"}
	start := map[string]string{a.Runs[0].RunID: a.Runs[0].StartTime.UTC().Format(time.RFC3339Nano), b.Runs[0].RunID: b.Runs[0].StartTime.UTC().Format(time.RFC3339Nano)}
	seen := map[string]int{}
	for _, r := range rows[1:] {
		id := r[col["run_id"]]
		seen[r[col["label"]]]++
		if r[col["label"]] != want[id] || r[col["start_time"]] != start[id] || r[col["mpi_library"]] == "" || r[col["hosts"]] == "" {
			t.Errorf("run %s: label %q start %q library %q hosts %q", id, r[col["label"]], r[col["start_time"]], r[col["mpi_library"]], r[col["hosts"]])
		}
	}
	if seen["old"] != len(a.Points) || seen["new"] != len(b.Points) {
		t.Errorf("rows by label %v", seen)
	}
}
