//go:build mpi

package main

// Integration tests: the built binary, under a real mpirun, writing real records.

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	shmem "github.com/skampi/skampi/families/shmem/kernels"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/familytest"
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

// runLimit bounds how long one skampi command of a test may go without progress: 3
// minutes, or SKAMPI_TEST_RUN_LIMIT (a Go duration). Progress, not the whole run, is
// bounded: a machine busy enough to slow a suite still shows progress, a hang shows
// none (skampi's own watchdog ends one well before).
func runLimit(t *testing.T) time.Duration {
	t.Helper()
	if v := os.Getenv("SKAMPI_TEST_RUN_LIMIT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("SKAMPI_TEST_RUN_LIMIT=%q: not a positive duration", v)
		}
		return d
	}
	return 3 * time.Minute
}

// runCap bounds one command however much progress it makes: CI's time is finite.
const runCap = 20 * time.Minute

// skampi runs the binary with env added to a clean copy of the test's environment
// (never a launcher's), and returns its exit code and output.
func skampi(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	var clean []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OMPI_COMM_WORLD") && !strings.HasPrefix(kv, "PMI") {
			clean = append(clean, kv)
		}
	}
	clean = append(clean, "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	return runCmd(t, binary, append(clean, env...), args...)
}

// runMPICH runs an MPICH build with none of Open MPI's environment.
func runMPICH(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	var clean []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OMPI_") && !strings.HasPrefix(kv, "PMI") {
			clean = append(clean, kv)
		}
	}
	return runCmd(t, bin, clean, args...)
}

// progressWriter is a buffer that remembers when it was last written to.
type progressWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	last time.Time
}

func (w *progressWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last = time.Now()
	return w.buf.Write(p)
}

func (w *progressWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func (w *progressWriter) lastWrite() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// runCmd runs bin with args in env. It fails the test when the command goes runLimit
// without progress (nothing written to its output, its -o directory's results
// unchanged) or runs longer than runCap.
func runCmd(t *testing.T, bin string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var out, errb progressWriter
	cmd.Stdout, cmd.Stderr = &out, &errb
	// A killed skampi's launcher or ranks may hold its output open: Wait stops waiting
	// for them after this.
	cmd.WaitDelay = 10 * time.Second
	results := ""
	for i, a := range args {
		if (a == "-o" || a == "--output") && i+1 < len(args) {
			results = filepath.Join(args[i+1], "results.jsonl")
		}
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	limit := runLimit(t)
	progress, size := start, int64(-1)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if _, ok := err.(*exec.ExitError); err != nil && !ok && !errors.Is(err, exec.ErrWaitDelay) {
				t.Fatal(err)
			}
			return cmd.ProcessState.ExitCode(), out.String(), errb.String()
		case now := <-tick.C:
			for _, w := range []time.Time{out.lastWrite(), errb.lastWrite()} {
				if w.After(progress) {
					progress = w
				}
			}
			if results != "" {
				if fi, err := os.Stat(results); err == nil && fi.Size() != size {
					size, progress = fi.Size(), now
				}
			}
			why := ""
			switch {
			case now.Sub(progress) > limit:
				why = fmt.Sprintf("made no progress for %v", limit)
			case now.Sub(start) > runCap:
				why = fmt.Sprintf("did not finish in %v", runCap)
			}
			if why != "" {
				cmd.Process.Kill()
				<-done
				t.Fatalf("%s %v %s (after %v)\n%s\n%s", filepath.Base(bin), args, why, now.Sub(start).Round(time.Second), out.String(), errb.String())
			}
		}
	}
}

// readResults reads dir/results.jsonl with the validating reader; any schema error
// fails the test (warnings, such as a torn last line, do not).
func readResults(t *testing.T, dir string) *report.Results {
	t.Helper()
	return familytest.ReadResults(t, dir)
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

// effect applies the rule (record.Effect) to an effect the record judges: the point
// shows it, or carries the flag that says why not (logged); otherwise the test fails.
// No test asserts a physical effect on a point any other way.
func effect(t *testing.T, p *record.Point, e record.Effect, context string) {
	t.Helper()
	if err := record.Explained(p, e); err != nil {
		t.Errorf("%s: %v", context, err)
	} else if flag, _ := p.Lacks(e); flag != "" {
		t.Logf("%s: %s %d B lacks its %s, flagged %s", context, p.Op, p.MsgBytes, e, flag)
	}
}

// relation applies the rule to a relation the test observed among the values of one
// or more points (a part's share, a faster point, a step between sizes): it holds, or
// one of the points carries a flag that says why it may not (logged); otherwise the
// test fails, with what.
func relation(t *testing.T, holds bool, what string, pts ...*record.Point) {
	t.Helper()
	if err := record.ExplainedAmong(record.EffectRelation, holds, pts...); err != nil {
		t.Errorf("%s: %v", what, err)
	} else if !holds {
		var flags [][]string
		for _, p := range pts {
			flags = append(flags, p.Flags)
		}
		t.Logf("%s: not asserted, flagged %v", what, flags)
	}
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
		run.RanksPerHost[run.Hosts[0]] != nprocs || run.StartTime.IsZero() || run.RunID == "" ||
		run.SettleRounds < 1 || !(run.SettleBarrierS > 0) {
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
		at := fmt.Sprintf("point %d (%s %d B)", i, p.Op, size)
		effect(t, &p, record.EffectTime, at)
		effect(t, &p, record.EffectConverged, at)
		timed := p.Shows(record.EffectTime)
		if timed && p.MinS <= 0 || p.MinS > p.MedianS || p.MedianS > p.MaxS || p.StderrS < 0 ||
			len(p.SamplesS) != p.Reps || p.Iterations < 1 || p.NProcs != nprocs {
			t.Errorf("%s: implausible %+v", at, p)
		}
		// Derived from a time: the latency wherever there is one (half of it, whatever
		// its sign), a bandwidth where it is positive.
		if (m.Op.RoundTrip && p.Reps > 0) != (p.LatencyS != nil) || (m.Op.Bandwidth && timed) != (p.BandwidthBps != nil) {
			t.Errorf("point %d (%s): latency %v bandwidth %v", i, p.Op, p.LatencyS, p.BandwidthBps)
		}
		if p.LatencyS != nil && *p.LatencyS != p.TimeS/2 {
			t.Errorf("latency %v is not half of %v", *p.LatencyS, p.TimeS)
		}
		if len(p.RankTimeS) != len(p.Ranks) {
			t.Errorf("point %d: %d rank times for ranks %v", i, len(p.RankTimeS), p.Ranks)
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
		if p.Op == "Bandwidth_Isend_Irecv" && (p.Window != 64 || p.BandwidthBps != nil && *p.BandwidthBps <= 0) {
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
