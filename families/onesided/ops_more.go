package onesided

import "github.com/skampi/skampi/ops"

// One-sided communication from many origins at once (NWChem's and Global Arrays'
// pattern: every process puts or accumulates into the others' windows), the one-sided
// shift and exchange beside Sendrecv_Shift and Transpose_Put, the round trip by gets
// beside Put_Pingpong, and both of a pair putting in one fence epoch. Kernels:
// kernels/rma_concurrent.c.
var _ = ops.Register(1900, []ops.Info{
	lockKinds(concurrent(rmaColl("Put_passive_concurrent", "every process at once locks rank 0's window (method exclusive or shared), puts msg_bytes into its own block there and unlocks: concurrent passive puts; time of the slowest", false))),
	concurrent(disjointKinds(typed(rmaColl("Accumulate_concurrent", "rank 0 exposes its window (MPI_Win_post, MPI_Win_wait) while every other process at once MPI_Win_start's, accumulates msg_bytes into it (datatype, reduce_op) and MPI_Win_complete's; method same (all into one block) or disjoint (one block each)", false)))),
	concurrent(disjointKinds(typed(rmaColl("Accumulate_concurrent_multi", "in one fence epoch every process accumulates msg_bytes into every process (the next first, itself last; datatype, reduce_op), then MPI_Win_fence; method same (all into block 0) or disjoint (one block per origin)", false)))),
	func() ops.Info {
		in := rmaColl("Put_Shift", "every process MPI_Put's msg_bytes to the next one, then MPI_Win_fence: the one-sided Sendrecv_Shift", false)
		in.Beside, in.MinProcs, in.MinProcsWhy = "Sendrecv_Shift", 2, "a shift needs a next process"
		return in
	}(),
	transpose("Put_Exchange_passive", "block j of every process put into process j's window (staggered), each put in an epoch of its own (MPI_Win_lock shared, MPI_Put, MPI_Win_unlock): Transpose_Put's exchange under passive-target locks, msg_bytes per block"),
	func() ops.Info {
		in := rma("Get_Pingpong", "one-sided round trip by gets: the origin gets msg_bytes from the target, MPI_Win_fence, the target gets from the origin, MPI_Win_fence (beside Put_Pingpong)")
		in.Windowed, in.Bandwidth, in.RoundTrip, in.Directions = false, false, true, 2
		return in
	}(),
	func() ops.Info {
		in := rma("Put_fence_bidirectional", "both of the pair MPI_Put msg_bytes to each other, then MPI_Win_fence: one epoch, both directions (Put's fence methods have one origin)")
		in.Windowed, in.Bandwidth, in.Directions, in.Reduce = false, false, 2, ops.ReduceMax
		return in
	}(),
})

// concurrent: every process is an origin at once into blocks of one window (a block
// per process), which one process alone does not make.
func concurrent(in ops.Info) ops.Info {
	in.PerProcess, in.MinProcs, in.MinProcsWhy = true, 2, "concurrent origins need two processes or more"
	return in
}

// disjointKinds: the methods same (the kernel's, every origin into one block) and
// disjoint (each origin into a block of its own).
func disjointKinds(in ops.Info) ops.Info {
	in.Methods = []ops.Method{
		{Name: "same", Kernel: in.Kernel, Description: "every origin into the same block"},
		{Name: "disjoint", Kernel: in.Kernel + "_disjoint", Description: "each origin into a block of its own"},
	}
	return in
}
