package report

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/record"
)

// Our writer prints times in µs with 3 decimals: a value read back is within half of
// the last digit.
const skoPrecision = 0.0005e-6

func TestSKORoundTrip(t *testing.T) {
	src := load(t, "pt2pt-a.jsonl")
	fault := record.Fault{Kind: record.KindFault, RunID: src.Runs[0].RunID, PointIndex: 999, Measurement: "Pingpong_Send_Recv",
		Op: "Pingpong_Send_Recv", MsgBytes: 8 << 20, NProcs: 2, Fault: record.FaultTimeout, Detail: "no progress for 25s"}
	var buf bytes.Buffer
	s := NewSKO(&buf)
	s.Run(&src.Runs[0])
	for i := range src.Points {
		s.Point(&src.Points[i])
		if i == 5 { // after the last ping-pong point, inside its block
			s.Fault(&fault)
		}
	}
	s.Close()
	got, err := ReadSKO(bytes.NewReader(buf.Bytes()), "dir/pt2pt-a.sko")
	if err != nil || len(got.Problems) > 0 {
		t.Fatal(err, got.Problems)
	}
	run := got.Runs[0]
	want := src.Runs[0]
	if run.SkampiVersion != SKOImportVersion || run.Suite != "pt2pt-a" || run.SuiteSource != "dir/pt2pt-a.sko" ||
		run.MPILibrary != want.MPILibrary || run.NProcs != 2 || run.Timer != want.Timer || run.TimerResolution != want.TimerResolution ||
		run.SuiteSHA256 != want.SuiteSHA256 || !run.StartTime.Equal(want.StartTime.Truncate(time.Second)) ||
		!strings.HasPrefix(run.RunID, "sko-") || run.Points != 10 {
		t.Errorf("run %+v", run)
	}
	if len(got.Points) != len(src.Points) {
		t.Fatalf("%d points, want %d", len(got.Points), len(src.Points))
	}
	for i, p := range got.Points {
		w := src.Points[i]
		if p.RunID != run.RunID || p.PointIndex != i+1 || p.Measurement != w.Measurement || p.Op != w.Op || p.Family != w.Family ||
			p.MsgBytes != w.MsgBytes || p.NProcs != w.NProcs || p.Reps != w.Reps || !slices.Equal(p.Flags, w.Flags) ||
			p.Stop != SKOImportStop || len(p.SamplesS) != 0 || len(p.RankTimeS) != len(w.RankTimeS) {
			t.Errorf("point %d: %+v\nwant %+v", i, p, w)
			continue
		}
		if math.Abs(p.TimeS-w.TimeS) > skoPrecision || math.Abs(p.StderrS-w.StderrS) > skoPrecision {
			t.Errorf("point %d: time %g ± %g, want %g ± %g", i, p.TimeS, p.StderrS, w.TimeS, w.StderrS)
		}
		for j := range p.RankTimeS {
			if math.Abs(p.RankTimeS[j]-w.RankTimeS[j]) > skoPrecision {
				t.Errorf("point %d rank %d: %g, want %g", i, j, p.RankTimeS[j], w.RankTimeS[j])
			}
		}
		if (p.LatencyS != nil) != (w.LatencyS != nil) || p.LatencyS != nil && math.Abs(*p.LatencyS-*w.LatencyS) > skoPrecision {
			t.Errorf("point %d: latency %v, want %v", i, p.LatencyS, w.LatencyS)
		}
	}
	if len(got.Faults) != 1 {
		t.Fatalf("faults %+v", got.Faults)
	}
	f := got.Faults[0]
	if f.Measurement != fault.Measurement || f.Op != fault.Op || f.MsgBytes != fault.MsgBytes || f.Fault != fault.Fault ||
		f.Detail != fault.Detail || f.NProcs != 2 || f.RunID != run.RunID || f.PointIndex != 10 || f.MeasurementIndex != 0 {
		t.Errorf("fault %+v", f)
	}
	// The same bytes under the same name are the same run; other content is another.
	again, _ := ReadSKO(bytes.NewReader(buf.Bytes()), "elsewhere/pt2pt-a.sko")
	other, _ := ReadSKO(strings.NewReader(buf.String()+"\n# more\n"), "dir/pt2pt-a.sko")
	if again.Runs[0].RunID != run.RunID || other.Runs[0].RunID == run.RunID {
		t.Errorf("run ids %s %s %s", run.RunID, again.Runs[0].RunID, other.Runs[0].RunID)
	}
}

