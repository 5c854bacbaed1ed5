//go:build mpi

package main

// Integration tests: skampi under a real mpirun, every operation and rank layout, and
// suites that must not launch.

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

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
