//go:build mpi

package main

// Integration tests: the built binary, under a real mpirun, writing real records.

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/ops/shmem"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

var binary string

func TestMain(m *testing.M) {
	binary = os.Getenv("SKAMPI_BIN")
	if binary == "" {
		dir, err := os.MkdirTemp("", "skampi-bin")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		binary = filepath.Join(dir, "skampi")
		tags := "mpi" // the binary the tests run is built as this test is
		if shmem.Available {
			tags = "mpi,shmem"
		}
		out, err := exec.Command("go", "build", "-tags", tags, "-o", binary, ".").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "building skampi: %v\n%s", err, out)
			os.Exit(1)
		}
		defer os.RemoveAll(dir)
	}
	os.Exit(m.Run())
}

// skampi runs the binary with env added to a clean copy of the test's environment
// (never a launcher's), and returns its exit code and output.
func skampi(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OMPI_COMM_WORLD") && !strings.HasPrefix(kv, "PMI") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("skampi %v did not finish in 3 minutes\n%s\n%s", args, out.String(), errb.String())
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// readResults reads dir/results.jsonl with the validating reader; any schema error
// fails the test (warnings, such as a torn last line, do not).
func readResults(t *testing.T, dir string) *report.Results {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := report.Read(f, "results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Errors() {
		t.Errorf("result file: %s", p)
	}
	return res
}

// command is name with args, in the environment Open MPI needs to run as root.
func command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	return cmd
}

// planned is the plan's points on a job of nprocs processes on one host.
func planned(t *testing.T, plan *inputs.Plan, nprocs int) []inputs.Point {
	t.Helper()
	ex, err := plan.Expand(inputs.Job{NProcs: nprocs})
	if err != nil {
		t.Fatal(err)
	}
	return ex.Points
}

// checkPoints asserts the records hold exactly the plan's points, in order, with sane
// values.
func checkPoints(t *testing.T, plan *inputs.Plan, res *report.Results, nprocs int) {
	t.Helper()
	points := planned(t, plan, nprocs)
	npoints := len(points)
	if len(res.Runs) != 1 {
		t.Fatalf("%d run headers", len(res.Runs))
	}
	run := res.Runs[0]
	if run.NProcs != nprocs || run.Points != npoints || run.SuiteSHA256 != plan.SHA256 ||
		!strings.Contains(run.MPILibrary, "Open MPI") || run.TimerResolution <= 0 || len(run.RankHosts) != nprocs ||
		run.RanksPerHost[run.Hosts[0]] != nprocs || run.StartTime.IsZero() || run.RunID == "" {
		t.Errorf("run header: %+v", run)
	}
	if _, ok := run.Env["UCX_ERROR_SIGNALS"]; !ok {
		t.Errorf("run header env lacks UCX_ERROR_SIGNALS: %v", run.Env)
	}
	if len(res.Points) != npoints {
		t.Fatalf("%d points, planned %d", len(res.Points), npoints)
	}
	for j := range points {
		pt, p := &points[j], res.Points[j]
		m, size, i := pt.Measurement, pt.Size, pt.Index
		if p.RunID != run.RunID || p.PointIndex != i || p.Key() != pt.Key() {
			t.Errorf("point %d: %+v, planned %+v", i, p.Key(), pt.Key())
		}
		if p.TimeS <= 0 || p.MinS <= 0 || p.MinS > p.MedianS || p.MedianS > p.MaxS || p.StderrS < 0 ||
			p.Reps < 1 || len(p.SamplesS) != p.Reps || p.Iterations < 1 || p.NProcs != nprocs {
			t.Errorf("point %d (%s %d B): implausible %+v", i, p.Op, size, p)
		}
		if m.Op.RoundTrip != (p.LatencyS != nil) || m.Op.Bandwidth != (p.BandwidthBps != nil) {
			t.Errorf("point %d (%s): latency %v bandwidth %v", i, p.Op, p.LatencyS, p.BandwidthBps)
		}
		if p.LatencyS != nil && *p.LatencyS != p.TimeS/2 {
			t.Errorf("latency %v is not half of %v", *p.LatencyS, p.TimeS)
		}
		if len(p.RankTimeS) != len(p.Ranks) {
			t.Errorf("point %d: %d rank times for ranks %v", i, len(p.RankTimeS), p.Ranks)
		}
		if p.Stop != measure.Converged.String() && len(p.Flags) == 0 {
			t.Errorf("point %d stopped by %s without a flag", i, p.Stop)
		}
	}
}