// testdata/cskampi.sko is written as the C SKaMPI 5 prints (output.c, parser.y):
// "# begin result", loop variables as "NAME= VALUE", then "%8d %9.1f %9.1f %8d" (message
// size, time and standard error in µs, repetitions) and " %9.1f" per process or "---".
func TestReadCSKaMPI(t *testing.T) {
	res, err := Source{Name: "testdata/cskampi.sko"}.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	run := res.Runs[0]
	if run.Suite != "cskampi" || run.NProcs != 4 || run.SkampiVersion != SKOImportVersion ||
		!run.StartTime.Equal(time.Date(2011, 3, 15, 10, 34, 54, 0, time.UTC)) {
		t.Errorf("run %+v", run)
	}
	type pt struct {
		measurement, op string
		bytes           int64
		nprocs          int
		timeUS, errUS   float64
		reps            int
		ranks           []int
		rankUS          []float64
	}
	want := []pt{
		{"Pingpong_Send_Recv", "Pingpong_Send_Recv", 4, 2, 6.0, 0.1, 160, []int{0, 1}, []float64{5.7, 6.0}},
		{"Pingpong_Send_Recv", "Pingpong_Send_Recv", 8, 2, 6.1, 0, 80, []int{0, 1}, []float64{6.1, 6.0}},
		{"Pingpong_Send_Recv", "Pingpong_Send_Recv", 16, 2, 6.3, 0.2, 80, []int{0, 1}, []float64{6.2, 6.3}},
		{"Pingpong_Send_Recv", "Pingpong_Send_Recv", 32, 2, 7.0, 0.1, 80, nil, nil}, // no process times
		{"MPI_Bcast-nodes-length", "MPI_Bcast-nodes-length", 4, 2, 6.6, 0.1, 54, []int{0, 1}, []float64{3.1, 6.6}},
		{"MPI_Bcast-nodes-length", "MPI_Bcast-nodes-length", 4, 3, 8.0, 0.2, 54, []int{0, 1, 2}, []float64{3.0, 7.9, 8.0}},
		{"MPI_Bcast-nodes-length", "MPI_Bcast-nodes-length", 4, 4, 9.5, 0.1, 54, []int{0, 2, 3}, []float64{3.2, 9.5, 9.4}},
		// The size is constant, iterations varies: it joins the name.
		{"Pingpong_Send_Recv-iterations iterations=1", "Pingpong_Send_Recv-iterations", 4, 2, 6.0, 0, 160, []int{0, 1}, []float64{5.7, 5.7}},
		{"Pingpong_Send_Recv-iterations iterations=2", "Pingpong_Send_Recv-iterations", 4, 2, 4.5, 0, 80, []int{0, 1}, []float64{4.5, 4.4}},
	}
	if len(res.Points) != len(want) {
		t.Fatalf("%d points, want %d", len(res.Points), len(want))
	}
	eq := func(a, b float64) bool { return math.Abs(a-b) < 1e-15 }
	for i, p := range res.Points {
		w := want[i]
		ok := p.Measurement == w.measurement && p.Op == w.op && p.MsgBytes == w.bytes && p.NProcs == w.nprocs &&
			eq(p.TimeS, w.timeUS*1e-6) && eq(p.StderrS, w.errUS*1e-6) && p.Reps == w.reps && slices.Equal(p.Ranks, w.ranks) &&
			len(p.RankTimeS) == len(w.rankUS) && len(p.SamplesS) == 0
		for j := range p.RankTimeS {
			ok = ok && eq(p.RankTimeS[j], w.rankUS[j]*1e-6)
		}
		if !ok {
			t.Errorf("point %d: %+v\nwant %+v", i, p, w)
		}
	}
	if p := res.Points[0]; p.Family != "pt2pt" || p.LatencyS == nil || !eq(*p.LatencyS, 3e-6) {
		t.Errorf("a known op gets its family and latency: %+v", p)
	}
	if len(res.Problems) != 1 || res.Problems[0].String() != `testdata/cskampi.sko:24: warning: data line not understood ("not" is not a number), skipped` {
		t.Errorf("problems %v", res.Problems)
	}
}

