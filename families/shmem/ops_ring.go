package shmem

import "github.com/skampi/skampi/ops"

// Rings (families/shmem/kernels/ring.c, family shmem-ring, each drawn beside its pair): every PE of the communicator puts to, or gets from, the
// next at once, so each is origin and target together — the method paper's Figs. 6-7
// and SKaMPI's *_Round and *_Full, beside the pair's Shmem_Put and Shmem_Get where one
// side is passive. A step is one operation and, for puts and _nbi gets, its
// shmem_quiet; the slowest PE's time counts. And compare-and-swap that succeeds
// against one that fails, by a pair's initiator on an element only it writes (one
// uncontended long: Shmem_Atomic_Compare_Swap_Long is every PE on one at once).

func shmemRing(name, kernel, beside, desc string) ops.Info {
	return ops.Info{Name: name, Family: "shmem-ring", Kernel: kernel, Pattern: ops.PatternAll, Reduce: ops.ReduceMax, Directions: 1,
		SHMEM: true, Heap: ops.HeapSlots, Beside: beside, MinProcs: 2, MinProcsWhy: "a ring of one PE puts to itself",
		Description: desc}
}

var shmemRings = ops.Register(1400, []ops.Info{
	withQuietSubtracted(shmemRing("Shmem_Put_Ring", "shmem_ring_putmem", "Shmem_Put",
		"every PE shmem_putmem of msg_bytes to the next at once, then shmem_quiet (a ring: both sides busy)")),
	withQuietSubtracted(broken(shmemRing("Shmem_Put_Nbi_Ring", "shmem_ring_putmem_nbi", "Shmem_Put_Nbi",
		"every PE shmem_putmem_nbi of msg_bytes to the next at once, then shmem_quiet (a ring)"))),
	element(withQuietSubtracted(shmemRing("Shmem_Iput64_Ring", "shmem_ring_iput64", "Shmem_Iput64",
		"every PE shmem_iput64 of msg_bytes of 64-bit elements into every other element of the next at once, then shmem_quiet (a ring)")), 8, false),
	element(withQuietSubtracted(shmemRing("Shmem_P_Ring", "shmem_ring_long_p", "Shmem_P",
		"every PE shmem_long_p of one long to the next at once, then shmem_quiet (a ring; msg_bytes 8)")), 8, true),
	shmemRing("Shmem_Get_Ring", "shmem_ring_getmem", "Shmem_Get",
		"every PE shmem_getmem of msg_bytes from the next at once (blocking; a ring)"),
	broken(shmemRing("Shmem_Get_Nbi_Ring", "shmem_ring_getmem_nbi", "Shmem_Get_Nbi",
		"every PE shmem_getmem_nbi of msg_bytes from the next at once, then shmem_quiet (a ring)")),
	shmemRing("Shmem_Quiet_Put", "shmem_quiet_put", "",
		"every PE shmem_putmem of msg_bytes to the next at once (untimed), then its shmem_quiet timed alone: completion while every PE's puts are in flight"),
	element(shmemRing("Shmem_Iget64_Ring", "shmem_ring_iget64", "Shmem_Iget64",
		"every PE shmem_iget64 of msg_bytes of 64-bit elements from every other element of the next at once (blocking; a ring)"), 8, false),
	element(shmemRing("Shmem_G_Ring", "shmem_ring_long_g", "Shmem_G",
		"every PE shmem_long_g of one long from the next at once (blocking; a ring; msg_bytes 8)"), 8, true),
	element(shmemCswap("Shmem_Atomic_Compare_Swap_Yes", "shmem_compare_swap_yes",
		"shmem_long_atomic_compare_swap that succeeds (the condition is the value there), by the initiator on the target's long; the old value returned is checked"), 8, true),
	element(shmemCswap("Shmem_Atomic_Compare_Swap_No", "shmem_compare_swap_no",
		"shmem_long_atomic_compare_swap that fails (a condition the long never equals), by the initiator on the target's long; the old value returned is checked"), 8, true),
})

// Waiting for, and testing, a value already there, on every PE: the call by itself.
var shmemWaits = ops.Register(1500, []ops.Info{
	{Name: "Shmem_Wait_Until", Family: "shmem", Kernel: "shmem_wait_until", Pattern: ops.PatternAll, Reduce: ops.ReduceMax,
		Directions: 1, SHMEM: true, NoData: true, Heap: ops.HeapSlots,
		Description: "shmem_long_wait_until on a symmetric long of the PE's own that already holds the value, on every PE: the call by itself"},
	{Name: "Shmem_Test", Family: "shmem", Kernel: "shmem_test", Pattern: ops.PatternAll, Reduce: ops.ReduceMax,
		Directions: 1, SHMEM: true, NoData: true, Heap: ops.HeapSlots,
		Description: "shmem_long_test on a symmetric long of the PE's own that already holds the value, on every PE (it must return 1)"},
})

// broken: a ring whose _nbi call and shmem_quiet break down as a non-blocking
// operation's post, wait and overlap (SKaMPI's Shmem_*_Nonblocking_{Post,Quiet,Overlap}).
func broken(in ops.Info) ops.Info {
	in.Nonblocking = true
	in.Description += "; broken down into full, post (the _nbi call), wait (shmem_quiet) and overlap"
	return in
}

func shmemCswap(name, kernel, desc string) ops.Info {
	return ops.Info{Name: name, Family: "shmem", Kernel: kernel, Pattern: ops.PatternPair, Reduce: ops.ReduceFirst,
		Directions: 1, SHMEM: true, Heap: ops.HeapSlots, Description: desc}
}