// The suite from the foundation issue, unchanged, through self-launch.
const exampleSuite = `[settings]
min_repetitions = 8
max_repetitions = 64
max_relative_stderr = 0.03
max_time_per_point = "5s"
buffer = "4MiB"

[[measurement]]
name = "ping-pong, blocking"
op = "Pingpong_Send_Recv"
sizes = { from = "1B", to = "64KiB", step = "*2" }

[[measurement]]
name = "bandwidth"
op = "Bandwidth_Isend_Irecv"
sizes = { from = "1KiB", to = "max", step = "*4" }
window = 64
max_relative_stderr = 0.05
`

func TestExampleSuiteSelfLaunch(t *testing.T) {
	suite := writeSuite(t, exampleSuite)
	plan, err := inputs.Load(suite)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "-i", suite, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	checkPoints(t, plan, res, 2)
	for _, p := range res.Points {
		if p.Op == "Bandwidth_Isend_Irecv" && (p.Window != 64 || *p.BandwidthBps <= 0) {
			t.Errorf("bandwidth point %+v", p)
		}
	}
	// The terminal shows every point with its progress.
	if !strings.Contains(stdout, fmt.Sprintf("[%d/%d]", len(planned(t, plan, 2)), len(planned(t, plan, 2)))) || !strings.Contains(stdout, "ping-pong, blocking") {
		t.Errorf("terminal output:\n%s", stdout)
	}
	// CSV: a header and one row per point; .sko: one block per measurement.
	cf, _ := os.Open(filepath.Join(out, "results.csv"))
	rows, err := csv.NewReader(cf).ReadAll()
	cf.Close()
	if err != nil || len(rows) != len(planned(t, plan, 2))+1 || !slices.Equal(rows[0], report.CSVHeader) {
		t.Errorf("csv: %d rows, err %v", len(rows), err)
	}
	sko, _ := os.ReadFile(filepath.Join(out, "results.sko"))
	for _, m := range plan.Measurements {
		if !bytes.Contains(sko, []byte(fmt.Sprintf("begin result %q", m.Name))) || !bytes.Contains(sko, []byte(fmt.Sprintf("end result %q", m.Name))) {
			t.Errorf(".sko lacks %q:\n%s", m.Name, sko)
		}
	}
	if n := bytes.Count(sko, []byte("count=")); n != len(planned(t, plan, 2)) {
		t.Errorf(".sko has %d count= lines", n)
	}

	// The suite that ran is kept beside its results, the text the header's hash is of.
	kept, err := os.ReadFile(filepath.Join(out, "suite.toml"))
	if sum := sha256.Sum256(kept); err != nil || hex.EncodeToString(sum[:]) != res.Runs[0].SuiteSHA256 {
		t.Errorf("suite.toml: %v, not the text of sha256 %s", err, res.Runs[0].SuiteSHA256)
	}

	// A second run into the same directory says what it would do instead of mixing
	// runs silently; nothing is launched, nothing written.
	before, _ := os.ReadFile(filepath.Join(out, "results.jsonl"))
	code, stdout, stderr = skampi(t, nil, "-i", suite, "-o", out)
	want := fmt.Sprintf("skampi: %s already holds run %s (%d points): --resume continues it, --append adds another run beside it, or choose another -o\n",
		out, res.Runs[0].RunID, len(res.Points))
	if after, _ := os.ReadFile(filepath.Join(out, "results.jsonl")); code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) || !bytes.Equal(before, after) {
		t.Errorf("second run without --append: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// --append adds a run: nothing of the first is lost, CSV keeps one header.
	if code, _, stderr := skampi(t, nil, "-i", suite, "-o", out, "--append"); code != 0 {
		t.Fatalf("second run: exit %d\n%s", code, stderr)
	}
	f, _ := os.Open(filepath.Join(out, "results.jsonl"))
	both, err := report.ReadJSONL(f, "results.jsonl")
	f.Close()
	if err != nil || len(both.Runs) != 2 || len(both.Points) != 2*len(planned(t, plan, 2)) || both.Runs[0].RunID == both.Runs[1].RunID {
		t.Errorf("after two runs: %d runs, %d points, err %v", len(both.Runs), len(both.Points), err)
	}
	csvText, _ := os.ReadFile(filepath.Join(out, "results.csv"))
	if n := bytes.Count(csvText, []byte("run_id,point_index")); n != 1 {
		t.Errorf("csv has %d header rows", n)
	}
}

// Every point-to-point operation, under mpirun directly (the cluster path).
func TestAllOpsUnderMPIRun(t *testing.T) {
	var b strings.Builder
	b.WriteString("[settings]\nmin_repetitions = 2\nmax_repetitions = 4\nwindow = 4\nbuffer = \"64KiB\"\n")
	for _, in := range ops.All() {
		if in.Family != "pt2pt" { // collectives: TestCollectives; self-tests: robust_test.go
			continue
		}
		fmt.Fprintf(&b, "\n[[measurement]]\nname = %q\nop = %q\nsizes = [1, \"4KiB\"]\n", in.Name, in.Name)
	}
	b.WriteString("\n[[measurement]]\nname = \"iteration timer\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1]\ntimer = \"iteration\"\nsync = \"none\"\niterations = 10\n")
	suite := writeSuite(t, b.String())
	plan, err := inputs.Load(suite)
	if err != nil {
		t.Fatal(err)
	}
	// A directory that does not exist yet: under the user's own launcher nothing but
	// the ranks can create it.
	out := filepath.Join(t.TempDir(), "new", "results")
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		t.Fatal(err)
	}
	// No UCX_ERROR_SIGNALS here: each rank must set its own defaults before MPI_Init.
	cmd := command(mpirun, "-np", "2", binary, "-i", suite, "-o", out)
	if outb, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mpirun: %v\n%s", err, outb)
	}
	res := readResults(t, out)
	checkPoints(t, plan, res, 2)
	last := res.Points[len(res.Points)-1]
	if last.Timer != "iteration" || last.Sync != "none" || last.Iterations != 10 {
		t.Errorf("iteration-timer point: %+v", last)
	}
}