func TestReadSKOProblems(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"no block", "# just a comment\n", `x.sko:1: error: not a result file: no "begin result" block, so not a SKaMPI .sko file`},
		{"outside", "count= 1 4 1.0 0.1 8\nbegin result \"a\"\nend result \"a\"\n", "x.sko:1: warning: data outside a begin/end result block"},
		{"cut short", "begin result \"a\"\ncount= 1 4 1.0 0.1 8\n", `x.sko:3: warning: result "a" has no end line`},
		{"mismatch", "begin result \"a\"\nend result \"b\"\n", `x.sko:2: warning: result "a" ends as "b"`},
		{"nested", "begin result \"a\"\nbegin result \"b\"\nend result \"b\"\n", `x.sko:2: warning: result "b" begins before "a" ends`},
		{"short line", "begin result \"a\"\ncount= 1 4 1.0\nend result \"a\"\n", "x.sko:2: warning: data line not understood"},
		{"bad reps", "begin result \"a\"\ncount= 1 4 1.0 0.5 2.5\nend result \"a\"\n", "x.sko:2: warning: negative or fractional"},
	}
	for _, c := range cases {
		res, err := ReadSKO(strings.NewReader(c.text), "x.sko")
		if err != nil {
			res.Problems = append(res.Problems, *err.(*Problem))
			err = nil
		}
		if len(res.Problems) != 1 || !strings.HasPrefix(res.Problems[0].String(), c.want) {
			t.Errorf("%s: %v %v, want %q", c.name, err, res.Problems, c.want)
		}
	}
	// A line cut short keeps the points before it.
	res, _ := ReadSKO(strings.NewReader("begin result \"a\"\ncount= 1 4 1.0 0.1 8 1.0 1.0\n"), "x.sko")
	if len(res.Points) != 1 {
		t.Errorf("%d points", len(res.Points))
	}
}

