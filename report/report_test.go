package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/record"
)

// load reads a testdata file; pt2pt-a and pt2pt-b are two real runs of the pt2pt suite
// on one machine, trimmed to 6 ping-pong and 3 bandwidth sizes.
func load(t *testing.T, name string) *Results {
	t.Helper()
	res, err := Source{Label: name, Name: "testdata/" + name}.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func samplePoints() (*record.Run, []*record.Point) {
	run := &record.Run{Kind: record.KindRun, RunID: "r1", SkampiVersion: "test", MPILibrary: "Open MPI v4.1.4",
		NProcs: 2, Hosts: []string{"n1"}, Suite: "s", Points: 3, StartTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	lat := 0.5e-6
	bw := 2.5e9
	pts := []*record.Point{
		{Kind: record.KindPoint, RunID: "r1", PointIndex: 1, Measurement: "pp", Op: "Pingpong_Send_Recv", MsgBytes: 1,
			NProcs: 2, Ranks: []int{0, 1}, TimeS: 1e-6, MeanS: 1.1e-6, StderrS: 1e-8, Reps: 8, LatencyS: &lat,
			RankTimeS: []float64{1e-6, 1.2e-6}, SamplesS: make([]float64, 8)},
		{Kind: record.KindPoint, RunID: "r1", PointIndex: 2, Measurement: "pp", Op: "Pingpong_Send_Recv", MsgBytes: 1024,
			NProcs: 2, Ranks: []int{0, 1}, TimeS: 2e-6, MeanS: 2e-6, Reps: 64, Flags: []string{record.FlagMaxReps},
			RankTimeS: []float64{2e-6, 2e-6}, SamplesS: make([]float64, 64)},
		{Kind: record.KindPoint, RunID: "r1", PointIndex: 3, Measurement: "bw, big", Op: "Bandwidth_Isend_Irecv",
			NProcs: 2, MsgBytes: 4 << 20, Ranks: []int{0, 1}, Window: 16, TimeS: 0.0268, MeanS: 0.0268, Reps: 8,
			BandwidthBps: &bw, SamplesS: make([]float64, 8)},
	}
	return run, pts
}

func feed(t *testing.T, s Sink) {
	t.Helper()
	run, pts := samplePoints()
	if err := s.Run(run); err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		if err := s.Point(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestJSONLRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	feed(t, NewJSONL(&buf))
	if n := strings.Count(buf.String(), "\n"); n != 4 {
		t.Fatalf("%d lines", n)
	}
	// Unknown fields (a newer writer) are ignored.
	text := strings.Replace(buf.String(), `"kind":"point"`, `"kind":"point","future_field":[1,2]`, 1)
	res, err := ReadJSONL(strings.NewReader(text), "x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 1 || len(res.Points) != 3 || res.Runs[0].StartTime.Year() != 2026 {
		t.Fatalf("%+v", res)
	}
	p := res.Points[0]
	if *p.LatencyS != 0.5e-6 || p.RankTimeS[1] != 1.2e-6 || p.BandwidthBps != nil || res.Points[2].Window != 16 {
		t.Errorf("%+v", p)
	}
	if !strings.Contains(buf.String(), `"msg_bytes":1024`) || !strings.Contains(buf.String(), `"bandwidth_Bps":2500000000`) {
		t.Errorf("field names: %s", buf.String())
	}
}

func TestReadProblems(t *testing.T) {
	run := `{"kind":"run","run_id":"r1","skampi_version":"v","nprocs":2,"start_time":"2026-01-02T03:04:05Z"}`
	point := func(idx int, extra string) string {
		return fmt.Sprintf(`{"kind":"point","run_id":"r1","point_index":%d,"measurement":"m","op":"Pingpong_Send_Recv","msg_bytes":8,"nprocs":2,"time_s":1e-6,"stderr_s":0,"reps":1,"samples_s":[1e-6],"min_s":1e-6,"median_s":1e-6,"max_s":1e-6,"stop":"converged"%s}`, idx, extra)
	}
	cases := []struct {
		name, text string
		want       []string // problems, in order
		points     int
	}{
		{"clean", run + "\n" + point(1, "") + "\n", nil, 1},
		{"torn last line", run + "\n" + point(1, "") + "\n" + point(2, "")[:40], []string{"x:3: warning: torn last record"}, 1},
		{"bad line inside", run + "\n{oops\n" + point(1, "") + "\n", []string{"x:2: warning: not a skampi record (a line torn"}, 1},
		{"torn line inside", run + "\n" + point(1, "")[:50] + "\n" + point(2, "") + "\n", []string{"x:2: warning: not a skampi record"}, 1},
		{"unknown kind", run + "\n" + `{"kind":"histogram","run_id":"r1"}` + "\n", []string{`x:2: warning: unknown record kind "histogram", ignored`}, 0},
		{"no kind", run + "\n" + `{"run_id":"r1"}` + "\n", []string{`x:2: warning: not a skampi record`}, 0},
		{"negative time", run + "\n" + point(1, `,"time_s":-1e-6`) + "\n", []string{"x:2: error: point record has a negative time_s (-1e-06) without"}, 0},
		{"negative time flagged", run + "\n" + point(1, `,"time_s":-1e-6,"flags":["negative_after_subtraction"]`) + "\n", nil, 1},
		{"null time", run + "\n" + point(1, `,"time_s":null`) + "\n", []string{"x:2: error: point record has null for time_s: a value is needed"}, 0},
		{"unknown op", run + "\n" + point(1, `,"op":"Pingpong_Telepathy"`) + "\n", []string{`x:2: error: op "Pingpong_Telepathy" is not an operation`}, 1},
		{"p10 above max", run + "\n" + point(1, `,"p10_s":3e-6`) + "\n", []string{"x:2: error: point record statistics are out of order: p10_s 3e-06 > median_s 1e-06"}, 0},
		{"missing fields", run + "\n" + `{"kind":"point","run_id":"r1","point_index":1}` + "\n",
			[]string{"x:2: error: point record lacks measurement, msg_bytes, nprocs, op, reps, stderr_s, stop, time_s"}, 0},
		{"orphan point", point(1, "") + "\n", []string{`x:1: error: run_id "r1" has no run record before it`}, 0},
		{"duplicate index", run + "\n" + point(1, "") + "\n" + point(1, "") + "\n", []string{"x:3: error: point_index 1 of run r1 already recorded on line 2"}, 1},
		{"samples vs reps", run + "\n" + point(1, `,"reps":3`) + "\n", []string{"x:2: error: point record has 1 samples for 3 repetitions"}, 0},
		{"stats out of order", run + "\n" + point(1, `,"min_s":2e-6`) + "\n", []string{"x:2: error: point record statistics are out of order"}, 0},
		{"bad fault", run + "\n" + `{"kind":"fault","run_id":"r1","point_index":1,"measurement":"m","op":"o","msg_bytes":1,"nprocs":2,"fault":"meltdown"}` + "\n",
			[]string{`x:2: error: unknown fault "meltdown"`}, 0},
		{"wrong type", run + "\n" + point(1, `,"msg_bytes":"eight"`) + "\n", []string{"x:2: error: point record: msg_bytes is a string; it must be a whole number"}, 0},
	}
	for _, c := range cases {
		res, err := Read(strings.NewReader(c.text), "x")
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Problems) != len(c.want) || len(res.Points) != c.points {
			t.Errorf("%s: %d points, problems %v; want %d, %v", c.name, len(res.Points), res.Problems, c.points, c.want)
			continue
		}
		for i, p := range res.Problems {
			if !strings.HasPrefix(p.String(), c.want[i]) {
				t.Errorf("%s: %q, want prefix %q", c.name, p.String(), c.want[i])
			}
		}
	}
	if _, err := ReadJSONL(strings.NewReader(point(1, "")+"\n"), "x"); err == nil {
		t.Error("ReadJSONL accepted an orphan point")
	}
}

func TestCSV(t *testing.T) {
	var buf bytes.Buffer
	feed(t, NewCSV(&buf, true))
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 4 {
		t.Fatalf("%d rows %v", len(rows), err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if rows[1][col["latency_s"]] != "5e-07" || rows[1][col["bandwidth_Bps"]] != "" || rows[2][col["flags"]] != "max_repetitions" ||
		rows[3][col["measurement"]] != "bw, big" || rows[3][col["ranks"]] != "0;1" || rows[3][col["msg_bytes"]] != "4194304" {
		t.Errorf("rows %v", rows)
	}
	buf.Reset()
	feed(t, NewCSV(&buf, false))
	if strings.Contains(buf.String(), "run_id,") {
		t.Error("header written when appending")
	}
}

func TestSKO(t *testing.T) {
	var buf bytes.Buffer
	feed(t, NewSKO(&buf))
	want := `begin result "pp"
# op Pingpong_Send_Recv, times in microseconds
count=        1        1.000      0.010      8        1.000        1.200
count=     1024        2.000      0.000     64        2.000        2.000  # max_repetitions
end result "pp"

begin result "bw, big"
# op Bandwidth_Isend_Irecv, times in microseconds
# setup measurement="bw, big" window=16
count=  4194304    26800.000      0.000      8
end result "bw, big"
`
	if got := buf.String(); !strings.HasSuffix(got, want) || !strings.HasPrefix(got, "# SKaMPI-style output of skampi test\n") {
		t.Errorf("got:\n%s", got)
	}
}

func TestTable(t *testing.T) {
	var buf bytes.Buffer
	feed(t, NewTable(&buf))
	got := buf.String()
	// One unit per column: bytes, microseconds, MB/s. A ping-pong shows its one-way
	// latency (OSU's number) first, the round trip beside it; other operations their time.
	for _, want := range []string{"2 processes on 1 host |", "one-way [us] round trip [us]  stderr", "rate [MB/s]",
		"[1/3]          1     2                 0.500           1.000    1.0%      8         2.00", "max_repetitions", "reps 1-way [MB/s]  flags",
		"method    time [us]  stderr   reps rate [MB/s]",
		"[3/3]    4194304     2             26800.000    0.0%      8     2500.00", "\nbw, big (Bandwidth_Isend_Irecv, ranks 0,1)\n  window=16\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	// The second ping-pong point has no latency_s: nothing is made up, the round trip is there.
	if !strings.Contains(got, "[2/3]       1024     2                     -           2.000") {
		t.Errorf("a ping-pong point without latency_s:\n%s", got)
	}
}

// A run under several timing methods: the heading gives the settings once, every line
// its method.
func TestTableMethods(t *testing.T) {
	res := load(t, "put-methods.jsonl")
	var buf bytes.Buffer
	tab := NewTable(&buf)
	tab.Run(&res.Runs[0])
	for i := range res.Points {
		tab.Point(&res.Points[i])
	}
	got := buf.String()
	if !strings.Contains(got, "\nPut (Put, ranks 0,1)\n  timer=global-loop sync=barrier window=64 recv_slots=shared cache=warm rma_window=allocate\n") ||
		strings.Count(got, " lock_all ") != 2 || strings.Count(got, " fence ") != 2 || strings.Count(got, " lock ") != 2 {
		t.Errorf("table:\n%s", got)
	}
}

func TestFormat(t *testing.T) {
	for s, want := range map[float64]string{0: "0", 5e-10: "0.5 ns", 1.5e-6: "1.500 µs", 0.02: "20.000 ms", 3: "3.000 s"} {
		if got := Seconds(s); got != want {
			t.Errorf("Seconds(%g) = %q, want %q", s, got, want)
		}
	}
	for n, want := range map[int64]string{1: "1 B", 1536: "1536 B", 4096: "4 KiB", 3 << 30: "3 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
	if Rate(1.5e6) != "1.50 MB/s" || Rate(12) != "12 B/s" {
		t.Error(Rate(1.5e6), Rate(12))
	}
}

func TestSourcesAndMerge(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	feed(t, NewJSONL(&buf))
	a := dir + "/a.jsonl"
	os.WriteFile(a, buf.Bytes(), 0o644)
	srcs := ParseSources([]string{"openmpi=" + a, a})
	if srcs[0].Label != "openmpi" || srcs[0].Name != a || srcs[1].Label != dir+"/a" {
		t.Errorf("sources %+v", srcs)
	}
	if s := ParseSources(nil); len(s) != 1 || s[0].Name != "-" {
		t.Errorf("no args: %+v", s)
	}
	// The same run twice (a copy) merges into one.
	all, err := LoadAll(srcs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Runs) != 1 || len(all.Points) != 3 {
		t.Errorf("merged %d runs %d points", len(all.Runs), len(all.Points))
	}
	if run, ok := all.Run("r1"); !ok || run.NProcs != 2 {
		t.Errorf("run lookup %v %v", run, ok)
	}
	fromStdin, err := LoadAll(ParseSources([]string{"-"}), bytes.NewReader(buf.Bytes()))
	if err != nil || len(fromStdin.Points) != 3 {
		t.Errorf("stdin: %v %v", fromStdin, err)
	}
	os.WriteFile(dir+"/bad.jsonl", []byte(`{"kind":"point","run_id":"zz"}`+"\n"), 0o644)
	// A record that breaks the schema is left out and listed; it does not refuse the file.
	bad, err := LoadAll(ParseSources([]string{dir + "/bad.jsonl"}), nil)
	if err != nil || len(bad.Problems) != 1 || !strings.Contains(bad.Problems[0].String(), "bad.jsonl:1: error: point record lacks") {
		t.Errorf("bad file: %v %v", err, bad)
	}
}

// endless repeats its text forever, like /dev/zero or `yes`.
type endless struct{ text string }

func (e endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = e.text[i%len(e.text)]
	}
	return len(b) - len(b)%len(e.text), nil
}

// An endless input ends in an error naming the source, within the limits: it never
// grows memory until the process dies.
func TestEndlessInputIsBounded(t *testing.T) {
	maxBytes, maxLines := MaxSourceBytes, MaxSourceLines
	MaxSourceBytes, MaxSourceLines = 64<<20, 100_000
	defer func() { MaxSourceBytes, MaxSourceLines = maxBytes, maxLines }()
	for _, c := range []struct{ text, want string }{
		{"\x00", "more than 64 MiB of input"},
		{"{}\n", "not a result file"},
		{`{"kind":"note"}` + "\n", "more than 100000 lines"},
	} {
		for name, read := range map[string]func(io.Reader, string) (*Results, error){"Read": Read, "ReadSKO": ReadSKO} {
			_, err := read(endless{c.text}, "/dev/zero")
			var p *Problem
			if !errors.As(err, &p) || !strings.HasPrefix(err.Error(), "/dev/zero:") {
				t.Errorf("%s %q: %v", name, c.text, err)
			}
			if name == "Read" && !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %q: %v, want %q", name, c.text, err, c.want)
			}
		}
	}
}

// A non-blocking operation's points show their breakdown: full, post, wait, the time
// not hidden and the overlap ratio, in microseconds and percent.
func TestTableBreakdown(t *testing.T) {
	var buf bytes.Buffer
	tab := NewTable(&buf)
	p := &record.Point{Kind: record.KindPoint, PointIndex: 1, Measurement: "isend", Op: "Isend", MsgBytes: 65536, NProcs: 2,
		Ranks: []int{0, 1}, TimeS: 8e-6, MeanS: 8e-6, StderrS: 8e-8, Reps: 9, Flags: []string{record.FlagRatioClamped},
		Breakdown: &record.Breakdown{FullS: 8e-6, PostS: 1e-7, WaitS: 7.9e-6, OverlappedS: 2e-6, OverlapRatio: 0.75}}
	if err := tab.Point(p); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{"full [us]  stderr   post [us]   wait [us] not hidden [us]  overlap",
		"[1/0]      65536     2        8.000    1.0%       0.100       7.900           2.000      75%      9  overlap_ratio_clamped"} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
}

// A breakdown's fields are columns of their own, empty for other operations.
func TestCSVBreakdown(t *testing.T) {
	var buf bytes.Buffer
	c := NewCSV(&buf, true)
	if err := c.Run(&record.Run{Kind: record.KindRun, RunID: "r"}); err != nil {
		t.Fatal(err)
	}
	for _, b := range []*record.Breakdown{{FullS: 8e-6, PostS: 1e-7, WaitS: 7.9e-6, OverlappedS: 2e-6, ComputeS: 1.6e-5,
		OverlapRatio: 0.75, OverlapRatioStderr: 0.05, ProgressEvery: 4096}, nil} {
		if err := c.Point(&record.Point{Kind: record.KindPoint, RunID: "r", Op: "Isend", TimeS: 8e-6, Breakdown: b}); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows %v", len(rows), err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if rows[1][col["post_s"]] != "1e-07" || rows[1][col["overlapped_s"]] != "2e-06" || rows[1][col["overlap_ratio"]] != "0.75" ||
		rows[1][col["progress_every"]] != "4096" || rows[2][col["post_s"]] != "" || len(rows[2]) != len(CSVHeader) {
		t.Errorf("rows %v", rows)
	}
}

// Every field of a point's setup is a column of its own, under its record name, with
// the record's value: a run under three timing methods gives rows that tell them apart.
// The columns files written before them had keep their places.
func TestCSVSetupColumns(t *testing.T) {
	res, err := Source{Name: "testdata/put-methods.jsonl"}.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	hold := 1.5e-6
	res.Points[0].HoldS = &hold // a setting Put has not, to see its column filled
	var buf bytes.Buffer
	c := NewCSV(&buf, true)
	c.Run(&res.Runs[0])
	for i := range res.Points {
		if err := c.Point(&res.Points[i]); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(rows) != 1+len(res.Points) {
		t.Fatalf("%d rows %v", len(rows), err)
	}
	if strings.Join(rows[0][:32], ",") != "run_id,point_index,measurement,op,msg_bytes,nprocs,ranks,timer,sync,window,iterations,time_s,"+
		"mean_s,median_s,min_s,p10_s,p90_s,max_s,stderr_s,latency_s,bandwidth_Bps,reps,discarded,stop,flags,"+
		"post_s,wait_s,overlapped_s,compute_s,overlap_ratio,overlap_ratio_stderr,progress_every" {
		t.Errorf("the older columns moved: %v", rows[0])
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	keys := map[string]bool{}
	for i, p := range res.Points {
		fields := p.Setup().Fields()
		for _, f := range fields {
			j, ok := col[f.Name]
			if !ok {
				t.Fatalf("no column %s", f.Name)
			}
			if rows[1+i][j] != f.Value {
				t.Errorf("row %d: %s is %q, want %q", 1+i, f.Name, rows[1+i][j], f.Value)
			}
		}
		keys[fmt.Sprint(fields)] = true
	}
	if rows[1][col["hold_s"]] != "1.5e-06" || rows[1][col["method"]] != "lock_all" || len(keys) != len(res.Points) {
		t.Errorf("hold_s %q, method %q, %d setups", rows[1][col["hold_s"]], rows[1][col["method"]], len(keys))
	}
}

// OSU's -f and -z: columns over each point's repetitions, of the one-way time for a
// ping-pong (the first column's), of the time otherwise; no samples, no numbers.
func TestTableFullAndPercentiles(t *testing.T) {
	run, pts := samplePoints()
	pts[0].SamplesS = []float64{4e-6, 1e-6, 2e-6, 3e-6, 5e-6} // round trips
	pts[2].SamplesS = []float64{0.02, 0.03}
	pts[1].SamplesS = nil
	var buf bytes.Buffer
	tab := NewTableWith(&buf, TableOptions{Full: true, Percentiles: true})
	if err := tab.Run(run); err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		if err := tab.Point(p); err != nil {
			t.Fatal(err)
		}
	}
	got := buf.String()
	for _, want := range []string{
		"1-way [MB/s]     min 1w     max 1w    mean 1w     p50 1w     p90 1w     p99 1w  flags",
		// one-way: half of 1..5 µs; p90 of 5 samples interpolates 4.6 µs round trip
		"     0.500      2.500      1.500      1.500      2.300      2.480",
		"  min [us]   max [us]  mean [us]   p50 [us]   p90 [us]   p99 [us]  flags",
		" 20000.000  30000.000  25000.000  25000.000  29000.000  29900.000",
		"          -          -          -          -          -          -  max_repetitions",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	// Without the options the table is as before.
	buf.Reset()
	feed(t, NewTable(&buf))
	if strings.Contains(buf.String(), "min") || strings.Contains(buf.String(), "p50") {
		t.Errorf("plain table with added columns:\n%s", buf.String())
	}
}