// Four ranks (oversubscribed: correctness only): pairs, explicit and probed pairs,
// and the across-nodes fallback on a single host.
func TestFourRanksPairs(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 2
max_repetitions = 3
window = 2
iterations = 20

[[measurement]]
name = "pairs"
op = "Multipair_Bandwidth"
sizes = [64]

[[measurement]]
name = "explicit"
op = "Pingpong_Send_Recv"
sizes = [8]
pair = [0, 3]

[[measurement]]
name = "probed"
op = "Pingpong_Send_Recv"
sizes = [8]
pair = "max-latency"

[[measurement]]
name = "across"
op = "Pingpong_Send_Recv"
sizes = [8]
pair = "across-nodes"
`)
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "--np", "4", "-i", suite, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	if len(res.Points) != 4 {
		t.Fatalf("%d points", len(res.Points))
	}
	byName := map[string]record.Point{}
	for _, p := range res.Points {
		byName[p.Measurement] = p
	}
	if r := byName["pairs"].Ranks; !slices.Equal(r, []int{0, 1, 2, 3}) {
		t.Errorf("multipair ranks %v", r)
	}
	if r := byName["explicit"].Ranks; !slices.Equal(r, []int{0, 3}) {
		t.Errorf("explicit pair %v", r)
	}
	if r := byName["probed"].Ranks; len(r) != 2 || r[0] != 0 || r[1] < 1 || r[1] > 3 {
		t.Errorf("probed pair %v", r)
	}
	across := byName["across"]
	if !slices.Equal(across.Ranks, []int{0, 1}) || !slices.Contains(across.Flags, record.FlagPairFallback) {
		t.Errorf("across-nodes on one host: ranks %v flags %v", across.Ranks, across.Flags)
	}
	if !strings.Contains(stdout, `note: measurement "across": pair = "across-nodes": all ranks run on`) {
		t.Errorf("no note about the fallback: %s", stdout)
	}
}

// A broken suite is rejected before any process starts: with mpirun off the PATH,
// the only possible error is the suite's.
func TestBadSuiteNeverLaunches(t *testing.T) {
	code, stdout, stderr := skampi(t, []string{"PATH=/nonexistent"}, "-i", "../../inputs/testdata/bad/unknown_op.toml")
	want := "../../inputs/testdata/bad/unknown_op.toml:3:6: measurement 1: op: unknown operation"
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, want) {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}

func TestTooFewProcesses(t *testing.T) {
	code, _, stderr := skampi(t, nil, "--np", "1", "-i", "quick")
	if code != 1 || !strings.Contains(stderr, "needs at least 2 processes, the job has 1 (use --np)") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
		t.Errorf("stack trace: %s", stderr)
	}
}

// Every collective at 2, 4 and 8 processes (oversubscribed beyond 2: correctness
// only): every rank takes part and reports a time.
func TestCollectives(t *testing.T) {
	var b strings.Builder
	b.WriteString("[settings]\nmin_repetitions = 2\nmax_repetitions = 3\nbuffer = \"1MiB\"\n")
	n := 0
	for _, in := range ops.All() {
		if in.Family != "coll" {
			continue
		}
		n++
		sizes := "[8, 4096]"
		if in.Name == "Barrier" {
			sizes = "[0]"
		}
		fmt.Fprintf(&b, "\n[[measurement]]\nname = %q\nop = %q\nsizes = %s\n", in.Name, in.Name, sizes)
		if in.Rooted {
			b.WriteString("root = 1\n")
		}
		if in.Name == "Alltoall_Ordered" {
			b.WriteString("barrier_above = 1024\n") // a barrier between the phases of the 4 KiB point
		}
	}
	suite := writeSuite(t, b.String())
	plan, err := inputs.Load(suite)
	if err != nil {
		t.Fatal(err)
	}
	if n != 22 {
		t.Fatalf("%d collectives in the catalogue", n)
	}
	for _, np := range []int{2, 4, 8} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", suite, "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		checkPoints(t, plan, res, np)
		for _, p := range res.Points {
			if len(p.Ranks) != np || len(p.RankTimeS) != np || p.Iterations != 1 {
				t.Errorf("np %d, %s: ranks %v, %d rank times, %d iterations", np, p.Op, p.Ranks, len(p.RankTimeS), p.Iterations)
			}
			if info, _ := ops.Lookup(p.Op); info.Throughput != (p.ThroughputBps != nil) ||
				(p.ThroughputBps != nil && math.Abs(*p.ThroughputBps-float64(np-1)*float64(p.MsgBytes)/p.TimeS) > 1e-6**p.ThroughputBps) {
				t.Errorf("np %d, %s: throughput %v", np, p.Op, p.ThroughputBps)
			}
		}
	}
}

// The four broadcast timing methods side by side in one measurement: every method's
// point is in the records, marked with its method; "barrier" says what it subtracted,
// "sync" that its broadcasts started in synchronised windows.
func TestBroadcastMethods(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 2
max_repetitions = 4

[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8, 4096]
method = ["barrier", "sync", "rounds", "ack"]
root = 1
`)
	plan, err := inputs.Load(suite)
	if err != nil {
		t.Fatal(err)
	}
	if len(planned(t, plan, 2)) != 8 {
		t.Fatalf("%d points planned", len(planned(t, plan, 2)))
	}
	for _, np := range []int{2, 4, 8} {
		out := t.TempDir()
		if code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", suite, "-o", out); code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		seen := map[string]int{}
		for _, p := range res.Points {
			seen[p.Method]++
			switch p.Method {
			case "barrier":
				if p.SubtractedS == nil || *p.SubtractedS <= 0 {
					t.Errorf("np %d: barrier method without the barrier it subtracted: %+v", np, p)
				}
			case "ack":
				if !slices.Equal(p.Ranks, []int{1}) {
					t.Errorf("np %d: ack is timed by the root alone, ranks %v", np, p.Ranks)
				}
			case "rounds":
				if len(p.Ranks) != np {
					t.Errorf("np %d: rounds ranks %v", np, p.Ranks)
				}
			case "sync":
				if p.Sync != "window" || p.WindowS == nil || *p.WindowS <= 0 || len(p.Ranks) != np {
					t.Errorf("np %d: sync method: sync %q window %v ranks %v", np, p.Sync, p.WindowS, p.Ranks)
				}
			}
			if p.TimeS == 0 || p.Reps == 0 || (p.TimeS < 0) != slices.Contains(p.Flags, record.FlagNegative) {
				t.Errorf("np %d: %s: time %g, flags %v: no time, or a negative one not flagged", np, p.Method, p.TimeS, p.Flags)
			}
		}
		if seen["barrier"] != 2 || seen["sync"] != 2 || seen["rounds"] != 2 || seen["ack"] != 2 {
			t.Errorf("np %d: methods %v", np, seen)
		}
	}
}

