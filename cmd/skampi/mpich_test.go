//go:build mpi

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

// The MPICH build (make build MPI=mpich; make test sets SKAMPI_MPICH_BIN) runs the
// quick suite under its own launcher: every point measured, the library named cleanly,
// nothing of Open MPI's in its environment, and it says what it is built against.
func TestMPICH(t *testing.T) {
	bin := os.Getenv("SKAMPI_MPICH_BIN")
	if bin == "" {
		if os.Getenv("SKAMPI_REQUIRE_MPICH") != "" {
			t.Fatal("SKAMPI_MPICH_BIN is not set")
		}
		t.Skip("no MPICH binary (make test builds one: SKAMPI_MPICH_BIN)")
	}
	run := func(args ...string) (int, string, string) { return runMPICH(t, bin, args...) }
	code, stdout, _ := run("version")
	if code != 0 || !strings.Contains(stdout, "MPI library: MPICH 4.") || !strings.Contains(stdout, "built for MPICH") ||
		!strings.Contains(stdout, "self-launch: ") || strings.Contains(stdout, "OpenSHMEM") {
		t.Fatalf("version: %d\n%s", code, stdout)
	}
	out := t.TempDir()
	code, stdout, stderr := run("-i", "quick", "-o", out)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	if len(res.Runs) != 1 || len(res.Faults) != 0 || len(res.Points) != res.Runs[0].Points {
		t.Fatalf("%d runs, %d points of %d, faults %+v", len(res.Runs), len(res.Points), res.Runs[0].Points, res.Faults)
	}
	run0 := res.Runs[0]
	if !strings.HasPrefix(run0.MPILibrary, "MPICH 4.") || strings.ContainsAny(run0.MPILibrary, "\t:") || run0.NProcs != 2 {
		t.Errorf("header: library %q, %d processes", run0.MPILibrary, run0.NProcs)
	}
	for k := range run0.Env {
		if strings.HasPrefix(k, "OMPI_") {
			t.Errorf("Open MPI's %s reached an MPICH run", k)
		}
	}
	for _, p := range res.Points {
		effect(t, &p, record.EffectTime, "MPICH")
	}
}

// The MPICH build has no OpenSHMEM: a suite with OpenSHMEM operations in it runs to its
// end with status 0, never starting OpenSHMEM, its MPI points measured and each
// OpenSHMEM operation's points denied (the reason in full once, then briefly), as an
// MPI routine the library lacks is; the summary says why on the terminal even when
// the output goes to files (here: pipes). A one-line run of a SHMEM operation, list
// and check say the same.
func TestMPICHWithoutSHMEM(t *testing.T) {
	bin := mpichBin(t)
	why := "this skampi was built without OpenSHMEM (an MPICH build): build it against Open MPI with shmem.h, `make build`"
	suite := filepath.Join(t.TempDir(), "mixed.toml")
	src := "[settings]\nmax_repetitions = 8\n" +
		"[[measurement]]\nname = \"put\"\nop = \"Shmem_Put\"\nsizes = [8, 64, 512]\n" +
		"[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1, 64]\n" +
		"[[measurement]]\nname = \"get\"\nop = \"Shmem_Get\"\nsizes = [8]\n"
	if err := os.WriteFile(suite, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, stdout, stderr := runMPICH(t, bin, "-i", suite, "--np", "2", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	if len(res.Runs) != 1 || res.Runs[0].SHMEMLibrary != "" || len(res.Points) != 2 || len(res.Faults) != 4 {
		t.Fatalf("%d runs, shmem library %q, %d points, faults %+v", len(res.Runs), res.Runs[0].SHMEMLibrary, len(res.Points), res.Faults)
	}
	for _, p := range res.Points {
		if p.Op != "Pingpong_Send_Recv" {
			t.Errorf("point of %s", p.Op)
		}
		effect(t, &p, record.EffectTime, "MPICH without OpenSHMEM")
	}
	full := map[string]int{}
	for _, f := range res.Faults {
		switch {
		case f.Fault != record.FaultDenied:
			t.Errorf("fault %+v", f)
		case f.Detail == f.Op+": "+why:
			full[f.Op]++
		case f.Detail != runner.NotBuiltDetail:
			t.Errorf("%s %d B: detail %q", f.Op, f.MsgBytes, f.Detail)
		}
	}
	if full["Shmem_Put"] != 1 || full["Shmem_Get"] != 1 {
		t.Errorf("the reason in full: %v", full)
	}
	both := stdout + stderr
	for _, want := range []string{"Shmem_Put: " + why, "Shmem_Put: 2 more point(s), not in this build either", "Shmem_Get: " + why} {
		if !strings.Contains(both, want) {
			t.Errorf("the terminal lacks %q:\n%s\nstderr:\n%s", want, stdout, stderr)
		}
	}
	if strings.Contains(both, "shmem_init") {
		t.Errorf("OpenSHMEM was started:\n%s\n%s", stdout, stderr)
	}

	// One line, no file: the same, as Pingpong_Partitioned with Open MPI 4.1.
	out = t.TempDir()
	code, stdout, stderr = runMPICH(t, bin, "run", "Shmem_Put", "-m", "8:16", "-o", out)
	if res := readResults(t, out); code != 0 || len(res.Points) != 0 || len(res.Faults) != 2 || res.Faults[0].Detail != "Shmem_Put: "+why {
		t.Errorf("run Shmem_Put: exit %d, %d points, faults %+v\n%s\n%s", code, len(res.Points), res.Faults, stdout, stderr)
	}

	code, stdout, _ = runMPICH(t, bin, "list", "Shmem_Get")
	if code != 0 || !strings.Contains(stdout, "[refused: "+why+"] shmem_getmem of msg_bytes into a private buffer") {
		t.Errorf("list: %d\n%s", code, stdout)
	}
	code, stdout, _ = runMPICH(t, bin, "check", "-i", suite)
	if code != 0 || !strings.Contains(stdout, "refused: Shmem_Put (3 point(s), measurement(s) 1): "+why+"; the run records them as denied\n") ||
		!strings.Contains(stdout, "refused: Shmem_Get (1 point(s), measurement(s) 3): ") || strings.Contains(stdout, "refused: Pingpong") {
		t.Errorf("check: %d\n%s", code, stdout)
	}
}
