//go:build mpi

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
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
	run := func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, args...)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "OMPI_") && !strings.HasPrefix(kv, "PMI") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), out.String(), errb.String()
	}
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