// A collective measured on communicators of several sizes in one job.
func TestProcs(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 2
max_repetitions = 3
procs = [2, 3, "all", 8]

[[measurement]]
name = "allreduce"
op = "Allreduce"
sizes = [8]

[[measurement]]
name = "gather"
op = "Gather"
sizes = [64]
root = 1
`)
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "--np", "4", "-i", suite, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	got := map[string][]int{}
	for _, p := range res.Points {
		got[p.Op] = append(got[p.Op], p.NProcs)
		if len(p.Ranks) != p.NProcs || p.Ranks[len(p.Ranks)-1] != p.NProcs-1 {
			t.Errorf("%s at %d processes: ranks %v", p.Op, p.NProcs, p.Ranks)
		}
	}
	for _, op := range []string{"Allreduce", "Gather"} {
		if !slices.Equal(got[op], []int{2, 3, 4}) {
			t.Errorf("%s measured at %v processes, want 2, 3, 4", op, got[op])
		}
	}
	// Noted once for both measurements, after the header line and before the table.
	if !strings.Contains(stdout, `note: measurements "allreduce", "gather": procs = 8 is more than the job's 4 processes: skipped`) ||
		strings.Index(stdout, "note: ") > strings.Index(stdout, "[1/") {
		t.Errorf("no note of the skipped size, or not before the table:\n%s", stdout)
	}
}

