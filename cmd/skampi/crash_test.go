//go:build mpi

package main

// A crash inside C (Selftest_Segfault: SIGSEGV on rank 1 in the timed loop) reaches the
// user as one line per rank, a trace file and a crash record, never as a Go runtime
// dump: under skampi's own launcher (with restarts, and with --max-restarts 0) and
// under the user's mpirun.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

const segfaultSuite = `[settings]
min_repetitions = 2
max_repetitions = 3
iterations = 10
max_time_per_point = "1s"
hang_timeout = "5s"

[[measurement]]
name = "before"
op = "Pingpong_Send_Recv"
sizes = [1, 8]

[[measurement]]
name = "segv"
op = "Selftest_Segfault"
sizes = [8]

[[measurement]]
name = "after"
op = "Pingpong_Send_Recv"
sizes = [16, 32]
`

// rankLine is the line rank 1 says (or the launcher says for it).
const rankLine = `rank 1 (%s): SIGSEGV in sk_step_selftest_segfault during Selftest_Segfault "segv", 8 bytes, 2 processes; trace in %s`

// checkCrashOutput asserts stderr holds rank 1's line and no Go dump, and that its trace
// file holds the report, the C stack and the goroutines.
func checkCrashOutput(t *testing.T, stderr, trace string) {
	t.Helper()
	host, _ := os.Hostname()
	if want := fmt.Sprintf(rankLine, host, trace); !strings.Contains(stderr, "skampi: "+want+"\n") {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	for _, dump := range []string{"goroutine ", "SIGSEGV: segmentation violation", "signal arrived during cgo execution", "runtime.cgocall", "[signal "} {
		if strings.Contains(stderr, dump) {
			t.Errorf("a Go runtime dump reached the terminal (%q):\n%s", dump, stderr)
		}
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatalf("trace file: %v", err)
	}
	for _, want := range []string{"skampi crash report\n", "rank: 1\n", "signal: SIGSEGV\n", "address: 0x0\n",
		"function: sk_step_selftest_segfault\n", `during: Selftest_Segfault "segv", 8 bytes, 2 processes`,
		"C stack", "sk_run", "Go stacks:\n", "goroutine 1 [", "ops/mpi._Cfunc_sk_run"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("trace file lacks %q:\n%s", want, b)
		}
	}
}

// checkCrashRecord asserts one crash fault for the point, naming rank 1's line.
func checkCrashRecord(t *testing.T, res *report.Results, trace string) {
	t.Helper()
	host, _ := os.Hostname()
	var crashes []record.Fault
	for _, f := range res.Faults {
		if f.Fault == record.FaultCrash {
			crashes = append(crashes, f)
		} else {
			t.Errorf("a %s fault: %+v", f.Fault, f)
		}
	}
	if len(crashes) != 1 || crashes[0].Op != "Selftest_Segfault" || crashes[0].Measurement != "segv" || crashes[0].MsgBytes != 8 ||
		!strings.Contains(crashes[0].Detail, fmt.Sprintf(rankLine, host, trace)) {
		t.Errorf("crash records %+v", crashes)
	}
}

func measured(res *report.Results) []string {
	var out []string
	for _, p := range res.Points {
		out = append(out, fmt.Sprintf("%s/%d", p.Measurement, p.MsgBytes))
	}
	return out
}

