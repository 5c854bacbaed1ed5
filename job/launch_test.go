package job

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// A suite whose first measurement has several methods and process counts, then a
// routine that kills the job, then more points.
const crashSuite = `
[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8, 64]
method = ["barrier", "rounds", "ack"]
procs = [2, "all"]
[[measurement]]
name = "boom"
op = "Selftest_Crash"
sizes = [8]
[[measurement]]
name = "after"
op = "Pingpong_Send_Recv"
sizes = [1, 2]
`

// fakeJob stands in for mpirun: every launch appends a run to the results as the ranks
// would (a header, then a record per point, leaving alone what a resumed run finds
// done) and dies when it reaches a point that crashes.
type fakeJob struct {
	t       *testing.T
	dir     string
	plan    *inputs.Plan
	crashes func(pt *inputs.Point) bool
	runs    int
	// onCrash, when set, is what the ranks leave when they crash in pt (trace files,
	// records); the launch then ends with 139 (SIGSEGV in a rank).
	onCrash func(pt *inputs.Point, runID string, sink *report.Locked) error
}

func (j *fakeJob) launch(args []string) (int, syscall.Signal, error) {
	j.runs++
	hosts := []string{"h", "h", "h", "h"}
	ex, err := j.plan.Expand(inputs.Job{NProcs: len(hosts), Hosts: hosts})
	if err != nil {
		return 0, 0, err
	}
	var done *record.KeySet
	if slices.Contains(args, "--resume") {
		st, err := resumeState(j.plan, j.dir, false, os.Stderr)
		if err != nil {
			return 0, 0, err
		}
		done = &st.done
	}
	sink, files, err := openSinks(j.dir, &bytes.Buffer{}, &bytes.Buffer{}, report.TableOptions{})
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	runID := fmt.Sprintf("run%d", j.runs)
	if err := sink.Run(&record.Run{Kind: record.KindRun, RunID: runID, SkampiVersion: "test", NProcs: len(hosts),
		RankHosts: hosts, Points: len(ex.Points)}); err != nil {
		return 0, 0, err
	}
	for i := range ex.Points {
		pt := &ex.Points[i]
		if done != nil && done.Has(pt.Key()) {
			continue
		}
		if j.crashes(pt) {
			if j.onCrash != nil {
				return 139, 0, errors.Join(j.onCrash(pt, runID, sink), sink.Close())
			}
			return 134, 0, sink.Close() // SIGABRT in a rank: mpirun's status
		}
		p := &record.Point{Kind: record.KindPoint, RunID: runID, PointIndex: pt.Index, Measurement: pt.Measurement.Name,
			Op: pt.Op().Name, Method: pt.Method, MsgBytes: pt.Size, NProcs: pt.NProcs, Ranks: pt.Ranks,
			TimeS: 1e-6, MeanS: 1e-6, MedianS: 1e-6, MinS: 1e-6, P10S: 1e-6, P90S: 1e-6, MaxS: 1e-6,
			Reps: 1, Stop: "converged", SamplesS: []float64{1e-6}, RankTimeS: []float64{1e-6}}
		if err := sink.Point(p); err != nil {
			return 0, 0, err
		}
	}
	return 0, 0, sink.Close()
}

