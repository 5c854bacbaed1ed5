package ops

import (
	"strings"
)

// One-sided communication (MPI RMA). A point-to-point RMA operation runs on a window
// created for the point over the pair; one step is one access epoch of `window`
// operations (1: latency, more: throughput), completed inside the timing. The
// synchronisation mode is the timing method.

// rmaModes are the synchronisation modes of an access epoch. Where OSU's one-sided
// latency tests (osu_put_latency, osu_get_latency, osu_acc_latency -s MODE) have a
// sequence, the mode has OSU's name and does OSU's sequence (OSU also reads the clock
// twice per operation inside its loop; skampi times the loop); skampi's own sequences
// have names of their own. Active says the target takes part.
var rmaModes = []struct {
	Method
	active bool
}{
	{Method: Method{Name: "flush", Description: "OSU's -s flush: MPI_Win_lock (shared) on the target held through the point; the operations, then MPI_Win_flush"}},
	{Method: Method{Name: "flush_local", Description: "OSU's -s flush_local: MPI_Win_lock (shared) on the target held through the point; the operations, then MPI_Win_flush_local (complete at the origin only)"}},
	{Method: Method{Name: "lock", Description: "OSU's -s lock: MPI_Win_lock (shared), the operations, MPI_Win_unlock; the target is passive"}},
	{Method: Method{Name: "lock_all", Description: "OSU's -s lock_all: MPI_Win_lock_all, the operations, MPI_Win_unlock_all; the target is passive"}},
	{Method: Method{Name: "fence", Description: "OSU's -s fence, a ping-pong: the origin fences, operates, fences, fences; the target fences, fences, operates on the origin, fences; time per one-way epoch (half a step)"}, active: true},
	{Method: Method{Name: "pscw", Description: "OSU's -s pscw, a ping-pong: the origin MPI_Win_start, operates, MPI_Win_complete, MPI_Win_post, MPI_Win_wait; the target the other way round; time per one-way epoch (half a step)"}, active: true},
	{Method: Method{Name: "lock_exclusive", Description: "MPI_Win_lock (exclusive), the operations, MPI_Win_unlock; the target is passive"}},
	{Method: Method{Name: "lock_all_flush", Description: "MPI_Win_lock_all held through the point; the operations, then MPI_Win_flush (skampi's lock_all before OSU's names)"}},
	{Method: Method{Name: "lock_all_flush_local", Description: "MPI_Win_lock_all held through the point; the operations, then MPI_Win_flush_local (skampi's flush_local before OSU's names)"}},
	{Method: Method{Name: "fence_epoch", Description: "the operations, then one MPI_Win_fence (which opens the next epoch); the target fences too (skampi's fence before OSU's names)"}, active: true},
	{Method: Method{Name: "pscw_epoch", Description: "MPI_Win_start, the operations, MPI_Win_complete; the target MPI_Win_post and MPI_Win_wait (skampi's pscw before OSU's names)"}, active: true},
}

// defaultMode is the mode an operation with modes runs under when no method is named
// (RMA_OP's in families/onesided/kernels/rma.c), OSU's default.
const defaultMode = "flush"

// PassiveTarget: the operation under the method named (its default mode when "")
// leaves its target passive, so the target can be kept busy (target_busy).
func (in Info) PassiveTarget(method string) bool {
	if method == "" && in.TargetPassive {
		return true
	}
	if method == "" && in.OneSided {
		method = defaultMode
	}
	m, ok := in.Method(method)
	return ok && m.Passive
}

// retiredModes are method names one-sided operations had before the modes took OSU's
// names, which no mode has now: a suite naming one is told the new name.
var retiredModes = map[string]string{
	"lock_shared": `"lock" (MPI_Win_lock shared per epoch, OSU's -s lock)`,
}

