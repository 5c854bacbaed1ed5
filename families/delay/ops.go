package delay

import "github.com/skampi/skampi/ops"

// Collectives with one late rank, as GROMACS has one rank late into its all-to-all:
// the last rank enters delay late (a busy wait on the clock). Kernels: kernels/delayed.c.
// The one-sided synchronisation calls and OpenSHMEM's send-receives with a late partner
// are their own families' operations, marked Delayed too.
var _ = ops.Register(1800, []ops.Info{
	delayed("delayed_Alltoall", "delayed_alltoall", "MPI_Alltoall, msg_bytes to each process, the last rank entering delay late (a busy computation); the time holds the delay", false),
	delayed("delayed_Gather", "delayed_gather", "MPI_Gather of msg_bytes per process to the root, the last rank entering delay late (a busy computation); the time holds the delay", true),
})

// delayed is a blocking collective of the catalogue's kind, timed one call per
// repetition, msg_bytes per process, whose last rank enters late.
func delayed(name, kernel, desc string, rooted bool) ops.Info {
	return ops.Info{Name: name, Family: "coll", Kernel: kernel, Description: desc, Pattern: ops.PatternAll,
		Reduce: ops.ReduceMax, Directions: 1, PerProcess: true, Rooted: rooted, SingleShot: true, Datatyped: true,
		Delayed: true}
}