func TestLoadDetectsSKO(t *testing.T) {
	dir := t.TempDir()
	sko := "# made by hand\nbegin result \"pp\"\ncount= 8 1.500 0.010 8 1.500 1.600\nend result \"pp\"\n"
	files := map[string]string{
		"a.sko":    sko,
		"b.txt":    sko,                                            // by content: a comment first
		"c.data":   "\n  begin result \"pp\"\nend result \"pp\"\n", // by content: a block first
		"d.jsonl":  "# not JSON\n",                                 // content wins over a .jsonl name
		"e.SKO":    sko,
		"f.result": `{"kind":"run","run_id":"r","skampi_version":"v","nprocs":2,"start_time":"2026-01-02T03:04:05Z"}` + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, imported := range map[string]bool{"a.sko": true, "b.txt": true, "c.data": true, "e.SKO": true, "f.result": false} {
		res, err := Source{Name: filepath.Join(dir, name)}.Load(nil)
		if err != nil || len(res.Runs) != 1 || (res.Runs[0].SkampiVersion == SKOImportVersion) != imported {
			t.Errorf("%s: %v %+v", name, err, res)
		}
	}
	if _, err := (Source{Name: filepath.Join(dir, "d.jsonl")}).Load(nil); err == nil || !strings.Contains(err.Error(), "not a SKaMPI .sko file") {
		t.Errorf("d.jsonl: %v", err)
	}
	res, err := Source{Name: "-"}.Load(strings.NewReader(sko))
	if err != nil || len(res.Points) != 1 || res.Points[0].MsgBytes != 8 || res.Runs[0].Suite != "stdin" {
		t.Errorf("stdin: %v %+v", err, res)
	}
	// Sources mix: a .sko file and JSONL merge as two runs.
	all, err := LoadAll([]Source{{Name: filepath.Join(dir, "a.sko")}, {Name: "testdata/pt2pt-a.jsonl"}}, nil)
	if err != nil || len(all.Runs) != 2 || len(all.Points) != 10 {
		t.Errorf("mixed: %v %d runs %d points", err, len(all.Runs), len(all.Points))
	}
}

func TestSKOFaultPlacement(t *testing.T) {
	// skampi writes a fault where it happens: often inside the block before its own.
	text := `# SKaMPI-style output of skampi v
# Open MPI, 2 processes on 1 host(s)
begin result "a"
# op Pingpong_Send_Recv, times in microseconds
count=        1        1.000      0.010      8        1.000        1.200
# denied: Pingpong_Ssend_Recv, 1 bytes: on the deny-list
# timeout: Pingpong_Send_Recv, 2 bytes: blocked
end result "a"
begin result "b"
# op Pingpong_Ssend_Recv, times in microseconds
count=        2        1.000      0.010      8        1.000        1.200
end result "b"
# crash: Unknown_Op, 4 bytes: died twice
`
	res, err := ReadSKO(strings.NewReader(text), "f.sko")
	if err != nil || len(res.Faults) != 3 || len(res.Problems) != 0 {
		t.Fatal(err, res.Faults, res.Problems)
	}
	for i, want := range []struct {
		measurement string
		index       int
	}{{"b", 1}, {"a", 0}, {"Unknown_Op", 2}} {
		if f := res.Faults[i]; f.Measurement != want.measurement || f.MeasurementIndex != want.index || f.NProcs != 2 {
			t.Errorf("fault %d: %+v, want %v", i, f, want)
		}
	}
}

// A one-character result name is shorter than "begin result ": it once sliced past the
// end of an end line.
func TestSKOShortName(t *testing.T) {
	for _, text := range []string{"begin result a\nend result a\n", "# begin result \"a\"\n# end result b\n", "end result x\n"} {
		res, err := ReadSKO(strings.NewReader(text), "x.sko")
		if err != nil && !strings.Contains(err.Error(), "not a SKaMPI .sko file") {
			t.Errorf("%q: %v", text, err)
		}
		if err == nil && len(res.Runs) != 1 {
			t.Errorf("%q: %+v", text, res)
		}
	}
}

// A measurement under several timing methods, measured size by size in turn, is one
// block per method, each named by it; read back, the points have their measurement's
// name and index, method and settings again, and a fault its method.
func TestSKOBlockPerMethod(t *testing.T) {
	src := load(t, "put-methods.jsonl")
	var buf bytes.Buffer
	s := NewSKO(&buf)
	s.Run(&src.Runs[0])
	for i := range src.Points {
		if err := s.Point(&src.Points[i]); err != nil {
			t.Fatal(err)
		}
	}
	fault := record.Fault{Kind: record.KindFault, RunID: src.Runs[0].RunID, PointIndex: 7, Measurement: "Put",
		Op: "Put", Method: "fence", MsgBytes: 512, NProcs: 2, Fault: record.FaultTimeout, Detail: "no progress"}
	s.Fault(&fault)
	s.Close()
	text := buf.String()
	for _, m := range []string{"lock_all", "lock", "fence"} {
		name := `"Put method=` + m + `"`
		if strings.Count(text, "begin result "+name+"\n") != 1 || strings.Count(text, "end result "+name+"\n") != 1 {
			t.Errorf("not one block %s:\n%s", name, text)
		}
	}
	if !strings.Contains(text, "# timeout: Put method=fence, 512 bytes: no progress\n") {
		t.Errorf("fault:\n%s", text)
	}
	got, err := ReadSKO(strings.NewReader(text), "put.sko")
	if err != nil || len(got.Problems) > 0 || len(got.Points) != len(src.Points) {
		t.Fatal(err, got.Problems, len(got.Points))
	}
	byKey := map[string]record.Point{}
	for _, p := range got.Points {
		byKey[fmt.Sprint(p.Setup().Fields())] = p
	}
	for _, w := range src.Points {
		p, ok := byKey[fmt.Sprint(w.Setup().Fields())]
		if !ok {
			t.Errorf("no point with the setup %v", w.Setup().Fields())
			continue
		}
		if p.Measurement != "Put" || p.MeasurementIndex != 0 || math.Abs(p.TimeS-w.TimeS) > skoPrecision {
			t.Errorf("%s %d B: %q index %d, %g s (want %g)", w.Method, w.MsgBytes, p.Measurement, p.MeasurementIndex, p.TimeS, w.TimeS)
		}
	}
	if len(got.Faults) != 1 || got.Faults[0].Method != "fence" || got.Faults[0].Measurement != "Put" {
		t.Errorf("faults %+v", got.Faults)
	}
}

// Every field of a point's setup survives a .sko: the setup line holds the method and
// settings, and a non-blocking point's breakdown (where progress_every lives) follows
// its data line; the time comes back unrounded from the breakdown's full_s.
func TestSKOSetupRoundTrip(t *testing.T) {
	hold, delay, compute, busy, every := 2.5e-6, 2e-5, 5e-5, 5e-5, int64(1000)
	pt := record.Point{Kind: record.KindPoint, RunID: "r", PointIndex: 1, Measurement: "overlap, Isend", Op: "Isend",
		Method: "lock_all", MsgBytes: 4096, NProcs: 2, Ranks: []int{0, 1}, Timer: "iteration", Sync: "window", Window: 16,
		RecvSlots: "distinct", Cache: "cold", RMAWindow: "create", HoldS: &hold, DelayS: &delay, Ratio: 4, HaloComputeS: &compute, DataLayout: "struct", Stride: 3, TypeCommit: "every_call",
		TargetBusyS: &busy, Poll: "iprobe", PollEvery: &every, Topology: "cart:2x1", Partitions: 4, Threads: 4, ThreadComm: "dup", ThreadPinning: "core", FamilySettings: map[string]string{"pipeline_segment": "8192", "some_count": "3"}, Iterations: 10, TimeS: 2.0000001234e-6,
		StderrS: 1e-8, Reps: 3}
	pt.Breakdown = &record.Breakdown{FullS: pt.TimeS, FullStderrS: 1e-8, PostS: 5e-7, WaitS: 1.5e-6, OverlappedS: 1.5e-6,
		ComputeS: 4e-6, ComputeTargetS: 4e-6, SpinNsPerIter: []float64{0.5, 0}, SpinIters: []int64{8000, 0},
		OverlapRatio: 0.25, ProgressEvery: 100}
	// Every field of Setup is set, so that one the round trip loses shows.
	want := pt.Setup()
	v := reflect.ValueOf(want)
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsZero() {
			t.Fatalf("setup field %s not set", v.Type().Field(i).Name)
		}
	}
	var buf bytes.Buffer
	s := NewSKO(&buf)
	s.Run(&record.Run{Kind: record.KindRun, RunID: "r", NProcs: 2})
	second := pt
	second.PointIndex, second.MsgBytes = 2, 8192
	second.Breakdown = nil // a point without one: no breakdown line
	for _, p := range []*record.Point{&pt, &second} {
		if err := s.Point(p); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	got, err := ReadSKO(&buf, "setup.sko")
	if err != nil || len(got.Problems) > 0 || len(got.Points) != 2 {
		t.Fatal(err, got.Problems, len(got.Points))
	}
	if g := got.Points[0].Setup(); g != want {
		t.Errorf("setup read back:\n%+v\nwant\n%+v", g, want)
	}
	if g := got.Points[0]; g.TimeS != pt.TimeS || !reflect.DeepEqual(g.Breakdown, pt.Breakdown) {
		t.Errorf("time %g breakdown %+v, want %g %+v", g.TimeS, g.Breakdown, pt.TimeS, pt.Breakdown)
	}
	if g := got.Points[1]; g.Breakdown != nil || g.Setup().ProgressEvery != 0 || g.Setup().Window != 16 {
		t.Errorf("second point: %+v", g.Setup())
	}
}

// A breakdown line that does not belong to the data line before it (another time, no
// point) is a warning, and the point keeps none.
func TestSKOBreakdownMismatch(t *testing.T) {
	text := "begin result \"x\"\n# op Isend, times in microseconds\n# breakdown {\"full_s\":1e-6}\n" +
		"count=        8        2.000      0.010      3\n# breakdown {\"full_s\":3e-6}\n" +
		"count=       16        2.000      0.010      3\n# breakdown {\"full_s\":\"x\"}\nend result \"x\"\n"
	got, err := ReadSKO(strings.NewReader(text), "x.sko")
	if err != nil || len(got.Points) != 2 || len(got.Problems) != 3 {
		t.Fatalf("%v, %d points, problems %v", err, len(got.Points), got.Problems)
	}
	for _, p := range got.Points {
		if p.Breakdown != nil {
			t.Errorf("%d B: breakdown %+v", p.MsgBytes, p.Breakdown)
		}
	}
}

// A setup line's values are held to their domains as a JSONL point's: a line whose
// setup no skampi writes is skipped, saying why.
func TestSKOSetupDomains(t *testing.T) {
	sko := "begin result \"pp\"\n# op Pingpong_Send_Recv, times in microseconds\n" +
		"# setup measurement=\"pp\" timer=global-loop threads=100000 hold_s=NaN delay_s=-1\n" +
		"count=        8        1.176      0.047     32        1.176        1.175\nend result \"pp\"\n"
	got, err := ReadSKO(strings.NewReader(sko), "d.sko")
	if err != nil || len(got.Points) != 0 || len(got.Problems) != 1 {
		t.Fatalf("%v, %d points, %v", err, len(got.Points), got.Problems)
	}
	for _, want := range []string{"threads is 100000", "hold_s is NaN", "delay_s is -1"} {
		if !strings.Contains(got.Problems[0].Msg, want) {
			t.Errorf("%q lacks %q", got.Problems[0].Msg, want)
		}
	}
	nan := strings.Replace(sko, " threads=100000 hold_s=NaN delay_s=-1", "", 1)
	nan = strings.Replace(nan, "1.176        1.175", "1.176        NaN", 1)
	if got, _ := ReadSKO(strings.NewReader(nan), "d.sko"); len(got.Points) != 0 || len(got.Problems) != 1 ||
		!strings.Contains(got.Problems[0].Msg, `process time "NaN" is not a number`) {
		t.Errorf("a process time of NaN: %d points, %v", len(got.Points), got.Problems)
	}
}
