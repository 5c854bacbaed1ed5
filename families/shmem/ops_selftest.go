package shmem

import "github.com/skampi/skampi/ops"

// OpenSHMEM's self-test, at 2650: just before the catalogue's self-tests (2700), first
// among them in skampi list as it was in their section. Alg. 4-5's loop without the
// acknowledgement: what Lemma 1 says cannot happen with it, for the test that shows
// check_data's order check catches it.
var _ = ops.Register(2650, []ops.Info{
	func() ops.Info {
		in := ops.Info{Name: "Selftest_Broadcast_Noack", Family: "selftest", Kernel: "shmem_broadcast_noack", Pattern: ops.PatternAll,
			Reduce: ops.ReduceMax, Directions: 1, SHMEM: true, SingleShot: true, ElementBytes: 8, Heap: ops.HeapColl, Rooted: true,
			MinProcs: 2, MinProcsWhy: "a task acknowledges to the root",
			Description: "self-test: Shmem_Broadcast's ack loop with the acknowledgement left out; with check_data = true the order check reports the interleaved broadcasts"}
		in.Methods = []ops.Method{{Name: "noack", Kernel: "shmem_broadcast_noack", RootTimed: true, PerTask: true, OrderChecked: true,
			Description: "8 consecutive broadcasts per step, unacknowledged"}}
		return in
	}(),
})
