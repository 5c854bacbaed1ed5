//go:build mpi

package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/skampi/skampi/internal/hostinfo"
)

// The run header names the build, the machine and every rank's binding: under
// --bind-to core each rank has a CPU of its own; under --bind-to none both may run
// anywhere this test may.
func TestRunHeaderMachineAndBinding(t *testing.T) {
	mpirun, err := exec.LookPath("mpirun")
	if err != nil {
		t.Fatal(err)
	}
	single := regexp.MustCompile(`^[0-9]+$`)
	for _, bind := range []string{"core", "none"} {
		out := filepath.Join(t.TempDir(), bind)
		cmd := command(mpirun, "-np", "2", "--bind-to", bind, binary, "run", "Pingpong_Send_Recv", "--sizes", "1", "-o", out)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("--bind-to %s: %v\n%s", bind, err, b)
		}
		res := readResults(t, out)
		if len(res.Runs) != 1 {
			t.Fatalf("%d run headers", len(res.Runs))
		}
		run := res.Runs[0]
		cpus := run.RankCPUs
		if len(cpus) != 2 {
			t.Fatalf("--bind-to %s: rank_cpus %q", bind, cpus)
		}
		switch bind {
		case "core":
			if !single.MatchString(cpus[0]) || !single.MatchString(cpus[1]) || cpus[0] == cpus[1] {
				t.Errorf("--bind-to core: rank_cpus %q, want two different single CPUs", cpus)
			}
		case "none":
			if all := hostinfo.Affinity(); cpus[0] != all || cpus[1] != all {
				t.Errorf("--bind-to none: rank_cpus %q, want %q for both", cpus, all)
			}
		}
		if !regexp.MustCompile(`^\S+ \(commit \S+\)$`).MatchString(run.SkampiVersion) {
			t.Errorf("skampi_version %q", run.SkampiVersion)
		}
		if run.CPUModel != hostinfo.CPUModel() || run.Kernel != hostinfo.Kernel() || run.Kernel == "" {
			t.Errorf("cpu_model %q, kernel %q; this machine: %q, %q", run.CPUModel, run.Kernel, hostinfo.CPUModel(), hostinfo.Kernel())
		}
		t.Logf("--bind-to %s: rank_cpus %q, ucx %q, libfabric %q", bind, cpus, run.UCXVersion, run.LibfabricVersion)
	}
}