// withModes gives an operation every mode (the passive ones only, for request-based
// operations) as a method: its one kernel under the mode of that name (families/onesided/kernels/rma.c
// resolves it); the kernel's default mode is flush, OSU's default.
func withModes(in Info, passiveOnly bool) Info {
	for _, m := range rmaModes {
		if passiveOnly && m.active {
			continue
		}
		m.Kernel, m.Mode, m.Passive = in.Kernel, m.Name, !m.active
		in.Methods = append(in.Methods, m.Method)
		if m.Name == defaultMode {
			in.DefaultMethod = defaultMode
		}
	}
	in.RetiredMethods = retiredModes
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

// swaps: compare-and-swap takes a datatype but no operator, and integers only.
func swaps(in Info) Info { in.Combines, in.IntegerOnly = false, true; return in }

// single: the operation moves one element of its datatype: msg_bytes is its size.
func single(in Info) Info { in.SingleElement = true; return in }

var onesidedOps = register(600, []Info{
	layouts(withModes(rma("Put", "MPI_Put of msg_bytes to the peer's window, window operations per epoch"), false)),
	layouts(withModes(rma("Get", "MPI_Get of msg_bytes from the peer's window, window operations per epoch"), false)),
	layouts(withModes(typed(rma("Accumulate", "MPI_Accumulate of msg_bytes into the peer's window (datatype, reduce_op)")), false)),
	withModes(typed(rma("Get_accumulate", "MPI_Get_accumulate of msg_bytes: the old value back, the new one combined (datatype, reduce_op)")), false),
	withModes(single(typed(rma("Fetch_and_op", "MPI_Fetch_and_op on one element (msg_bytes = the datatype's size; reduce_op)"))), false),
	withModes(swaps(single(typed(rma("Compare_and_swap", "MPI_Compare_and_swap on one element (msg_bytes = the datatype's size, an integer type)")))), false),
	withModes(rma("Rput", "request-based MPI_Rput, MPI_Waitall for local completion, then the epoch's completion (passive modes only)"), true),
	withModes(rma("Rget", "request-based MPI_Rget, MPI_Waitall, then the epoch's completion (passive modes only)"), true),
	withModes(typed(rma("Raccumulate", "request-based MPI_Raccumulate of msg_bytes (datatype, reduce_op), MPI_Waitall, then the epoch's completion (passive modes only)")), true),
	withModes(typed(rma("Rget_accumulate", "request-based MPI_Rget_accumulate of msg_bytes: the old value back, the new one combined (datatype, reduce_op); MPI_Waitall, then the epoch's completion (passive modes only)")), true),
	func() Info {
		in := rma("Put_Pingpong", "one-sided round trip: the origin puts, the target sees it and puts back (fence_epoch: a fence after each put; lock_all_flush: data, flush, a flag put and flushed, the other side spinning on its flag)")
		in.Methods = []Method{
			{Name: "fence_epoch", Kernel: "put_pingpong", Mode: "fence_epoch", Description: "a put, then MPI_Win_fence, each way"},
			{Name: "lock_all_flush", Kernel: "put_pingpong", Mode: "lock_all_flush", Description: "MPI_Win_lock_all held through the point; the data, MPI_Win_flush, a flag put and flushed; the other side spins on its flag"},
		}
		in.RetiredMethods = map[string]string{"fence": `"fence_epoch" (a put, then a fence, each way)`,
			"lock_all": `"lock_all_flush" (lock_all held through the point, put and flush)`}
		in.Windowed, in.Bandwidth, in.RoundTrip, in.Directions = false, false, true, 2
		return in
	}(),
	// The synchronisation calls alone. An empty epoch may cost nothing in a lazy MPI
	// (MPICH takes a lock with the epoch's first operation, and an empty start-complete
	// need not wait for the post): the forms with a 1-byte get inside cannot be skipped.
	rmaSync("Win_pscw", "an empty post-start-complete-wait epoch: the origin's MPI_Win_start + MPI_Win_complete, the target's MPI_Win_post + MPI_Win_wait (a lazy MPI may skip the wait for the post: Win_pscw_get cannot)"),
	rmaSync("Win_pscw_get", "a post-start-complete-wait epoch with one 1-byte MPI_Get inside (whatever msg_bytes): MPI_Win_start, the get, MPI_Win_complete; the target MPI_Win_post + MPI_Win_wait"),
	lockKinds(rmaSync("Win_lock_unlock", "MPI_Win_lock + MPI_Win_unlock of the peer's window, no operation (method exclusive or shared): a lazy MPI may take no lock at all (Win_lock_get_unlock cannot)")),
	lockKinds(rmaSync("Win_lock_get_unlock", "MPI_Win_lock, one 1-byte MPI_Get (whatever msg_bytes), MPI_Win_unlock of the peer's window (method exclusive or shared): the lock is really taken")),
	lockKinds(callTimed(rmaSync("Win_lock", "MPI_Win_lock of the peer's window timed alone (method exclusive or shared); a 1-byte get, MPI_Win_flush and MPI_Win_unlock follow untimed (a lazy MPI returns at once and takes the lock with the get)"))),
	lockKinds(callTimed(rmaSync("Win_unlock", "MPI_Win_unlock of the peer's window timed alone (method exclusive or shared), after an untimed MPI_Win_lock, 1-byte get and MPI_Win_flush: the release of a lock really held"))),
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
		return lockKinds(in)
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
})

func rmaSync(name, desc string) Info {
	in := rma(name, desc)
	in.Windowed, in.Bandwidth, in.NoData = false, false, true
	return in
}

// lockKinds: the methods exclusive (the kernel's default) and shared, the operation's
// kernel under the lock type of that name.
func lockKinds(in Info) Info {
	in.Methods = []Method{
		{Name: "exclusive", Kernel: in.Kernel, Mode: "exclusive", Description: "MPI_LOCK_EXCLUSIVE"},
		{Name: "shared", Kernel: in.Kernel, Mode: "shared", Description: "MPI_LOCK_SHARED"},
	}
	return in
}

// callTimed: the kernel times one call of its step, the rest untimed.
func callTimed(in Info) Info { in.CallTimed = true; return in }

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