func TestCrashIsBlamedOnTheRightPoint(t *testing.T) {
	dir := t.TempDir()
	plan, err := inputs.Parse("crash.toml", []byte(crashSuite))
	if err != nil {
		t.Fatal(err)
	}
	j := &fakeJob{t: t, dir: dir, plan: plan, crashes: func(pt *inputs.Point) bool { return pt.Op().Name == "Selftest_Crash" }}
	var stderr bytes.Buffer
	// Everything else measured, and the status says a point crashed.
	err = SelfLaunch(plan, Options{Out: dir, NP: 4, MaxRestarts: 5, Stderr: &stderr, Stdout: &bytes.Buffer{}}, j.launch)
	if ee, ok := err.(*ExitError); !ok || ee.Code != 1 || !ee.Quiet {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if j.runs != 3 {
		t.Errorf("%d launches, want 3 (crash, crash again, the rest):\n%s", j.runs, stderr.String())
	}
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := report.Read(f, "results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 0 {
		t.Errorf("the file does not validate: %v", res.Problems)
	}
	if len(res.Faults) != 1 {
		t.Fatalf("faults %+v", res.Faults)
	}
	crash := res.Faults[0]
	// 2 sizes x 3 methods x 2 communicators of Bcast come first: the crash is point 13.
	if crash.Fault != record.FaultCrash || crash.Op != "Selftest_Crash" || crash.PointIndex != 13 || crash.RunID != "run2" ||
		!slices.Equal(crash.Ranks, []int{0, 1}) {
		t.Errorf("crash fault %+v", crash)
	}
	var keys record.KeySet
	for _, p := range res.Points {
		if keys.Has(p.Key()) {
			t.Errorf("point measured twice: %+v", p.Key())
		}
		keys.Add(p.Key())
	}
	if len(res.Points) != 12+2 {
		t.Errorf("%d points, want every Bcast point and both later ones", len(res.Points))
	}
	for _, want := range []string{
		`the job died (exit status 134) in Selftest_Crash "boom", 8 bytes, 4 processes; measuring it again`,
		`the job died again (exit status 134) in Selftest_Crash "boom", 8 bytes, 4 processes; recorded as a crash, resuming`,
		`crash    Selftest_Crash "boom", 8 B: the job died in this point twice`,
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

func TestSelfLaunchStops(t *testing.T) {
	plan, err := inputs.Parse("crash.toml", []byte(crashSuite))
	if err != nil {
		t.Fatal(err)
	}
	// Without a results directory nothing can be resumed: the status is passed on.
	err = SelfLaunch(plan, Options{NP: 4, MaxRestarts: 5, Stderr: &bytes.Buffer{}},
		func([]string) (int, syscall.Signal, error) { return 134, 0, nil })
	if ee, ok := err.(*ExitError); !ok || ee.Code != 134 || !ee.Quiet {
		t.Errorf("no -o: %v", err)
	}
	// Interrupted: 128+N, and the message says where the results are.
	var stderr bytes.Buffer
	dir := t.TempDir()
	err = SelfLaunch(plan, Options{Out: dir, NP: 4, Stderr: &stderr},
		func([]string) (int, syscall.Signal, error) { return 143, syscall.SIGTERM, nil })
	if ee, ok := err.(*ExitError); !ok || ee.Code != 128+15 || !strings.Contains(stderr.String(), "interrupted by SIGTERM; 0 point(s) in "+dir) {
		t.Errorf("signal: %v %q", err, stderr.String())
	}
	// A job that always dies before writing anything is not restarted forever.
	err = SelfLaunch(plan, Options{Out: t.TempDir(), NP: 4, MaxRestarts: 5, Stderr: &bytes.Buffer{}},
		func([]string) (int, syscall.Signal, error) { return 134, 0, nil })
	if err == nil || !strings.Contains(err.Error(), "before measuring anything") {
		t.Errorf("dies at once: %v", err)
	}
}

// A launcher killed by a signal (mpirun killed from outside) has the status a shell
// gives it, 128+N, so the job is resumed like a crash, not taken for skampi's own error.
func TestExitStatusOfKilledProcess(t *testing.T) {
	cmd := exec.Command("sh", "-c", "kill -KILL $$")
	err := cmd.Run()
	var xe *exec.ExitError
	if !errors.As(err, &xe) {
		t.Fatalf("%v", err)
	}
	if got := exitStatus(xe.ProcessState); got != 128+9 {
		t.Errorf("killed by SIGKILL: status %d, want 137", got)
	}
	err = exec.Command("sh", "-c", "exit 3").Run()
	if !errors.As(err, &xe) || exitStatus(xe.ProcessState) != 3 {
		t.Errorf("exit 3: %v", err)
	}
}

// When the launcher dies, mpirun is told: the job never runs on as an orphan.
func TestLauncherDeathEndsTheJob(t *testing.T) {
	if os.Getenv("SKAMPI_TEST_LAUNCHER") == "1" {
		// The launcher: start a long job as MPIRun does, say its pid, die by SIGKILL.
		runtime.LockOSThread()
		cmd := exec.Command("sleep", "30")
		dieWithLauncher(cmd)
		if err := cmd.Start(); err != nil {
			os.Exit(2)
		}
		fmt.Println(cmd.Process.Pid)
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	launcher := exec.Command(os.Args[0], "-test.run", "^TestLauncherDeathEndsTheJob$")
	launcher.Env = append(os.Environ(), "SKAMPI_TEST_LAUNCHER=1")
	out, _ := launcher.Output()
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("launcher said %q", out)
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil { // gone, or a zombie reaped by init
		if stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); strings.Contains(string(stat), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatal("the job outlived its launcher by 5 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The launcher notices a job whose every process stopped (no rank's watchdog can end
// it): no new record for the quiet time.
func TestWatchProgress(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	os.WriteFile(path, []byte("{}\n"), 0o644)
	fired := make(chan time.Duration, 1)
	stop := watchProgress(path, 300*time.Millisecond, func(idle time.Duration) { fired <- idle })
	defer stop()
	select {
	case idle := <-fired:
		if idle < 300*time.Millisecond {
			t.Errorf("fired after %v of quiet", idle)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a stopped job was not noticed")
	}
	// A job that keeps writing is left alone: a write every 20 ms against 3 s of quiet,
	// so only a 3 s stall of this goroutine (not a busy machine) could look like a stop.
	fired2 := make(chan time.Duration, 1)
	stop2 := watchProgress(path, 3*time.Second, func(idle time.Duration) { fired2 <- idle })
	defer stop2()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	defer f.Close()
	for start := time.Now(); time.Since(start) < 4*time.Second; {
		f.Write([]byte("{}\n"))
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case idle := <-fired2:
		t.Errorf("fired on a job that writes (idle %v)", idle)
	default:
	}
}

// A job the launcher had to end (ExitTimeout, no rank recorded anything) gets its
// timeout recorded by the launcher, and the resumed run goes on after that point.
func TestStoppedJobIsRecordedByTheLauncher(t *testing.T) {
	dir := t.TempDir()
	plan, err := inputs.Parse("crash.toml", []byte(crashSuite))
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	j := &fakeJob{t: t, dir: dir, plan: plan, crashes: func(pt *inputs.Point) bool {
		if pt.Op().Name == "Selftest_Crash" && !stopped {
			stopped = true
			return true
		}
		return false
	}}
	launch := func(args []string) (int, syscall.Signal, error) {
		code, sig, err := j.launch(args)
		if code == 134 {
			code = ExitTimeout // as MPIRun reports a job it ended for its silence
		}
		return code, sig, err
	}
	var stderr bytes.Buffer
	// Recovered, and the status still says a point hung (3).
	err = SelfLaunch(plan, Options{Out: dir, NP: 4, MaxRestarts: 5, Stderr: &stderr, Stdout: &bytes.Buffer{}}, launch)
	if ee, ok := err.(*ExitError); !ok || ee.Code != ExitTimeout || !ee.Quiet {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	st, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.res.Faults) != 1 || st.res.Faults[0].Fault != record.FaultTimeout || st.res.Faults[0].Op != "Selftest_Crash" ||
		!strings.Contains(st.res.Faults[0].Detail, "ended by skampi's launcher") || len(st.res.Problems) != 0 {
		t.Errorf("faults %+v problems %v", st.res.Faults, st.res.Problems)
	}
	if j.runs != 2 || len(st.res.Points) != 14 {
		t.Errorf("%d launches, %d points", j.runs, len(st.res.Points))
	}
}

// A launcher that exits 0 is not taken at its word: a job that wrote no run header,
// or left points without a record, is a failure with one clear line.
func TestLauncherSuccessWithoutAJob(t *testing.T) {
	plan, err := inputs.Parse("crash.toml", []byte(crashSuite))
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	dir := t.TempDir()
	launches := 0
	err = SelfLaunch(plan, Options{Out: dir, NP: 4, MaxRestarts: 5, Stderr: &stderr, Stdout: &bytes.Buffer{}},
		func([]string) (int, syscall.Signal, error) { launches++; return 0, 0, nil })
	if err == nil || !strings.Contains(err.Error(), "the launcher exited 0, but no rank started: "+filepath.Join(dir, "results.jsonl")+" has no run header from this job") {
		t.Errorf("nothing started: %v", err)
	}
	if launches != 1 {
		t.Errorf("%d launches", launches)
	}
	// A run header, then the ranks stop after a few points with status 0.
	dir = t.TempDir()
	j := &fakeJob{t: t, dir: dir, plan: plan, crashes: func(pt *inputs.Point) bool { return pt.Index > 3 }}
	err = SelfLaunch(plan, Options{Out: dir, NP: 4, MaxRestarts: 5, Stderr: &stderr, Stdout: &bytes.Buffer{}},
		func(args []string) (int, syscall.Signal, error) {
			_, sig, err := j.launch(args)
			return 0, sig, err
		})
	if err == nil || !strings.Contains(err.Error(), `not every point has a record in `+filepath.Join(dir, "results.jsonl")+`, the first without is Bcast "bcast", 64 bytes, method barrier, 2 processes (point 4)`) {
		t.Errorf("stopped early: %v", err)
	}
	if j.runs != 1 {
		t.Errorf("%d launches", j.runs)
	}
	// Every point written, but one record the reader refuses: the error names its
	// problem, not ranks that stopped.
	dir = t.TempDir()
	j = &fakeJob{t: t, dir: dir, plan: plan, crashes: func(pt *inputs.Point) bool { return false }}
	err = SelfLaunch(plan, Options{Out: dir, NP: 4, MaxRestarts: 5, Stderr: &stderr, Stdout: &bytes.Buffer{}},
		func(args []string) (int, syscall.Signal, error) {
			if _, sig, err := j.launch(args); err != nil || sig != 0 {
				return 0, sig, err
			}
			path := filepath.Join(dir, "results.jsonl")
			b, err := os.ReadFile(path)
			if err != nil {
				return 0, 0, err
			}
			lines := bytes.Split(b, []byte("\n"))
			for i, l := range lines {
				if bytes.Contains(l, []byte(`"point_index":4,`)) {
					lines[i] = bytes.Replace(l, []byte(`"elapsed_s":0`), []byte(`"elapsed_s":-1`), 1)
				}
			}
			return 0, 0, os.WriteFile(path, bytes.Join(lines, []byte("\n")), 0o644)
		})
	if err == nil || !strings.Contains(err.Error(), `that reads: the first without is Bcast "bcast", 64 bytes, method barrier, 2 processes (point 4); results.jsonl: `) ||
		!strings.Contains(err.Error(), "elapsed_s is -1") || strings.Contains(err.Error(), "stopped early") {
		t.Errorf("a record that breaks the schema: %v", err)
	}
}

// MPIRun's launcher: a launcher that exits 0 but runs no process of the job (nothing
// on stdout, where rank 0 always prints) fails; one whose job prints succeeds.
func TestLauncherThatStartsNothing(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var stdout, stderr bytes.Buffer
	o := Options{NP: 2, Env: os.Environ(), Stdout: &stdout, Stderr: &stderr}
	silent := script("silent-launcher", "exit 0")
	code, sig, err := launcher(silent, "/nonexistent/skampi", o, 0)(nil)
	if err == nil || code != 0 || sig != 0 || !strings.Contains(err.Error(), silent+" exited 0, but no process of the job printed anything: no rank started") {
		t.Errorf("silent launcher: %d %d %v", code, sig, err)
	}
	talking := script("talking-launcher", "echo 'skampi v | Open MPI | 2 processes on 1 host | suite quick, 3 points'")
	if code, _, err := launcher(talking, "/nonexistent/skampi", o, 0)(nil); code != 0 || err != nil || !strings.Contains(stdout.String(), "suite quick") {
		t.Errorf("a job that ran: %d %v %q", code, err, stdout.String())
	}
	// A failure is passed on as it is: its status says what happened.
	failing := script("failing-launcher", "exit 5")
	if code, _, err := launcher(failing, "/nonexistent/skampi", o, 0)(nil); code != 5 || err != nil {
		t.Errorf("failing launcher: %d %v", code, err)
	}
}
