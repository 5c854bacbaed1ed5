package job

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/hostinfo"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/record"
)

// header is the run header of a suite run: provenance and the suite. kept: the header
// goes to a results file; a run that keeps nothing reads no library view (below).
func header(plan *inputs.Plan, points int, w *mpi.World, hosts, cpus []string, version string, kept bool) *record.Run {
	h := provenance(w, hosts, cpus, version, kept)
	h.Suite, h.SuiteSource, h.SuiteSHA256, h.Points = plan.Name, plan.Source, plan.SHA256, points
	h.Smoke = plan.Smoked
	return h
}

// Provenance is the run header every result file starts with, less the suite: hosts
// and cpus (every rank's processor name and CPU binding, by rank) and rank 0's machine.
func Provenance(w *mpi.World, hosts, cpus []string, version string) *record.Run {
	return provenance(w, hosts, cpus, version, true)
}

// provenance is Provenance, with the library's view (MPI_T: the components that ran and
// the control variables in effect) only when view is set. Open MPI's MPI_T start opens
// every component to register its variables: 0.2 s of rank 0 before the first point on
// the development machine (Open MPI 4.1.4), a third of a one-line run's wall time. Only
// a kept header's readers (tune's "was it in effect") use the view; the terminal shows
// none of it.
func provenance(w *mpi.World, hosts, cpus []string, version string, view bool) *record.Run {
	lib, ver := mpi.Library()
	threadReq, threadProv := w.ThreadLevel()
	timer, res := mpi.Timer()
	perHost := map[string]int{}
	var unique []string
	for _, h := range hosts {
		if perHost[h] == 0 {
			unique = append(unique, h)
		}
		perHost[h]++
	}
	var id [8]byte
	rand.Read(id[:])
	h := &record.Run{
		Kind: record.KindRun, RunID: hex.EncodeToString(id[:]), SkampiVersion: version,
		GoVersion: runtime.Version(), MPILibrary: lib, MPIVersion: ver, NProcs: w.Size(),
		ThreadLevelRequested: threadReq, ThreadLevelProvided: threadProv,
		Hosts: unique, RankHosts: hosts, RankCPUs: cpus, RanksPerHost: perHost, Timer: timer, TimerResolution: res,
		Env: relevantEnv(os.Environ()), Command: os.Args, StartTime: time.Now().UTC(),
	}
	if w.Rank() == 0 { // only rank 0 writes the header: the others ask no tool
		m := machine()
		h.CPUModel, h.Kernel, h.UCXVersion, h.LibfabricVersion = m.cpu, m.kernel, m.ucx, m.fabric
		if view {
			h.MPIComponents, h.MPIControlVars = libraryView()
		}
	}
	for _, o := range overrides {
		if h.Overrides == nil {
			h.Overrides, h.OverridesWhy = map[string]string{}, map[string]string{}
		}
		h.Overrides[o.Var] = o.Value
		if o.Why != "" {
			h.OverridesWhy[o.Var] = o.Why
		}
	}
	return h
}

// overrides: the environment this rank's skampi set before MPI_Init, and why.
var overrides []launch.Setting

// setRankDefaults sets, before MPI_Init, what this library needs where the user did
// not (launch.RankDefaults: by the library's version, which MPI can tell before
// MPI_Init), and keeps it for the run header.
func setRankDefaults(oneSided bool) {
	lib, _ := mpi.Library()
	overrides = launch.SetRankDefaults(mpi.Build, lib, oneSided)
}

// protocolVars decide protocols and components: their effective values are in every
// run header (Open MPI's by MCA name, MPICH's by CVAR name) whether or not set.
var protocolVars = []string{"pml", "btl", "mtl", "osc", "coll", "spml",
	"btl_vader_eager_limit", "btl_vader_max_send_size", "btl_vader_single_copy_mechanism", "btl_vader_fbox_max",
	"btl_tcp_eager_limit", "mpi_yield_when_idle", "coll_tuned_use_dynamic_rules",
	"coll_tuned_dynamic_rules_filename", "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", "MPIR_CVAR_CH4_SHM_POSIX_EAGER", "MPIR_CVAR_CH3_EAGER_MAX_MSG_SIZE", "MPIR_CVAR_CH4_OFI_EAGER_MAX_MSG_SIZE",
	"MPIR_CVAR_ASYNC_PROGRESS", "MPIR_CVAR_CH4_NETMOD"}

