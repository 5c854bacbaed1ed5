// Package record is the schema of skampi's result files: the run header, measured
// points, faults, clock checks, the key that identifies a point across runs, and the
// flags a point can carry. It is a leaf: it imports nothing of skampi's, so writers,
// readers, the engine's callers and tools outside skampi can all share it.
//
// One record is one JSON line; "kind" says which. Readers ignore unknown fields, so
// the schema can grow without breaking files written earlier.
package record

import "time"

// Record kinds, the "kind" field of every line of a result file.
const (
	KindRun   = "run"
	KindPoint = "point"
)

// Run is the provenance header, the first line of every result file.
type Run struct {
	Kind            string            `json:"kind"`
	RunID           string            `json:"run_id"`
	SkampiVersion   string            `json:"skampi_version"`
	GoVersion       string            `json:"go_version"`
	MPILibrary      string            `json:"mpi_library"`
	MPIVersion      string            `json:"mpi_version"`
	NProcs          int               `json:"nprocs"`
	Hosts           []string          `json:"hosts"`
	RankHosts       []string          `json:"rank_hosts"`
	RankCPUs        []string          `json:"rank_cpus,omitempty"` // every rank's CPU binding (sched_getaffinity), by rank: "0", "0-1"
	RanksPerHost    map[string]int    `json:"ranks_per_host"`
	Timer           string            `json:"timer"`
	TimerResolution float64           `json:"timer_resolution_s"`
	Suite           string            `json:"suite"`
	SuiteSource     string            `json:"suite_source"`
	SuiteSHA256     string            `json:"suite_sha256"`
	Points          int               `json:"points"`
	Env             map[string]string `json:"env"`
	Command         []string          `json:"command"`
	StartTime       time.Time         `json:"start_time"`
	Resume          bool              `json:"resume,omitempty"`       // continues earlier runs in the same file
	AllowBroken     bool              `json:"allow_broken,omitempty"` // deny-list overridden
	// Smoke: a smoke run's (skampi --smoke): two repetitions a point, to check that the
	// suite runs, not to measure it.
	Smoke bool `json:"smoke,omitempty"`
	// The thread level asked of MPI ("default": plain MPI_Init) and the one it reports;
	// in some libraries a higher level alone slows small messages.
	ThreadLevelRequested string `json:"thread_level_requested,omitempty"`
	ThreadLevelProvided  string `json:"thread_level_provided,omitempty"`
	// OpenSHMEM, when the run measured it: the library's name (shmem_info_get_name)
	// and the specification version it implements.
	SHMEMLibrary string `json:"shmem_library,omitempty"`
	SHMEMVersion string `json:"shmem_version,omitempty"`
	// Rank 0's machine: /proc/cpuinfo's model name, the kernel (uname -r and -v), and
	// the UCX and libfabric the process loaded (omitted where it loaded none).
	CPUModel         string `json:"cpu_model,omitempty"`
	Kernel           string `json:"kernel,omitempty"`
	UCXVersion       string `json:"ucx_version,omitempty"`
	LibfabricVersion string `json:"libfabric_version,omitempty"`
	// What the library ran, in its own words (MPI_T, after MPI_Init on rank 0): Open
	// MPI's components open by framework (the PML listed is the one it selected;
	// MPICH: its device), and the effective values of the control variables the
	// environment set and of a few that decide protocols (eager limits, components).
	MPIComponents  map[string][]string `json:"mpi_components,omitempty"`
	MPIControlVars map[string]string   `json:"mpi_cvars,omitempty"`
	// Overrides: the environment skampi set itself in the ranks, where the user had
	// not (the library would otherwise crash or hide Go's signals), with the values.
	Overrides map[string]string `json:"overrides,omitempty"`
	// OverridesWhy: for each of Overrides, the library bug or need it works around.
	OverridesWhy map[string]string `json:"overrides_why,omitempty"`
	// PlanNotes are what the plan left out or merged on this job, as the terminal and
	// `skampi check` say them: sizes above the memory a rank may hold (a suite that
	// sets no buffer), procs above the job.
	PlanNotes []string `json:"plan_notes,omitempty"`
	// SettleRounds: rounds of 32 barriers the job ran before its first point, until a
	// round took as long as the one before (its start over) or half a second passed;
	// SettleBarrierS: the last round's median barrier, the slowest rank's.
	SettleRounds   int     `json:"settle_rounds,omitempty"`
	SettleBarrierS float64 `json:"settle_barrier_s,omitempty"`
}
