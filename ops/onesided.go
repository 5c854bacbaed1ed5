package ops

import (
	"slices"
	"strings"
)

// One-sided communication (MPI RMA). A point-to-point RMA operation runs on a window
// created for the point over the pair; one step is one access epoch of `window`
// operations (1: latency, more: throughput), completed inside the timing. The
// synchronisation mode is the timing method.

// rmaModes are the synchronisation modes of an access epoch.
var rmaModes = []Method{
	{Name: "fence", Description: "the operations, then MPI_Win_fence (which opens the next epoch); the target fences too"},
	{Name: "pscw", Description: "MPI_Win_start, the operations, MPI_Win_complete; the target MPI_Win_post and MPI_Win_wait"},
	{Name: "lock", Description: "MPI_Win_lock (exclusive), the operations, MPI_Win_unlock; the target is passive"},
	{Name: "lock_shared", Description: "MPI_Win_lock (shared), the operations, MPI_Win_unlock; the target is passive"},
	{Name: "lock_all", Description: "MPI_Win_lock_all held through the point; the operations, then MPI_Win_flush"},
	{Name: "flush_local", Description: "MPI_Win_lock_all held through the point; the operations, then MPI_Win_flush_local (complete at the origin only)"},
}

// withModes gives an operation the modes named (all when none), each with its kernel
// NAME_MODE; the default kernel is lock_all's, MPI-3's usual passive epoch.
func withModes(in Info, names ...string) Info {
	for _, m := range rmaModes {
		if len(names) == 0 || slices.Contains(names, m.Name) {
			m.Kernel = in.Kernel + "_" + m.Name
			in.Methods = append(in.Methods, m)
		}
	}
	in.Kernel += "_lock_all"
	return in
}

func rma(name, desc string) Info {
	return Info{Name: name, Family: "onesided", Description: desc, Kernel: strings.ToLower(name), Pattern: PatternPair,
		Reduce: ReduceFirst, Windowed: true, Bandwidth: true, Directions: 1, OneSided: true}
}

// typed: the operation takes a datatype and a reduction operator (reduce_op).
func typed(in Info) Info {
	in.Reduction, in.Datatyped, in.Combines = true, true, true
	return in
}

// swaps: compare-and-swap takes a datatype but no operator.
func swaps(in Info) Info { in.Combines = false; return in }

// single: the operation moves one element of its datatype: msg_bytes is its size.
func single(in Info) Info { in.SingleElement = true; return in }

var passive = []string{"lock", "lock_shared", "lock_all", "flush_local"}

