package launch

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestUnderLauncher(t *testing.T) {
	cases := []struct {
		env  []string
		want bool
	}{
		{[]string{"HOME=/root"}, false},
		{[]string{"OMPI_COMM_WORLD_SIZE=2"}, true},
		{[]string{"PMI_RANK=0"}, true},
		{[]string{"PMIX_RANK=3"}, true},
		{[]string{"SLURM_JOB_ID=7", "SLURM_PROCID=0"}, false}, // inside sbatch, not srun
		{[]string{"SLURM_STEP_ID=0", "SLURM_PROCID=1"}, true},
	}
	for _, c := range cases {
		if got := UnderLauncher(c.env); got != c.want {
			t.Errorf("%v: %v, want %v", c.env, got, c.want)
		}
	}
	if r := Rank([]string{"PMI_RANK=5"}); r != 5 {
		t.Errorf("rank %d", r)
	}
	if r := Rank(nil); r != 0 {
		t.Errorf("rank %d", r)
	}
}

func TestCommand(t *testing.T) {
	cmd := Command("/usr/bin/mpirun", "/x/skampi", []string{"-i", "quick"}, []string{"UCX_ERROR_SIGNALS=SIGBUS"},
		Options{Library: OpenMPI, NP: 4, Cores: 2, Root: true})
	if want := []string{"/usr/bin/mpirun", "-np", "4", "--oversubscribe", "/x/skampi", "-i", "quick"}; !slices.Equal(cmd.Args, want) {
		t.Errorf("args %v", cmd.Args)
	}
	for _, kv := range []string{"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", "UCX_ERROR_SIGNALS=SIGBUS"} {
		if !slices.Contains(cmd.Env, kv) {
			t.Errorf("env lacks %s: %v", kv, cmd.Env)
		}
	}
	// The ranks choose their own defaults, knowing what they measure (SetRankDefaults).
	if slices.ContainsFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "OMPI_MCA_osc=") }) {
		t.Errorf("the launch chose the one-sided component: %v", cmd.Env)
	}
	if slices.Contains(cmd.Env, "UCX_ERROR_SIGNALS=") {
		t.Error("the user's UCX_ERROR_SIGNALS was overridden")
	}
	cmd = Command("mpirun", "skampi", nil, nil, Options{Library: OpenMPI, NP: 2, Cores: 2})
	if slices.Contains(cmd.Args, "--oversubscribe") || slices.Contains(cmd.Env, "OMPI_ALLOW_RUN_AS_ROOT=1") {
		t.Errorf("args %v env %v", cmd.Args, cmd.Env)
	}
	// Hydra: -n, no --oversubscribe (it always may), and nothing of Open MPI's.
	cmd = Command("/usr/bin/mpiexec.mpich", "/x/skampi", []string{"-i", "quick"}, nil, Options{Library: MPICH, NP: 4, Cores: 2, Root: true})
	if want := []string{"/usr/bin/mpiexec.mpich", "-n", "4", "/x/skampi", "-i", "quick"}; !slices.Equal(cmd.Args, want) {
		t.Errorf("args %v", cmd.Args)
	}
	for _, kv := range cmd.Env {
		if strings.HasPrefix(kv, "OMPI_") {
			t.Errorf("Open MPI's %s in an MPICH launch", kv)
		}
	}
	// MPICH links UCX, which reads it before main: the launch must set it, and say so.
	if !slices.Contains(cmd.Env, "UCX_ERROR_SIGNALS=") || !slices.Contains(cmd.Env, "SKAMPI_LAUNCH_SET=UCX_ERROR_SIGNALS") {
		t.Errorf("env %v", cmd.Env)
	}
}