// clock check on one host: every rank shares the machine's clock, so a residual can
// only be the measurement's own error: half the fastest round trip plus the model's.
// The model's estimate (3 standard errors) assumes steady latency noise; a shared VM
// is burstier, so the bound allows twice that plus 5 µs.
func TestClockCheck(t *testing.T) {
	for _, alg := range []string{"hca", "skampi"} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "clock", "check", "--np", "2", "--algorithm", alg,
			"--duration", "1s", "--interval", "500ms", "-o", out)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", alg, code, stdout, stderr)
		}
		if !strings.Contains(stdout, alg+" synchronisation of 2 processes") || !strings.Contains(stdout, "drift") {
			t.Errorf("%s: output\n%s", alg, stdout)
		}
		f, err := os.Open(filepath.Join(out, "clock.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := report.ReadJSONL(f, "clock.jsonl")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Runs) != 1 || len(res.Clocks) != 3 { // rank 1 at 0, 0.5 and 1 s
			t.Fatalf("%s: %d runs, %d clock records", alg, len(res.Runs), len(res.Clocks))
		}
		for _, c := range res.Clocks {
			if bound := c.RTTS/2 + 2*c.UncertaintyS + 5e-6; math.Abs(c.ResidualS) > bound || c.RTTS <= 0 || c.Algorithm != alg {
				t.Errorf("%s: rank %d at %.1f s: residual %g beyond %g (%+v)", alg, c.Rank, c.ElapsedS, c.ResidualS, bound, c)
			}
		}
	}
}