func TestSegfaultIsOneLinePerRank(t *testing.T) {
	suite := writeSuite(t, segfaultSuite)
	t.Run("restarts", func(t *testing.T) {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "-i", suite, "-o", out, "--allow-broken")
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
		}
		trace := filepath.Join(out, "crash-rank1.txt")
		checkCrashOutput(t, stderr, trace)
		if !strings.Contains(stderr, "recorded as a crash, resuming") {
			t.Errorf("no second try:\n%s", stderr)
		}
		res := readResults(t, out)
		checkCrashRecord(t, res, trace)
		if got := strings.Join(measured(res), " "); got != "before/1 before/8 after/16 after/32" {
			t.Errorf("measured %s, want every other point", got)
		}
	})
	t.Run("max-restarts 0", func(t *testing.T) {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "-i", suite, "-o", out, "--allow-broken", "--max-restarts", "0")
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
		}
		trace := filepath.Join(out, "crash-rank1.txt")
		checkCrashOutput(t, stderr, trace)
		if n := strings.Count(stderr, "skampi: rank 1 "); n != 1 {
			t.Errorf("%d lines for rank 1, want 1:\n%s", n, stderr)
		}
		res := readResults(t, out)
		checkCrashRecord(t, res, trace)
		if got := strings.Join(measured(res), " "); got != "before/1 before/8" {
			t.Errorf("measured %s, want the points before the crash", got)
		}
		t.Logf("stderr:\n%s", stderr)
	})
	t.Run("no -o", func(t *testing.T) {
		code, stdout, stderr := skampi(t, nil, "-i", suite, "--allow-broken")
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
		}
		i := strings.Index(stderr, "; trace in ")
		if i < 0 {
			t.Fatalf("no trace named:\n%s", stderr)
		}
		trace := strings.TrimSpace(strings.SplitN(stderr[i+len("; trace in "):], "\n", 2)[0])
		defer os.RemoveAll(filepath.Dir(trace))
		checkCrashOutput(t, stderr, trace)
	})
	t.Run("the user's mpirun", func(t *testing.T) {
		mpirun, err := exec.LookPath("mpirun")
		if err != nil {
			t.Skip(err)
		}
		out := t.TempDir()
		cmd := command(mpirun, "-np", "2", binary, "-i", suite, "-o", out, "--allow-broken")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); err == nil {
			t.Fatalf("mpirun exited 0\n%s", errb.String())
		}
		trace := filepath.Join(out, "crash-rank1.txt")
		checkCrashOutput(t, errb.String(), trace)
		res := readResults(t, out)
		checkCrashRecord(t, res, trace)
		if got := strings.Join(measured(res), " "); got != "before/1 before/8" {
			t.Errorf("measured %s, want the points before the crash", got)
		}
	})
	// MPICH's Hydra kills rank 0 outright (SIGKILL): the crashing rank appends the
	// record itself.
	t.Run("MPICH's mpiexec", func(t *testing.T) {
		bin := os.Getenv("SKAMPI_MPICH_BIN")
		mpiexec, err := exec.LookPath("mpiexec.mpich")
		if bin == "" || err != nil {
			t.Skip("no MPICH binary (SKAMPI_MPICH_BIN) or mpiexec.mpich")
		}
		out := t.TempDir()
		cmd := command(mpiexec, "-n", "2", bin, "-i", suite, "-o", out, "--allow-broken")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Run(); err == nil {
			t.Fatalf("mpiexec exited 0\n%s", errb.String())
		}
		trace := filepath.Join(out, "crash-rank1.txt")
		checkCrashOutput(t, errb.String(), trace)
		if b, _ := os.ReadFile(trace); !bytes.Contains(b, []byte("\nrecorded: "+filepath.Join(out, "results.jsonl"))) {
			t.Errorf("the trace does not say the rank recorded its crash")
		}
		checkCrashRecord(t, readResults(t, out), trace)
	})
}

// A crash in start-up (SKAMPI_SELFTEST_SEGFAULT_RANK=1: rank 1 writes through NULL in
// C right after MPI_Init) is one line, recorded as a crash of the phase after a run
// header of its own, not restarted; `skampi startup`'s error keeps the rank's line
// rather than the launcher's banner.
func TestStartupSegfault(t *testing.T) {
	host, _ := os.Hostname()
	out := t.TempDir()
	code, stdout, stderr := skampi(t, []string{"SKAMPI_SELFTEST_SEGFAULT_RANK=1"}, "run", "Pingpong_Send_Recv", "--sizes", "8", "-o", out)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	trace := filepath.Join(out, "crash-rank1.txt")
	line := fmt.Sprintf("skampi: rank 1 (%s): SIGSEGV in sk_crash_selftest during start-up: MPI_Init; trace in %s\n", host, trace)
	if !strings.Contains(stderr, line) || !strings.Contains(stderr, "the job crashed during start-up: MPI_Init (SIGSEGV on rank 1); not restarted") ||
		strings.Contains(stderr, "goroutine ") {
		t.Errorf("stderr:\n%s", stderr)
	}
	res := readResults(t, out)
	if len(res.Runs) != 1 || len(res.Faults) != 1 || res.Faults[0].Fault != record.FaultCrash ||
		res.Faults[0].Measurement != "(start-up: MPI_Init)" || !strings.Contains(res.Faults[0].Detail, "sk_crash_selftest") {
		t.Errorf("runs %+v, faults %+v", res.Runs, res.Faults)
	}
	if _, err := os.Stat(trace); err != nil {
		t.Error(err)
	}

	code, stdout, stderr = skampi(t, []string{"SKAMPI_SELFTEST_SEGFAULT_RANK=1"}, "startup", "--np", "2", "--launches", "1")
	if code != 1 || !strings.Contains(stderr, fmt.Sprintf("(stderr: skampi: rank 1 (%s): SIGSEGV in sk_crash_selftest during start-up: MPI_Init; trace in ", host)) ||
		strings.Contains(stderr, "-----") {
		t.Errorf("startup: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if i := strings.Index(stderr, "; trace in "); i > 0 {
		os.Remove(strings.TrimSuffix(strings.SplitN(stderr[i+len("; trace in "):], ")", 2)[0], ")"))
	}
}
