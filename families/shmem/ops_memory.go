package shmem

import "github.com/skampi/skampi/ops"

// OpenSHMEM's locks, symmetric memory and the GROMACS send-receives
// (families/shmem/kernels: locks.c, memory.c, sendrecv.c).

// lockServer gives a lock operation the choice of the PE that serves its lock. Open
// MPI's OSHMEM serves a lock from the PE (heap offset of the lock / 8) % npes, so the
// kernels place it, and check where it is served before the point (it fails if not
// there).
func lockServer(in ops.Info) ops.Info {
	in.Methods = []ops.Method{
		{Name: "local", Kernel: in.Kernel,
			Description: "the lock is served by the communicator's first PE (procs = 1: by the PE itself, a local lock)"},
		{Name: "remote", Kernel: in.Kernel + "_remote",
			Description: "the lock is served by the PE after the communicator's first (procs = 1: by an idle PE, a remote lock; more: by the second member)"},
	}
	in.Description += "; served by the communicator's first PE, or by the next with method = remote"
	return in
}

func shmemLock(name, kernel, desc string) ops.Info {
	return ops.Info{Name: name, Family: "shmem-locks", Kernel: kernel, Pattern: ops.PatternAll, Reduce: ops.ReduceMax,
		Directions: 1, SHMEM: true, NoData: true, Heap: ops.HeapLock, Description: desc}
}

func minProcs(in ops.Info, n int, why string) ops.Info {
	in.MinProcs, in.MinProcsWhy = n, why
	return in
}

// OpenSHMEM's locks, taken by the members of the communicator: procs = 1 is
// uncontended, more is contention.
var shmemLocks = ops.Register(1000, []ops.Info{
	lockServer(shmemLock("Shmem_Lock_Contention", "shmem_lock_contention",
		"shmem_set_lock + shmem_clear_lock of one lock by every PE of the communicator at once, in one loop: time per acquisition and release")),
	lockServer(shmemLock("Shmem_Set_Lock", "shmem_set_lock",
		"shmem_set_lock alone (timed one call at a time), by every PE of the communicator at once; the shmem_clear_lock after it untimed")),
	lockServer(shmemLock("Shmem_Clear_Lock", "shmem_clear_lock",
		"shmem_clear_lock alone (timed one call at a time), by every PE of the communicator at once; the shmem_set_lock before it untimed")),
	lockServer(shmemLock("Shmem_Test_Lock_Spin", "shmem_test_lock_spin",
		"shmem_test_lock spun until it succeeds, then shmem_clear_lock, by every PE of the communicator at once: acquisition by polling")),
	minProcs(shmemLock("Shmem_Test_Lock", "shmem_test_lock",
		"one shmem_test_lock on a lock the communicator's first PE holds and serves (the method paper's Fig. 9b), timed alone by every other PE once told: it must return 1 (held), a 0 fails the point"),
		2, "the first PE holds the lock, the others test it"),
	minProcs(shmemLock("Shmem_Test_Lock_Turns", "shmem_test_lock_turns",
		"one shmem_test_lock on a lock the communicator's first PE holds and serves, timed alone by every other PE in turn, one at a time (each told by the holder when the one before is done; the method paper's Fig. 9, SKaMPI's Shmem_Lock_Test_Busy_Turns): it must return 1 (held)"),
		2, "the first PE holds the lock, the others test it"),
	minProcs(shmemLock("Shmem_Test_Lock_Round", "shmem_test_lock_round",
		"every PE of the communicator holds the lock in turn while the others test it one at a time (one shmem_test_lock each, timed alone, which must return 1; SKaMPI's Shmem_Lock_Test_Busy_Round): a PE's time is the mean of its tests of a lock held by each other PE; the first PE serves the lock"),
		2, "one PE holds the lock, the others test it"),
	func() ops.Info {
		in := minProcs(shmemLock("Shmem_Lock_Held", "shmem_lock_held",
			"the first PE holds the lock (and serves it) for lock_hold (busy), the others ask for it once told: the time they wait, and a check that none got it while held"),
			2, "the first PE holds the lock, the others wait for it")
		in.LockHold = true
		return in
	}(),
})