// Window synchronisation: repetitions start at agreed instants on a global clock;
// late or overrunning ones are counted as discarded, never as measured.
func TestWindowSync(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 4
max_repetitions = 8
sync = "window"

[[measurement]]
name = "allreduce"
op = "Allreduce"
sizes = [8, 4096]

[[measurement]]
name = "ping-pong"
op = "Pingpong_Send_Recv"
sizes = [8]
`)
	for _, np := range []int{2, 4} {
		out := t.TempDir()
		if code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", suite, "-o", out); code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Points) != 3 {
			t.Fatalf("np %d: %d points", np, len(res.Points))
		}
		for _, p := range res.Points {
			if p.Sync != "window" || p.WindowS == nil || p.Reps == 0 || p.TimeS <= 0 || len(p.SamplesS) != p.Reps {
				t.Errorf("np %d: %s: %+v", np, p.Op, p)
			}
		}
	}
}

// The one-line form runs without a file: the points asked for, the header naming the
// command-line suite, and the same command with --resume finding them all there.
func TestRunOneLine(t *testing.T) {
	out := t.TempDir()
	args := []string{"run", "Pingpong_Send_Recv", "Bcast", "--sizes", "1,4KiB", "--method", "barrier,ack",
		"--min-repetitions", "3", "--max-repetitions", "5", "-o", out}
	if code, stdout, stderr := skampi(t, nil, args...); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	if len(res.Points) != 2+2*2 || res.Runs[0].Suite != "command-line" || res.Runs[0].SuiteSource != "command line" {
		t.Fatalf("%d points, suite %q from %q", len(res.Points), res.Runs[0].Suite, res.Runs[0].SuiteSource)
	}
	for _, p := range res.Points {
		// The ack method subtracts the acknowledgement's way, measured apart: on a busy
		// machine a result may go negative, and must then be flagged.
		if !(p.TimeS > 0 || p.TimeS < 0 && slices.Contains(p.Flags, record.FlagNegative)) || p.Reps < 3 || p.Reps > 5 || p.Op == "Bcast" && p.Method == "" {
			t.Errorf("%s %s %d B: %g s, %d reps", p.Op, p.Method, p.MsgBytes, p.TimeS, p.Reps)
		}
	}
	code, stdout, stderr := skampi(t, nil, append(args, "--resume")...)
	if code != 0 || !strings.Contains(stdout, "resumed: 6 points were already in") {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// A small sweep end to end: two eager limits, each in its own directory with the MCA
// variable in its run header, a verdict with one breakpoint per setting, the report;
// run again with --resume it launches nothing.
func TestTuneSweep(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.toml")
	os.WriteFile(file, []byte(`[settings]
min_repetitions = 4
max_repetitions = 8
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = { from = "512B", to = "64KiB", step = "*2" }
[mca]
btl_vader_eager_limit = [4096, 16384]
`), 0o644)
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := skampi(t, nil, "tune", "-i", file, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, v := range []string{"4096", "16384"} {
		res := readResults(t, filepath.Join(out, "openmpi_np2_btl_vader_eager_limit-"+v, "rep1"))
		if len(res.Points) != 8 || res.Runs[0].Env["OMPI_MCA_btl_vader_eager_limit"] != v {
			t.Errorf("%s: %d points, env %v", v, len(res.Points), res.Runs[0].Env)
		}
	}
	for _, want := range []string{"baseline btl_vader_eager_limit=4096", "breakpoints", "recommendation:", "report.html"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, "report.html")); err != nil || !bytes.Contains(b, []byte("Tuning verdict")) {
		t.Errorf("report: %v", err)
	}
	code, stdout, _ = skampi(t, nil, "tune", "-i", file, "-o", out, "--resume")
	if code != 0 || strings.Count(stdout, "already measured") != 2*inputs.DefaultTuneRepeats {
		t.Errorf("resume: exit %d\n%s", code, stdout)
	}
}
