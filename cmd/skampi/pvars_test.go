//go:build mpi

package main

import (
	"os"
	"strings"
	"testing"

	"github.com/skampi/skampi/report"
)

// The setting pvars: the library's performance variables around each point, outside
// its repetitions. With Open MPI's monitoring on, a broadcast's one-to-all counter on
// its root grows by at least every broadcast the point timed; a name the library does
// not offer is recorded as missing, not guessed; "all" never reads a variable whose
// component did not start (reading mtl_psm2's crashes Open MPI 4.1.4).
func TestPVars(t *testing.T) {
	if strings.Contains(os.Getenv("SKAMPI_BIN"), "mpich") {
		t.Skip("Open MPI's variables")
	}
	run := func(env []string, args ...string) *report.Results {
		t.Helper()
		out := t.TempDir()
		code, stdout, stderr := skampi(t, env, append(args, "-o", out)...)
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		return readResults(t, out)
	}
	res := run([]string{"OMPI_MCA_pml_monitoring_enable=1"}, "run", "Bcast", "--sizes", "8,4KiB",
		"--pvars", "coll_monitoring_o2a_count,no_such_variable")
	for _, p := range res.Points {
		got := p.PVars["coll_monitoring_o2a_count"]
		if len(got) != 1 || got[0] < float64(p.Reps*p.Iterations) {
			t.Errorf("Bcast %d B: coll_monitoring_o2a_count grew by %v over %d repetitions of %d", p.MsgBytes, got, p.Reps, p.Iterations)
		}
		if len(p.PVarsMissing) != 1 || p.PVarsMissing[0] != "no_such_variable" {
			t.Errorf("Bcast %d B: missing %v, want [no_such_variable]", p.MsgBytes, p.PVarsMissing)
		}
	}
	res = run(nil, "run", "Pingpong_Send_Recv", "Put", "--sizes", "8", "--pvars", "all")
	for _, p := range res.Points {
		if _, ok := p.PVars["pml_ob1_unexpected_msgq_length"]; !ok || len(p.PVarsMissing) != 0 {
			t.Errorf("%s: pvars %v, missing %v: want ob1's queue lengths", p.Op, p.PVars, p.PVarsMissing)
		}
		for name := range p.PVars {
			if strings.HasPrefix(name, "mtl_") {
				t.Errorf("%s: read %s, whose component never started", p.Op, name)
			}
		}
	}
}