// A rank sets what its library needs where the user did not, and says what it set and
// why: the one-sided component only for a run that uses one-sided communication, and
// only on the versions whose bug it works around.
func TestRankDefaults(t *testing.T) {
	vars := func(d []Setting) []string {
		var out []string
		for _, s := range d {
			if s.Why == "" {
				t.Errorf("%s=%s set without a reason", s.Var, s.Value)
			}
			out = append(out, s.Var+"="+s.Value)
		}
		return out
	}
	for _, c := range []struct {
		build, lib string
		oneSided   bool
		want       []string
	}{
		{OpenMPI, "Open MPI v4.1.4", false, []string{"UCX_ERROR_SIGNALS="}},
		{OpenMPI, "Open MPI v4.1.4", true, []string{"UCX_ERROR_SIGNALS=", "OMPI_MCA_osc=ucx"}},
		{OpenMPI, "Open MPI v4.1.0rc1", true, []string{"UCX_ERROR_SIGNALS=", "OMPI_MCA_osc=ucx"}},
		// osc/ucx without pml/ucx fails MPI_Win_allocate on these: never forced there.
		{OpenMPI, "Open MPI v4.1.6", true, []string{"UCX_ERROR_SIGNALS="}},
		{OpenMPI, "Open MPI v4.1.10", true, []string{"UCX_ERROR_SIGNALS="}},
		{OpenMPI, "Open MPI v5.0.7", true, []string{"UCX_ERROR_SIGNALS="}},
		{MPICH, "MPICH 4.0.2", true, []string{"UCX_ERROR_SIGNALS="}},
		{MPICH, "Open MPI v4.1.4", true, []string{"UCX_ERROR_SIGNALS="}}, // a build of the other library
	} {
		if got := vars(RankDefaults(c.build, c.lib, c.oneSided)); !slices.Equal(got, c.want) {
			t.Errorf("%s %q one-sided %v: %v, want %v", c.build, c.lib, c.oneSided, got, c.want)
		}
	}
	t.Setenv("UCX_ERROR_SIGNALS", "SIGBUS")
	t.Setenv("OMPI_MCA_osc", "")
	os.Unsetenv("OMPI_MCA_osc")
	set := SetRankDefaults(OpenMPI, "Open MPI v4.1.4", true)
	if len(set) != 1 || set[0].Var != "OMPI_MCA_osc" || set[0].Value != "ucx" || set[0].Why == "" ||
		os.Getenv("UCX_ERROR_SIGNALS") != "SIGBUS" {
		t.Errorf("set %v, UCX_ERROR_SIGNALS %q: the user's value must stay, the rest be said", set, os.Getenv("UCX_ERROR_SIGNALS"))
	}
}

// Each library's launcher, never the other's under a generic name.
func TestFindLauncher(t *testing.T) {
	for _, lib := range []string{OpenMPI, MPICH} {
		p, err := FindLauncher(lib)
		if err != nil {
			t.Logf("%s: %v", lib, err)
			continue
		}
		if got := LauncherLibrary(p); got != lib {
			t.Errorf("%s: %s is %q's", lib, p, got)
		}
	}
	if _, err := FindLauncher("lam"); err == nil {
		t.Error("a launcher for an unknown library")
	}
}

func TestSlurm(t *testing.T) {
	batch := []string{"SLURM_JOB_ID=42", "SLURM_NTASKS=64"}
	if id, n, ok, err := SlurmAllocation(batch); id != "42" || n != 64 || !ok || err != nil {
		t.Errorf("batch: %q %d %v %v", id, n, ok, err)
	}
	if _, _, ok, err := SlurmAllocation([]string{"SLURM_JOB_ID=42"}); !ok || err == nil || !strings.Contains(err.Error(), "give --np N") {
		t.Errorf("no task count: %v %v", ok, err)
	}
	step := []string{"SLURM_JOB_ID=42", "SLURM_NTASKS=2", "SLURM_STEP_ID=0", "SLURM_PROCID=1"}
	if _, _, ok, _ := SlurmAllocation(step); ok {
		t.Error("a step taken for an allocation to launch into")
	}
	if _, _, ok, _ := SlurmAllocation(nil); ok {
		t.Error("outside Slurm")
	}
	if !SrunWithoutPMI(step) || SrunWithoutPMI(append(step, "PMIX_RANK=1")) || SrunWithoutPMI(append(step, "PMI_FD=5")) || SrunWithoutPMI(batch) {
		t.Error("srun without PMI")
	}
}

// A process that starts its own job passes on nothing that would make its children
// take themselves for ranks of the job it runs in.
func TestWithoutLauncher(t *testing.T) {
	env := []string{"OMPI_COMM_WORLD_RANK=1", "PMIX_RANK=1", "PMI_FD=3", "SLURM_STEP_ID=0", "SLURM_PROCID=1",
		"MPI_LOCALNRANKS=2", "SLURM_JOB_ID=7", "SLURM_NTASKS=2", "HOME=/root"}
	out := WithoutLauncher(env)
	if UnderLauncher(out) || SrunWithoutPMI(out) || strings.Join(out, " ") != "SLURM_JOB_ID=7 SLURM_NTASKS=2 HOME=/root" {
		t.Errorf("%v", out)
	}
}
