package shmem

import (
	_ "embed"

	"github.com/skampi/skampi/inputs"
)

// The family's built-in suites (skampi -i shmem, shmem-ctx, shmem-ring).
var (
	//go:embed shmem.toml
	suite []byte
	//go:embed shmem-ctx.toml
	suiteCtx []byte
	//go:embed shmem-ring.toml
	suiteRing []byte
)

// OSU's OpenSHMEM benchmarks (skampi run osu_oshm_put, ...), with OSU 7.4's defaults
// where a setting says the same: a window of 1 for latencies, 64 for message rates,
// every PE for the collectives.
var (
	window1  = [2]string{"window", "1"}
	window64 = [2]string{"window", "64"}
	allProcs = [2]string{"procs", "all"}
)

func osu(name, op string, settings ...[2]string) inputs.OSUBenchmark {
	return inputs.OSUBenchmark{Name: name, Ops: []string{op}, Settings: settings}
}

func init() {
	inputs.RegisterBuiltin("shmem", suite)
	inputs.RegisterBuiltin("shmem-ctx", suiteCtx)
	inputs.RegisterBuiltin("shmem-ring", suiteRing)
	for _, b := range []inputs.OSUBenchmark{
		osu("osu_oshm_put", "Shmem_Put", window1),
		osu("osu_oshm_put_nb", "Shmem_Put_Nbi", window1),
		osu("osu_oshm_get", "Shmem_Get_Symmetric", window1),
		osu("osu_oshm_get_nb", "Shmem_Get_Nbi", window1),
		osu("osu_oshm_put_mr", "Shmem_Multipair_Put", window64),
		osu("osu_oshm_put_mr_nb", "Shmem_Multipair_Put_Nbi", window64),
		osu("osu_oshm_get_mr_nb", "Shmem_Multipair_Get_Nbi", window64),
		{Name: "osu_oshm_put_overlap", Ops: []string{"Shmem_Put_Nbi"}, Settings: [][2]string{window1}, Breakdown: true},
		{Name: "osu_oshm_barrier", Ops: []string{"Shmem_Barrier", "Shmem_Barrier_All"}, Settings: [][2]string{allProcs}},
		osu("osu_oshm_broadcast", "Shmem_Broadcast", allProcs),
		osu("osu_oshm_collect", "Shmem_Collect", allProcs),
		osu("osu_oshm_fcollect", "Shmem_Fcollect", allProcs),
		osu("osu_oshm_reduce", "Shmem_Float_Sum_To_All", allProcs),
	} {
		inputs.RegisterOSU(b)
	}
	inputs.RegisterOSUElsewhere("osu_oshm_atomics", "several operations: name the atomics wanted (Shmem_Atomic_Fetch_Add_Long Shmem_Atomic_Add_Long ...; skampi list), or run the built-in suite shmem")
}