// controlVarNames: protocolVars and every control variable the environment sets
// (OMPI_MCA_NAME: NAME; MPIR_CVAR_NAME as it is), the launcher's own aside.
func controlVarNames(env []string) []string {
	names := slices.Clone(protocolVars)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if name, ok := strings.CutPrefix(k, "OMPI_MCA_"); ok && !launcherVar(k) {
			names = append(names, name)
		} else if strings.HasPrefix(k, "MPIR_CVAR_") {
			names = append(names, k)
		}
	}
	return names
}

// envPrefixes select the variables that change how an MPI library behaves.
var envPrefixes = []string{"OMPI_MCA_", "UCX_", "MPIR_CVAR_", "FI_", "PSM2_", "I_MPI_",
	// the Slurm job the run belongs to
	"SLURM_JOB_ID", "SLURM_JOB_NAME", "SLURM_JOB_NODELIST", "SLURM_JOB_PARTITION", "SLURM_CLUSTER_NAME", "SLURM_NTASKS", "SLURM_STEP_ID"}

// launcherPrefixes are what mpirun itself passes to its ranks (job ids, URIs, session
// directories): noise in a provenance record.
var launcherPrefixes = []string{"OMPI_MCA_ess", "OMPI_MCA_orte_", "OMPI_MCA_pmix", "OMPI_MCA_initial_wdir",
	"OMPI_MCA_shmem_RUNTIME_QUERY_hint"}

// secretWords mark a variable whose value must not reach a result file: result files
// are shared and rendered into reports.
var secretWords = []string{"PASSWORD", "PASSWD", "TOKEN", "SECRET", "KEY", "CREDENTIAL", "AUTH"}

// Redacted is what a secret-looking variable's value is recorded as.
const Redacted = "<redacted>"

// launcherVar: a variable mpirun passes to its ranks for itself.
func launcherVar(k string) bool {
	return slices.ContainsFunc(launcherPrefixes, func(p string) bool { return strings.HasPrefix(k, p) })
}

func relevantEnv(env []string) map[string]string {
	out := map[string]string{}
next:
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		for _, p := range launcherPrefixes {
			if strings.HasPrefix(k, p) {
				continue next
			}
		}
		for _, p := range envPrefixes {
			if strings.HasPrefix(k, p) {
				out[k] = v
				if looksSecret(k) {
					out[k] = Redacted
				}
			}
		}
	}
	return out
}

func looksSecret(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range secretWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// rankFacts gathers what the run header says of every rank: its host (to every rank:
// the node-aware kernels need it) and its CPU binding (to rank 0; nil elsewhere).
func rankFacts(w *mpi.World) (hosts, cpus []string, err error) {
	if hosts, err = w.Hosts(); err != nil {
		return nil, nil, err
	}
	if cpus, err = w.GatherStrings(hostinfo.Affinity()); err != nil {
		return nil, nil, err
	}
	return hosts, cpus, nil
}

// libraryView is what ran, not what was asked (MPI_T), or nothing: a header without it
// is still a header.
func libraryView() (components map[string][]string, vars map[string]string) {
	v, err := mpi.ReadLibraryView(controlVarNames(os.Environ()))
	if err != nil {
		return nil, nil
	}
	if len(v.Vars) > 0 {
		vars = v.Vars
	}
	return v.Components, vars
}

// machineFacts is what rank 0's header says of its machine. Asking the libraries' tools
// and the package manager takes tenths of a second, so it runs while the job starts
// (exchanging host names, opening the results, settling), not after.
type machineFacts struct{ cpu, kernel, ucx, fabric string }

var (
	factsOnce sync.Once
	factsCh   chan machineFacts
)

// startMachineFacts starts the questions, once per process: rank 0 calls it as soon as
// MPI is up (the UCX and libfabric it asks about are mapped only then).
func startMachineFacts() {
	factsOnce.Do(func() {
		factsCh = make(chan machineFacts, 1)
		go func() {
			var f machineFacts
			done := make(chan struct{})
			go func() { f.ucx = hostinfo.UCXVersion(); close(done) }()
			f.fabric = hostinfo.LibfabricVersion()
			f.cpu, f.kernel = hostinfo.CPUModel(), hostinfo.Kernel()
			<-done
			factsCh <- f
		}()
	})
}

// machine waits for the answers (starting the questions if nobody did).
func machine() machineFacts {
	startMachineFacts()
	f := <-factsCh
	factsCh <- f // the next header of this process reads them again
	return f
}