var onesidedOps = []Info{
	withModes(rma("Put", "MPI_Put of msg_bytes to the peer's window, window operations per epoch")),
	withModes(rma("Get", "MPI_Get of msg_bytes from the peer's window, window operations per epoch")),
	withModes(typed(rma("Accumulate", "MPI_Accumulate of msg_bytes into the peer's window (datatype, reduce_op)"))),
	withModes(typed(rma("Get_accumulate", "MPI_Get_accumulate of msg_bytes: the old value back, the new one combined (datatype, reduce_op)"))),
	withModes(single(typed(rma("Fetch_and_op", "MPI_Fetch_and_op on one element (msg_bytes = the datatype's size; reduce_op)")))),
	withModes(swaps(single(typed(rma("Compare_and_swap", "MPI_Compare_and_swap on one element (msg_bytes = the datatype's size, an integer type)"))))),
	withModes(rma("Rput", "request-based MPI_Rput, MPI_Waitall for local completion, then the epoch's completion (passive modes only)"), passive...),
	withModes(rma("Rget", "request-based MPI_Rget, MPI_Waitall, then the epoch's completion (passive modes only)"), passive...),
	func() Info {
		in := withModes(rma("Put_Pingpong", "one-sided round trip: the origin puts, the target sees it and puts back (fence: a fence after each put; lock_all: data, flush, a flag put and flushed, the other side spinning on its flag)"),
			"fence", "lock_all")
		in.Windowed, in.Bandwidth, in.RoundTrip, in.Directions = false, false, true, 2
		return in
	}(),
	// The synchronisation calls alone.
	rmaSync("Win_pscw", "an empty post-start-complete-wait epoch: the origin's MPI_Win_start + MPI_Win_complete, the target's MPI_Win_post + MPI_Win_wait"),
	func() Info {
		in := rmaSync("Win_lock_unlock", "MPI_Win_lock + MPI_Win_unlock of the peer's window, no operation (method exclusive or shared)")
		in.Methods = []Method{
			{Name: "exclusive", Kernel: "win_lock_unlock_exclusive", Description: "MPI_LOCK_EXCLUSIVE"},
			{Name: "shared", Kernel: "win_lock_unlock_shared", Description: "MPI_LOCK_SHARED"},
		}
		in.Kernel = "win_lock_unlock_exclusive"
		return in
	}(),
	rmaSync("Win_flush", "MPI_Win_flush to the peer under lock_all with nothing outstanding (Put under lock_all is the flush with one)"),
	rmaSync("Win_flush_all", "MPI_Win_flush_all under lock_all with nothing outstanding"),
	noData(rmaColl("Win_fence", "MPI_Win_fence on a window of every process, no operation", true)),
	rmaColl("Win_allocate_free", "MPI_Win_allocate of msg_bytes per process, then MPI_Win_free", true),
	rmaColl("Win_create_free", "MPI_Win_create over msg_bytes per process, then MPI_Win_free", true),
	rmaColl("Win_create_dynamic_free", "MPI_Win_create_dynamic, MPI_Win_attach of msg_bytes, MPI_Win_detach, MPI_Win_free", true),
	// Locks.
	func() Info {
		in := contended(rmaColl("Lock_Contention", "every process but rank 0 of the communicator locks and unlocks rank 0's window at once (method exclusive or shared): time per acquisition + release", false),
			"rank 0 is the target, only the others contend")
		in.Methods = []Method{
			{Name: "exclusive", Kernel: "lock_contention_exclusive", Description: "MPI_LOCK_EXCLUSIVE"},
			{Name: "shared", Kernel: "lock_contention_shared", Description: "MPI_LOCK_SHARED"},
		}
		in.Kernel = "lock_contention_exclusive"
		return in
	}(),
	func() Info {
		in := contended(rmaColl("Lock_Held", "rank 0 holds its window's exclusive lock for lock_hold (busy), the others ask for it once told: the time they wait, and a check that none got it while held", false),
			"rank 0 holds the lock, the others wait for it")
		in.LockHold = true
		return in
	}(),
	func() Info {
		in := contended(rmaColl("Counter_Fetch_and_op", "a shared counter at rank 0 incremented by every process with MPI_Fetch_and_op under lock_all + flush; checked after every run", false),
			"the counter is shared: one process has nobody to share it with")
		return in
	}(),
	func() Info {
		in := contended(rmaColl("Counter_Lock_Get_Put", "a shared counter at rank 0 incremented by every process with lock, get, flush, put, unlock; checked after every run", false),
			"the counter is shared: one process has nobody to share it with")
		return in
	}(),
	// The communication of a block-distributed matrix transpose (the Global Arrays seed).
	transpose("Transpose_Put", "block j of every process put into process j's window (staggered), then a fence: a distributed transpose's communication, msg_bytes per block"),
	transpose("Transpose_Get", "every process gets its blocks from the others' windows (staggered), then a fence: a distributed transpose's communication, msg_bytes per block"),
}

func rmaSync(name, desc string) Info {
	in := rma(name, desc)
	in.Windowed, in.Bandwidth, in.NoData = false, false, true
	return in
}

// contended: a lock or counter at rank 0 that the others take or increment, which
// one process alone has nobody to share with.
func contended(in Info, why string) Info {
	in.Family, in.NoData, in.MinProcs, in.MinProcsWhy = "locks", true, 2, why
	return in
}

func rmaColl(name, desc string, singleShot bool) Info {
	return Info{Name: name, Family: "onesided", Description: desc, Kernel: strings.ToLower(name), Pattern: PatternAll,
		Reduce: ReduceMax, Directions: 1, OneSided: true, SingleShot: singleShot}
}

func transpose(name, desc string) Info {
	in := rmaColl(name, desc, true)
	in.PerProcess, in.Throughput = true, true
	return in
}
