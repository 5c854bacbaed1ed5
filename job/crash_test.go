package job

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// writeTrace writes a trace file's head as ops/mpi/crash.c does.
func writeTrace(t *testing.T, dir, token string, rank int, during string, point *record.Fault) {
	t.Helper()
	js := ""
	if point != nil {
		b, _ := json.Marshal(point)
		js = string(b)
	}
	text := fmt.Sprintf("skampi crash report\nlaunch: %s\nrank: %d\nhost: h\npid: 1\nsignal: SIGSEGV\nsignal-code: 1\naddress: 0x0\npc: 0x1\n"+
		"function: lib_put\nduring: %s\npoint: %s\n\nC stack (the handler's frames first):\n/lib/x(+0x1)[0x1]\n\nGo stacks:\ngoroutine 1 [syscall]:\n",
		token, rank, during, js)
	if err := os.WriteFile(traceFile(dir, rank), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, dir string) *report.Results {
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
	if len(res.Problems) != 0 {
		t.Errorf("the file does not validate: %v", res.Problems)
	}
	return res
}

// Ranks 1 and 3 crash in a point and write their traces; mpirun ends rank 0. The
// launcher prints one line per rank, blames the point the ranks named, and records the
// crash: at once with --max-restarts 0, after the second death with restarts.
func TestCrashReportsAreRecorded(t *testing.T) {
	plan, err := inputs.Parse("crash.toml", []byte(crashSuite))
	if err != nil {
		t.Fatal(err)
	}
	for _, restarts := range []int{0, 5} {
		t.Run(fmt.Sprintf("max-restarts %d", restarts), func(t *testing.T) {
			dir := t.TempDir()
			token := "tok"
			j := &fakeJob{t: t, dir: dir, plan: plan, crashes: func(pt *inputs.Point) bool { return pt.Op().Name == "Selftest_Crash" }}
			j.onCrash = func(pt *inputs.Point, runID string, sink *report.Locked) error {
				f := pt.Fault("rank-own-id")
				for _, r := range []int{3, 1} {
					writeTrace(t, dir, token, r, fmt.Sprintf("%s %q, %s", f.Op, f.Measurement, pointText(f.Key())), &f)
				}
				return nil // rank 0, ended by mpirun, finds the traces and records nothing
			}
			var stderr bytes.Buffer
			o := Options{Out: dir, NP: 4, MaxRestarts: restarts, Stderr: &stderr, Stdout: &bytes.Buffer{},
				Env: []string{crashDirVar + "=" + dir, crashLaunchVar + "=" + token}}
			err := SelfLaunch(plan, o, j.launch)
			var ee *ExitError
			if err == nil || (errors.As(err, &ee) && ee.Code != 1) {
				t.Fatalf("%v, want exit status 1\n%s", err, stderr.String())
			}
			res := readAll(t, dir)
			var crash *record.Fault
			for i := range res.Faults {
				if res.Faults[i].Fault == record.FaultCrash {
					if crash != nil {
						t.Errorf("two crash records")
					}
					crash = &res.Faults[i]
				}
			}
			if crash == nil || crash.Op != "Selftest_Crash" || crash.PointIndex != 13 || crash.RunID != fmt.Sprintf("run%d", j.runs-min(restarts, 1)) ||
				!strings.Contains(crash.Detail, "rank 1 (h): SIGSEGV in lib_put during Selftest_Crash \"boom\", 8 bytes, 4 processes; trace in "+traceFile(dir, 1)) ||
				!strings.Contains(crash.Detail, "rank 3 (h): SIGSEGV") {
				t.Fatalf("crash record %+v (launches %d)\n%s", crash, j.runs, stderr.String())
			}
			lines := strings.Count(stderr.String(), "skampi: rank 1 (h): SIGSEGV in lib_put during Selftest_Crash")
			// With restarts: the crash, the crash again, the rest.
			if wantRuns, wantLines := 1+2*min(restarts, 1), 1+min(restarts, 1); j.runs != wantRuns || lines != wantLines {
				t.Errorf("%d launches, %d lines for rank 1, want %d and %d\n%s", j.runs, lines, wantRuns, wantLines, stderr.String())
			}
			if restarts == 0 {
				if !strings.Contains(err.Error(), "(SIGSEGV on rank 1, SIGSEGV on rank 3), after 0 restarts") ||
					!strings.Contains(crash.Detail, "not measured again (--max-restarts 0)") {
					t.Errorf("%v\n%+v", err, crash)
				}
				return
			}
			if len(res.Points) != 12+2 || !strings.Contains(crash.Detail, "died in this point twice") {
				t.Errorf("%d points (want 14), crash %+v\n%s", len(res.Points), crash, stderr.String())
			}
			if strings.Contains(stderr.String(), "in Pingpong_Send_Recv") {
				t.Errorf("the crash was blamed on the point after it:\n%s", stderr.String())
			}
		})
	}
}

// A crash in start-up, before any run header: recorded after a header of its own, the
// run not restarted.
func TestStartupCrashIsRecorded(t *testing.T) {
	plan, err := inputs.Parse("crash.toml", []byte(crashSuite))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	launches := 0
	l := func([]string) (int, syscall.Signal, error) {
		launches++
		writeTrace(t, dir, "tok", 2, "start-up: shmem_init", &record.Fault{Kind: record.KindFault, RunID: "r2", Measurement: "(start-up: shmem_init)", NProcs: 4})
		return 139, 0, nil
	}
	var stderr bytes.Buffer
	o := Options{Out: dir, NP: 4, MaxRestarts: 5, Stderr: &stderr, Stdout: &bytes.Buffer{},
		Env: []string{crashDirVar + "=" + dir, crashLaunchVar + "=tok"}}
	err = SelfLaunch(plan, o, l)
	if err == nil || !strings.Contains(err.Error(), "the job crashed during start-up: shmem_init (SIGSEGV on rank 2); not restarted") || launches != 1 {
		t.Fatalf("%v after %d launches\n%s", err, launches, stderr.String())
	}
	if !strings.Contains(stderr.String(), "skampi: rank 2 (h): SIGSEGV in lib_put during start-up: shmem_init; trace in "+traceFile(dir, 2)) {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	res := readAll(t, dir)
	if len(res.Runs) != 1 || len(res.Faults) != 1 || res.Faults[0].Fault != record.FaultCrash ||
		res.Faults[0].Measurement != "(start-up: shmem_init)" || res.Faults[0].RunID != res.Runs[0].RunID {
		t.Errorf("runs %+v faults %+v", res.Runs, res.Faults)
	}
}

// Trace files of another launch (an earlier run into the same directory) are not
// this launch's crash.
func TestCrashReportsOfOtherLaunches(t *testing.T) {
	dir := t.TempDir()
	writeTrace(t, dir, "old", 0, "start-up: MPI_Init", nil)
	seen := map[string]time.Time{}
	if got := crashReports(dir, "new", seen); len(got) != 0 {
		t.Errorf("another launch's trace taken: %+v", got[0])
	}
	writeTrace(t, dir, "new", 1, "start-up: MPI_Init", nil)
	got := crashReports(dir, "new", seen)
	if len(got) != 1 || got[0].Rank != 1 || got[0].Function != "lib_put" || got[0].Signal != "SIGSEGV" {
		t.Fatalf("%+v", got)
	}
	if again := crashReports(dir, "new", seen); len(again) != 0 {
		t.Errorf("a trace read twice")
	}
	// A rank that appended its crash record says so after the goroutines.
	f, err := os.OpenFile(traceFile(dir, 1), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\tmain.go:1\nrecorded: /r/results.jsonl\n")
	f.Close()
	if c, err := readCrashReport(traceFile(dir, 1)); err != nil || c.Recorded != "/r/results.jsonl" || !recordedBy([]*crashReport{c}) {
		t.Errorf("%+v %v", c, err)
	}
}
