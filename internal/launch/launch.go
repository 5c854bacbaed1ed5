// Package launch decides whether skampi runs under an MPI launcher and, when it does
// not, builds the mpirun command that re-executes it as a parallel job.
package launch

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
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

// Libraries this package knows how to launch: Open MPI's mpirun (orterun) and MPICH's
// Hydra (mpiexec.hydra).
const (
	OpenMPI = "openmpi"
	MPICH   = "mpich"
)

// Options for a self-launch.
type Options struct {
	Library string // OpenMPI or MPICH: the library the binary is built against
	NP      int
	Cores   int // Open MPI: oversubscribe when NP exceeds this (Hydra always may)
	Root    bool
}

// Command returns the library's launcher running self with args on opts.NP processes,
// with the environment that library needs here. The variables it adds never override
// the user's.
func Command(launcher, self string, args []string, env []string, opts Options) *exec.Cmd {
	margs := []string{"-np", strconv.Itoa(opts.NP)}
	if opts.Library == MPICH {
		margs = []string{"-n", strconv.Itoa(opts.NP)}
	} else if opts.NP > opts.Cores {
		margs = append(margs, "--oversubscribe")
	}
	margs = append(margs, self)
	margs = append(margs, args...)
	cmd := exec.Command(launcher, margs...)
	cmd.Env = Env(env, opts.Library, opts.Root)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd
}

// A Setting is a variable skampi sets in a rank before MPI starts, and why.
type Setting struct {
	Var, Value, Why string
}

// A Quirk works around one known bug of a library, only where that bug is: by the
// library's version text (MPI_Get_library_version, valid before MPI_Init) and by what
// the run measures. A blanket setting turned working libraries into failing ones, so
// every entry names the versions it was shown on and how.
type Quirk struct {
	Setting
	Build    string         // OpenMPI or MPICH: the library the binary is built against
	Library  *regexp.Regexp // matched against the library's version text
	OneSided bool           // only for runs with one-sided MPI or OpenSHMEM
}

var quirks = []Quirk{{
	// A plain C program (MPI_Win_allocate, lock_all, MPI_Compare_and_swap on MPI_LONG,
	// flush; then MPI_Barrier) crashes in mca_btl_vader_poll_handle_frag on Debian 12's
	// 4.1.4, as public reports show for 4.1.1 and 4.1.2 (osu_cas_latency). osc/ucx
	// runs it there. On 4.1.6 (Ubuntu 24.04, UCX 1.16) and 5.0.7 (Debian 13) forcing
	// osc/ucx makes MPI_Win_allocate fail with MPI_ERR_WIN, so newer versions keep
	// the library's own choice.
	Setting: Setting{Var: "OMPI_MCA_osc", Value: "ucx",
		Why: "Open MPI 4.1.0-4.1.4: osc/rdma over btl/vader segfaults on an 8-byte MPI_Compare_and_swap"},
	Build:    OpenMPI,
	Library:  regexp.MustCompile(`^Open MPI v4\.1\.[0-4]([^0-9]|$)`),
	OneSided: true,
}}

// Quirks returns the table, for documentation and tests.
func Quirks() []Quirk { return append([]Quirk(nil), quirks...) }

// RankDefaults are set in every rank before MPI starts, unless the user set them. For
// any library on UCX: UCX must leave SIGSEGV to the Go runtime (or a Go panic becomes a
// hard crash). Then the quirks that apply to this library (libVersion) and run
// (oneSided: it uses one-sided communication or OpenSHMEM); elsewhere the library
// keeps the components it would choose.
func RankDefaults(build, libVersion string, oneSided bool) []Setting {
	out := []Setting{{Var: "UCX_ERROR_SIGNALS", Value: "",
		Why: "UCX would take SIGSEGV from the Go runtime, turning a recoverable error into a hard crash"}}
	for _, q := range quirks {
		if q.Build == build && q.Library.MatchString(libVersion) && (oneSided || !q.OneSided) {
			out = append(out, q.Setting)
		}
	}
	return out
}

// setVar lists, for the ranks, the variables a self-launch set (not the user), so the
// run header can say so.
const setVar = "SKAMPI_LAUNCH_SET"

