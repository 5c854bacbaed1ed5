package halo

import "github.com/skampi/skampi/ops"

// The halo exchange of a 1-D decomposed stencil code, with its computation (SKaMPI's
// border exchanges): every process on a ring exchanges a border row of msg_bytes with
// both neighbours while it computes for halo_compute (the calibrated spin), then
// waits for the rows. One step is one halo step; the time less halo_compute is what
// the exchange costs beyond what the computation hides. The coll family's panel halo
// draws them side by side. Kernels: kernels/halo.c.
var _ = ops.Register(2100, []ops.Info{
	halo("Halo_Twosided", "halo_twosided", false, "MPI_Irecv from and MPI_Isend to both neighbours (a border row of msg_bytes each way), compute for halo_compute, MPI_Waitall"),
	halo("Halo_Onesided_PSCW", "halo_pscw", true, "MPI_Win_post and MPI_Win_start to both neighbours, MPI_Get of the previous one's last row and the next one's first (msg_bytes each), compute for halo_compute, MPI_Win_complete, MPI_Win_wait"),
	halo("Halo_Onesided_Fence", "halo_fence", true, "MPI_Win_fence, MPI_Get of the previous neighbour's last row and the next one's first (msg_bytes each), compute for halo_compute, MPI_Win_fence"),
})

func halo(name, kernel string, oneSided bool, desc string) ops.Info {
	return ops.Info{Name: name, Family: "coll", Description: "one halo step: " + desc, Kernel: kernel, Pattern: ops.PatternAll,
		Reduce: ops.ReduceMax, Directions: 2, PerProcess: true, SingleShot: true, OneSided: oneSided, Computes: true,
		MinProcs: 2, MinProcsWhy: "a halo is exchanged with neighbours"}
}