// Contexts, symmetric memory and completion across PEs. The memory routines and the
// puts to every PE involve every PE of the job (shmem_malloc is collective over all):
// they take no procs. Shmem_Malloc, Shmem_Free and Shmem_Realloc time their call alone
// (the others in the step untimed), as SKaMPI does.
var shmemMemory = ops.Register(1100, []ops.Info{
	{Name: "Shmem_Ctx_Create_Destroy", Family: "shmem", Kernel: "shmem_ctx_create_destroy", Pattern: ops.PatternPair,
		Reduce: ops.ReduceFirst, Directions: 1, SHMEM: true, NoData: true, Heap: ops.HeapSlots,
		Description: "shmem_ctx_create + shmem_ctx_destroy on the initiator"},
	shmemRMA("Shmem_Ctx_Put", "shmem_ctx_putmem", "shmem_ctx_putmem on a private context, window puts then shmem_ctx_quiet (beside Shmem_Put on the default context)", true),
	shmemMem("Shmem_Malloc_Free", "shmem_malloc_free", ops.HeapMalloc,
		"shmem_malloc of msg_bytes + shmem_free, both timed, on every PE (each a collective with a barrier)"),
	shmemMem("Shmem_Calloc_Free", "shmem_calloc_free", ops.HeapMalloc,
		"shmem_calloc of msg_bytes (zeroed) + shmem_free, both timed, on every PE (each a collective with a barrier): beside Shmem_Malloc_Free, the cost of the zeroing"),
	shmemMem("Shmem_Malloc", "shmem_malloc", ops.HeapMalloc,
		"shmem_malloc of msg_bytes alone, on every PE (a collective with a barrier); the shmem_free after it untimed"),
	shmemMem("Shmem_Calloc", "shmem_calloc", ops.HeapMalloc,
		"shmem_calloc of msg_bytes (zeroed) alone, on every PE (a collective with a barrier); the shmem_free after it untimed"),
	shmemMem("Shmem_Free", "shmem_free", ops.HeapMalloc,
		"shmem_free of msg_bytes alone, on every PE (a collective with a barrier); the shmem_malloc before it untimed"),
	shmemMem("Shmem_Realloc", "shmem_realloc", ops.HeapRealloc,
		"shmem_realloc of msg_bytes to twice it alone, on every PE; the shmem_malloc before it and the shmem_free after it untimed"),
	shmemMem("Shmem_Align", "shmem_align", ops.HeapAlign,
		"shmem_align to 4 KiB of msg_bytes alone, on every PE (a collective with a barrier); the shmem_free after it untimed"),
	shmemMem("Shmem_Align_Free", "shmem_align_free", ops.HeapAlign,
		"shmem_align to 4 KiB of msg_bytes + shmem_free, both timed, on every PE"),
	wholeJob(ops.Info{Name: "Shmem_Puts_Fence", Family: "shmem", Kernel: "shmem_puts_fence", Pattern: ops.PatternAll,
		Reduce: ops.ReduceMax, Directions: 1, SHMEM: true, Heap: ops.HeapSlots,
		Description: "every PE puts msg_bytes to every other PE, then shmem_fence (ordering only)"}),
	wholeJob(ops.Info{Name: "Shmem_Puts_Quiet", Family: "shmem", Kernel: "shmem_puts_quiet", Pattern: ops.PatternAll,
		Reduce: ops.ReduceMax, Directions: 1, SHMEM: true, Heap: ops.HeapSlots,
		Description: "every PE puts msg_bytes to every other PE, then shmem_quiet (completion)"}),
})

func shmemMem(name, kernel string, heap ops.Heap, desc string) ops.Info {
	return wholeJob(ops.Info{Name: name, Family: "shmem-memory", Kernel: kernel, Pattern: ops.PatternAll, Reduce: ops.ReduceMax,
		Directions: 1, SHMEM: true, SingleShot: true, Heap: heap, Description: desc})
}

// shmemShift: with the setting delay, the last PE enters each exchange delay late
// (GROMACS's imbalance, seed 000); the time holds the delay.
func shmemShift(name, kernel string, heap ops.Heap, desc string) ops.Info {
	return wholeJob(ops.Info{Name: name, Family: "shmem", Kernel: kernel, Pattern: ops.PatternAll, Reduce: ops.ReduceMax,
		Directions: 1, SHMEM: true, Beside: "Sendrecv_Shift", Heap: heap, Delayed: true,
		Description: desc + "; with delay, the last PE enters each exchange that late"})
}

// The GROMACS pattern (seed 000): a send-receive over a shift, in OpenSHMEM, beside
// MPI_Sendrecv over the same shift: with a lock, a put and post/done flags (the seed's
// first version); the seed's final version (call counter, size and offset swap, data
// received in place and read); and that offset exchange stripped to its lower bound.
var shmemSendrecvs = ops.Register(1300, []ops.Info{
	shmemShift("Shmem_Sendrecv_Shift", "shmem_sendrecv_shift", ops.HeapShift,
		"every PE sends msg_bytes to the next and receives from the previous, GROMACS's way: shmem_set_lock on the destination's buffer, shmem_putmem, shmem_fence, a post flag, wait for ours, copy out, a done flag back, wait for ours, shmem_clear_lock"),
	shmemShift("Shmem_Sendrecv_Shift_Offset", "shmem_sendrecv_shift_offset", ops.HeapShiftOffset,
		"lower bound of the offset exchange (no call counter, no size exchange, data not read): every PE puts on its sender the offset where it wants the data (alternately two halves of its buffer), waits for its receiver's, puts msg_bytes there, shmem_fence, a post flag; received in place"),
	shmemShift("Shmem_Sendrecv_Shift_Seed", "shmem_sendrecv_shift_seed", ops.HeapShiftSeed,
		"the seed's final send-receive over the shift: wait for the partners' call counters (shmem_long_g and sched_yield, as shmem_wait_for_previous_call), the receiver puts the size it expects and the offset on its sender, the sender puts msg_bytes there, shmem_fence, a post flag; the receiver reads every byte received, then counts the call"),
})