// Env adds what the library needs to env unless already set: for Open MPI run by root,
// its permission to run as root; UCX_ERROR_SIGNALS, which UCX reads when it is loaded
// (MPICH links it: before main, too early for a rank to set it). The ranks set the
// rest themselves (SetRankDefaults), knowing what they measure.
func Env(env []string, library string, root bool) []string {
	vars := toMap(env)
	out := append([]string(nil), env...)
	add := func(k, v string) {
		if _, ok := vars[k]; !ok {
			out = append(out, k+"="+v)
		}
	}
	if root && library != MPICH {
		add("OMPI_ALLOW_RUN_AS_ROOT", "1")
		add("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
	}
	if _, ok := vars["UCX_ERROR_SIGNALS"]; !ok {
		add("UCX_ERROR_SIGNALS", "")
		add(setVar, "UCX_ERROR_SIGNALS")
	}
	return out
}

// SetRankDefaults applies RankDefaults to this process (every rank, launched by skampi
// or by the user); call it before MPI is initialised. It returns what it set, with why,
// for the run header: the user's own settings are never overridden.
func SetRankDefaults(build, libVersion string, oneSided bool) []Setting {
	var set []Setting
	defaults := RankDefaults(build, libVersion, oneSided)
	for _, k := range strings.Split(os.Getenv(setVar), ",") { // what the self-launch set
		if v, ok := os.LookupEnv(k); ok && k != "" {
			s := Setting{Var: k, Value: v}
			for _, d := range defaults {
				if d.Var == k {
					s.Why = d.Why
				}
			}
			set = append(set, s)
		}
	}
	for _, d := range defaults {
		if _, ok := os.LookupEnv(d.Var); !ok {
			os.Setenv(d.Var, d.Value)
			set = append(set, d)
		}
	}
	return set
}

// launchers are the names each library's launcher goes by, most specific first:
// Debian installs both as mpirun.openmpi / mpiexec.mpich beside the generic names,
// which point at whichever library the alternatives system chose.
var launchers = map[string][]string{
	OpenMPI: {"mpirun.openmpi", "mpiexec.openmpi", "orterun", "mpirun", "mpiexec"},
	MPICH:   {"mpiexec.mpich", "mpirun.mpich", "mpiexec.hydra", "mpiexec", "mpirun"},
}

// FindLauncher locates the launcher of library on PATH. A generic name (mpirun,
// mpiexec) is taken only when `NAME --version` says it is that library's, so an MPICH
// binary is never started by Open MPI's mpirun (which would start N one-process jobs).
func FindLauncher(library string) (string, error) {
	names, ok := launchers[library]
	if !ok {
		return "", fmt.Errorf("no launcher known for MPI library %q", library)
	}
	for _, name := range names {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if name == "mpirun" || name == "mpiexec" {
			if LauncherLibrary(p) != library {
				continue
			}
		}
		return p, nil
	}
	what := map[string]string{OpenMPI: "Open MPI's mpirun (Debian: openmpi-bin; `make setup`)", MPICH: "MPICH's mpiexec (Debian: mpich; `make setup MPI=mpich`)"}[library]
	return "", fmt.Errorf("%s not found on PATH: install it, or start skampi under your launcher (mpirun, mpiexec, srun)", what)
}

// LauncherLibrary says which library a launcher belongs to, from its --version text:
// OpenMPI, MPICH, or "" when it cannot tell.
func LauncherLibrary(path string) string {
	out, _ := exec.Command(path, "--version").CombinedOutput()
	switch text := string(out); {
	case strings.Contains(text, "Open MPI") || strings.Contains(text, "OpenRTE"):
		return OpenMPI
	case strings.Contains(text, "HYDRA"):
		return MPICH
	}
	return ""
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

// SlurmAllocation is the task count of the Slurm job this process runs in outside any
// job step (a batch script, salloc): what a self-launch should start. ok is false
// outside Slurm or inside a step; err says an allocation has no task count to use.
func SlurmAllocation(env []string) (jobID string, tasks int, ok bool, err error) {
	vars := toMap(env)
	jobID = vars["SLURM_JOB_ID"]
	if jobID == "" || UnderLauncher(env) {
		return "", 0, false, nil
	}
	for _, v := range []string{"SLURM_NTASKS", "SLURM_NPROCS"} {
		if n, e := strconv.Atoi(vars[v]); e == nil && n > 0 {
			return jobID, n, true, nil
		}
	}
	return jobID, 0, true, fmt.Errorf("inside Slurm job %s, which names no task count (sbatch -n N or --ntasks): give --np N", jobID)
}

// SrunWithoutPMI reports a process srun started with no PMI for the MPI library to
// find its peers by (plain `srun` with Open MPI, which then aborts with a long banner):
// a Slurm step, but none of the variables PMIx, PMI-2 or mpirun set.
func SrunWithoutPMI(env []string) bool {
	vars := toMap(env)
	_, step := vars["SLURM_STEP_ID"]
	_, procid := vars["SLURM_PROCID"]
	if !step || !procid {
		return false
	}
	for _, v := range []string{"PMIX_RANK", "PMI_RANK", "PMI_FD", "OMPI_COMM_WORLD_RANK"} {
		if _, ok := vars[v]; ok {
			return false
		}
	}
	return true
}

// launcherPrefixes are the variables a launcher gives the processes it starts (what
// UnderLauncher, Rank and SrunWithoutPMI read): a process that starts a new job of its
// own must not pass them on, or its children take themselves for its ranks.
var launcherPrefixes = []string{"OMPI_COMM_WORLD", "PMIX_", "PMI_", "MPI_LOCALNRANKS", "MPI_LOCALRANKID",
	"SLURM_STEP", "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID", "SLURM_TASK_PID"}

// WithoutLauncher is env without the variables of the launcher that started this
// process (a job allocation's, such as SLURM_JOB_ID, stay).
func WithoutLauncher(env []string) []string {
	var out []string
next:
	for _, kv := range env {
		for _, p := range launcherPrefixes {
			if strings.HasPrefix(kv, p) {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}
