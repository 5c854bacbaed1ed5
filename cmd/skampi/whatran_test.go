//go:build mpi

package main

import (
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/record"
)

// The run header says what the library ran, read through MPI_T, not what the
// environment asked: one PML (the one Open MPI selected; it closes the others), the
// BTLs open (vader gone when the user leaves it out), the effective eager limit (the
// user's value when set), and what skampi set itself: the one-sided component only for
// a run that uses one-sided communication, the user's own never overridden.
func TestRunHeaderWhatRan(t *testing.T) {
	header := func(env []string, ops ...string) record.Run {
		t.Helper()
		out := t.TempDir()
		args := append([]string{"run"}, ops...)
		code, stdout, stderr := skampi(t, env, append(args, "--sizes", "8", "-o", out)...)
		if code != 0 {
			t.Fatalf("%v %v: exit %d\n%s\n%s", env, ops, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Runs) != 1 {
			t.Fatalf("%d run headers", len(res.Runs))
		}
		return res.Runs[0]
	}
	if mpich := os.Getenv("SKAMPI_MPICH_BIN"); mpich != "" {
		openmpi := binary
		binary = mpich
		run := header(nil, "Pingpong_Send_Recv")
		if len(run.MPIComponents["device"]) != 1 || run.MPIControlVars["MPIR_CVAR_ASYNC_PROGRESS"] == "" {
			t.Errorf("MPICH: components %v, cvars %v: want its device and its protocol variables", run.MPIComponents, run.MPIControlVars)
		}
		binary = openmpi
	}

	run := header(nil, "Pingpong_Send_Recv")
	if len(run.MPIComponents["pml"]) != 1 || !slices.Contains(run.MPIComponents["btl"], "vader") {
		t.Errorf("components %v: want the one PML selected and the shared-memory BTL", run.MPIComponents)
	}
	if _, err := strconv.Atoi(run.MPIControlVars["btl_vader_eager_limit"]); err != nil {
		t.Errorf("btl_vader_eager_limit %q in %v", run.MPIControlVars["btl_vader_eager_limit"], run.MPIControlVars)
	}
	// An MCA boolean (MPI_C_BOOL through MPI_T): the collective rules' switch.
	if v := run.MPIControlVars["coll_tuned_use_dynamic_rules"]; v != "false" && v != "true" {
		t.Errorf("coll_tuned_use_dynamic_rules %q in %v: want the boolean read", v, run.MPIControlVars)
	}
	if _, ok := run.Overrides["OMPI_MCA_osc"]; ok || run.Env["OMPI_MCA_osc"] != "" {
		t.Errorf("a two-sided run chose the one-sided component: overrides %v, env %v", run.Overrides, run.Env)
	}

	run = header([]string{"OMPI_MCA_btl_vader_eager_limit=5000", "OMPI_MCA_btl=self,tcp"}, "Pingpong_Send_Recv")
	if slices.Contains(run.MPIComponents["btl"], "vader") || run.MPIControlVars["btl"] != "self,tcp" {
		t.Errorf("btl self,tcp: components %v, btl %q", run.MPIComponents["btl"], run.MPIControlVars["btl"])
	}
	if v := run.MPIControlVars["btl_vader_eager_limit"]; v != "" && v != "5000" {
		t.Errorf("btl_vader_eager_limit %q, want the user's 5000 (or none: vader closed)", v)
	}

	run = header([]string{"OMPI_MCA_btl_vader_eager_limit=5000"}, "Pingpong_Send_Recv", "Put")
	// The one-sided component is chosen only where the library's bug needs it (its
	// quirk), and then it is the one open, with its reason said.
	osc := ""
	for _, s := range launch.RankDefaults(launch.OpenMPI, run.MPILibrary, true) {
		if s.Var == "OMPI_MCA_osc" {
			osc = s.Value
		}
	}
	if run.Overrides["OMPI_MCA_osc"] != osc || (osc != "" && (!slices.Equal(run.MPIComponents["osc"], []string{osc}) ||
		run.OverridesWhy["OMPI_MCA_osc"] == "")) || run.MPIControlVars["btl_vader_eager_limit"] != "5000" {
		t.Errorf("one-sided run: overrides %v, osc %v, eager limit %q", run.Overrides, run.MPIComponents["osc"],
			run.MPIControlVars["btl_vader_eager_limit"])
	}
}
