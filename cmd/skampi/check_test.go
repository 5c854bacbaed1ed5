package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// noHeapVars makes the symmetric heap Open MPI's default for the test.
func noHeapVars(t *testing.T) {
	for _, v := range []string{inputs.HeapVar, inputs.HeapVarMLNX} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
}

// writeSuite writes a suite file for a test (the MPI integration tests use it too).
func writeSuite(t *testing.T, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "suite.toml")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// check refuses, at the measurement's position, what the job cannot hold: OpenSHMEM
// points past the symmetric heap in effect, and buffers of every rank on one host past
// this machine's memory.
func TestCheckRefusesWhatTheJobCannotHold(t *testing.T) {
	noHeapVars(t)
	f := writeSuite(t, "[[measurement]]\nname = \"put\"\nop = \"Shmem_Put\"\nsizes = { from = \"1B\", to = \"4MiB\", step = \"*2\" }\n")
	code, _, stderr := runCLI("check", "-i", f, "--np", "2")
	want := f + `:1:3: measurement "put": Shmem_Put at 2MiB with window 64 needs 256.0MiB of symmetric memory per PE, more than the 256MiB heap in effect (Open MPI's default): set SMA_SYMMETRIC_SIZE=512M (or lower the sizes or window)` + "\n"
	if code != 1 || stderr != want {
		t.Errorf("code %d stderr\n%s\nwant\n%s", code, stderr, want)
	}
	t.Setenv("SMA_SYMMETRIC_SIZE", "1G")
	if code, _, stderr := runCLI("check", "-i", f, "--np", "2"); code != 0 {
		t.Errorf("with a 1 GiB heap: code %d %s", code, stderr)
	}

	// 64 ranks of an all-to-all of blocks of 1/4096 of the memory: each rank's send and
	// receive buffers hold 64 blocks, 1/32 of the machine, and the 64 ranks twice it.
	mem := memTotal(t)
	block := mem / 4096 >> 10 << 10
	f = writeSuite(t, fmt.Sprintf("[settings]\nbuffer = %d\n[[measurement]]\nname = \"a2a\"\nop = \"Alltoall\"\nsizes = [%d]\n", 64*block, block))
	code, _, stderr = runCLI("check", "-i", f, "--np", "64")
	if code != 1 || !strings.HasPrefix(stderr, f+`:3:3: measurement "a2a": Alltoall at `) || !strings.Contains(stderr, "for the 64 ranks on one host: more than this machine's memory") {
		t.Errorf("code %d stderr %s", code, stderr)
	}
}

// A suite-wide setting no measurement uses is a note in check's plan, not an error.
func TestCheckNotesUnusedDefaults(t *testing.T) {
	f := writeSuite(t, "[settings]\nwindow = 8\n[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1]\n")
	code, stdout, stderr := runCLI("check", "-i", f)
	want := "note: " + f + ":2:10: settings.window: no measurement uses it (window applies to operations with messages in flight (bandwidth, one-sided and OpenSHMEM puts and gets) and IMB-IO's writes under method = \"imb\"): ignored\n"
	if code != 0 || stderr != "" || !strings.Contains(stdout, want) {
		t.Errorf("code %d stderr %q stdout\n%s\nwant %s", code, stderr, stdout, want)
	}
}

func memTotal(t *testing.T) int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Skip("no /proc/meminfo")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) == 3 && fs[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fs[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	t.Skip("no MemTotal")
	return 0
}

// check takes run's suite-making words and plans what run with the same words would
// measure: its plan equals the plan of the suite run --print-suite makes of them.
func TestCheckPlansWhatRunWouldMeasure(t *testing.T) {
	for _, words := range [][]string{
		{"-i", "pt2pt", "--sizes", "8,1KiB", "--max-time-per-point", "1s"},
		{"-i", "coll", "--method", "osu", "--sizes", "64"},
		{"Pingpong_Send_Recv", "Bcast", "-m", "1:64"},
		{"osu_latency"},
	} {
		for _, np := range []string{"2", "5"} {
			code, printed, stderr := runCLI(append(append([]string{"run"}, words...), "--print-suite", "--np", np)...)
			if code != 0 {
				t.Fatalf("run %v --print-suite: code %d %s", words, code, stderr)
			}
			want := plan(t, runCLIOut(t, "check", "-i", writeSuite(t, printed), "--np", np))
			code, got, stderr := runCLI(append(append([]string{"check"}, words...), "--np", np)...)
			if code != 0 || plan(t, got) != want {
				t.Errorf("check %v --np %s: code %d %s\n%s\nwant\n%s", words, np, code, stderr, plan(t, got), want)
			}
		}
	}
	code, _, stderr := runCLI("check", "-i", "pt2pt", "--sizes", "foo")
	if code != 2 || !strings.HasPrefix(stderr, "skampi: check -i pt2pt: --sizes foo") {
		t.Errorf("a bad override: code %d stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI("check"); code != 2 || !strings.Contains(stderr, "name a suite (-i SUITE) or operations") {
		t.Errorf("nothing named: code %d stderr %q", code, stderr)
	}
}

// plan is check's output from its table on: what is planned, not which file it came from.
func plan(t *testing.T, out string) string {
	t.Helper()
	i := strings.Index(out, "\n#")
	if i < 0 {
		t.Fatalf("no plan in\n%s", out)
	}
	return out[i:]
}

func runCLIOut(t *testing.T, args ...string) string {
	t.Helper()
	code, out, stderr := runCLI(args...)
	if code != 0 {
		t.Fatalf("%v: code %d %s", args, code, stderr)
	}
	return out
}
