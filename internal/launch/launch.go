// Package launch decides whether skampi runs under an MPI launcher and, when it does
// not, builds the mpirun command that re-executes it as a parallel job.
package launch

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// launcherVars are set by mpirun/mpiexec (Open MPI, MPICH/Hydra, PMIx) and srun in
// every process they start.
var launcherVars = []string{
	"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS",
}

// UnderLauncher reports whether env (os.Environ format) comes from a launcher.
func UnderLauncher(env []string) bool {
	vars := toMap(env)
	for _, v := range launcherVars {
		if _, ok := vars[v]; ok {
			return true
		}
	}
	// srun sets SLURM_STEP_ID in job steps; a batch script has no step id of its own.
	_, step := vars["SLURM_STEP_ID"]
	_, procid := vars["SLURM_PROCID"]
	return step && procid
}

// Rank is this process's rank from the launcher's environment, or 0 when unknown;
// used to print suite errors once, before MPI is initialised.
func Rank(env []string) int {
	vars := toMap(env)
	for _, v := range []string{"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"} {
		if r, err := strconv.Atoi(vars[v]); err == nil {
			return r
		}
	}
	return 0
}

// Size is the job's process count from the launcher's environment, or 0 when unknown;
// used to describe a job that never finished starting.
func Size(env []string) int {
	vars := toMap(env)
	for _, v := range []string{"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", "SLURM_NTASKS"} {
		if n, err := strconv.Atoi(vars[v]); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

// Options for a self-launch.
type Options struct {
	NP    int
	Cores int // oversubscribe when NP exceeds this
	Root  bool
}

// Command returns mpirun running self with args on opts.NP processes, with the
// environment Open MPI needs here. The variables it adds never override the user's.
func Command(mpirun, self string, args []string, env []string, opts Options) *exec.Cmd {
	margs := []string{"-np", strconv.Itoa(opts.NP)}
	if opts.NP > opts.Cores {
		margs = append(margs, "--oversubscribe")
	}
	margs = append(margs, self)
	margs = append(margs, args...)
	cmd := exec.Command(mpirun, margs...)
	cmd.Env = Env(env, opts.Root)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd
}

// RankDefaults are set in every rank before MPI starts, unless the user set them:
// UCX must leave SIGSEGV to the Go runtime (or a Go panic becomes a hard crash), and
// Open MPI 4.1.4's default one-sided component (osc/rdma) crashes in finalize once RMA
// is used, so the UCX one is chosen.
var RankDefaults = [][2]string{{"UCX_ERROR_SIGNALS", ""}, {"OMPI_MCA_osc", "ucx"}}

// Env adds what Open MPI needs to env unless already set: RankDefaults and, for root,
// permission to run as root.
func Env(env []string, root bool) []string {
	vars := toMap(env)
	out := append([]string(nil), env...)
	add := func(k, v string) {
		if _, ok := vars[k]; !ok {
			out = append(out, k+"="+v)
		}
	}
	if root {
		add("OMPI_ALLOW_RUN_AS_ROOT", "1")
		add("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	}
	for _, kv := range RankDefaults {
		add(kv[0], kv[1])
	}
	return out
}

// SetRankDefaults applies RankDefaults to this process (a rank started by the user's
// own mpirun or srun); call it before MPI is initialised.
func SetRankDefaults() {
	for _, kv := range RankDefaults {
		if _, ok := os.LookupEnv(kv[0]); !ok {
			os.Setenv(kv[0], kv[1])
		}
	}
}

// FindMPIRun locates mpirun on PATH with an actionable error.
func FindMPIRun() (string, error) {
	for _, name := range []string{"mpirun", "mpiexec"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("mpirun not found on PATH: install Open MPI (`make setup`) or start skampi under your launcher (mpirun, srun)")
}

func toMap(env []string) map[string]string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}
