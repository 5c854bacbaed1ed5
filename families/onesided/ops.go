package onesided

import (
	"strings"

	"github.com/skampi/skampi/ops"
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
	ops.Method
	active bool
}{
	{Method: ops.Method{Name: "flush", Description: "OSU's -s flush: MPI_Win_lock (shared) on the target held through the point; the operations, then MPI_Win_flush"}},
	{Method: ops.Method{Name: "flush_local", Description: "OSU's -s flush_local: MPI_Win_lock (shared) on the target held through the point; the operations, then MPI_Win_flush_local (complete at the origin only)"}},
	{Method: ops.Method{Name: "lock", Description: "OSU's -s lock: MPI_Win_lock (shared), the operations, MPI_Win_unlock; the target is passive"}},
	{Method: ops.Method{Name: "lock_all", Description: "OSU's -s lock_all: MPI_Win_lock_all, the operations, MPI_Win_unlock_all; the target is passive"}},
	{Method: ops.Method{Name: "fence", Description: "OSU's -s fence, a ping-pong: the origin fences, operates, fences, fences; the target fences, fences, operates on the origin, fences; time per one-way epoch (half a step)"}, active: true},
	{Method: ops.Method{Name: "pscw", Description: "OSU's -s pscw, a ping-pong: the origin MPI_Win_start, operates, MPI_Win_complete, MPI_Win_post, MPI_Win_wait; the target the other way round; time per one-way epoch (half a step)"}, active: true},
	{Method: ops.Method{Name: "lock_exclusive", Description: "MPI_Win_lock (exclusive), the operations, MPI_Win_unlock; the target is passive"}},
	{Method: ops.Method{Name: "lock_all_flush", Description: "MPI_Win_lock_all held through the point; the operations, then MPI_Win_flush (skampi's lock_all before OSU's names)"}},
	{Method: ops.Method{Name: "lock_all_flush_local", Description: "MPI_Win_lock_all held through the point; the operations, then MPI_Win_flush_local (skampi's flush_local before OSU's names)"}},
	{Method: ops.Method{Name: "fence_epoch", Description: "the operations, then one MPI_Win_fence (which opens the next epoch); the target fences too (skampi's fence before OSU's names)"}, active: true},
	{Method: ops.Method{Name: "pscw_epoch", Description: "MPI_Win_start, the operations, MPI_Win_complete; the target MPI_Win_post and MPI_Win_wait (skampi's pscw before OSU's names)"}, active: true},
}

// defaultMode is the mode an operation with modes runs under when no method is named
// (RMA_OP's in kernels/rma.c), OSU's default (ops.Info.PassiveTarget reads the same).
const defaultMode = "flush"

// retiredModes are method names one-sided operations had before the modes took OSU's
// names, which no mode has now: a suite naming one is told the new name.
var retiredModes = map[string]string{
	"lock_shared": `"lock" (MPI_Win_lock shared per epoch, OSU's -s lock)`,
}

// withModes gives an operation every mode (the passive ones only, for request-based
// operations) as a method: its one kernel under the mode of that name (kernels/rma.c
// resolves it); the kernel's default mode is flush, OSU's default.
func withModes(in ops.Info, passiveOnly bool) ops.Info {
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

func rma(name, desc string) ops.Info {
	return ops.Info{Name: name, Family: "onesided", Description: desc, Kernel: strings.ToLower(name), Pattern: ops.PatternPair,
		Reduce: ops.ReduceFirst, Windowed: true, Bandwidth: true, Directions: 1, OneSided: true}
}

// typed: the operation takes a datatype and a reduction operator (reduce_op).
func typed(in ops.Info) ops.Info {
	in.Reduction, in.Datatyped, in.Combines = true, true, true
	return in
}

// swaps: compare-and-swap takes a datatype but no operator, and integers only.
func swaps(in ops.Info) ops.Info { in.Combines, in.IntegerOnly = false, true; return in }

// single: the operation moves one element of its datatype: msg_bytes is its size.
func single(in ops.Info) ops.Info { in.SingleElement = true; return in }

var _ = ops.Register(600, []ops.Info{
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
	func() ops.Info {
		in := rma("Put_Pingpong", "one-sided round trip: the origin puts, the target sees it and puts back (fence_epoch: a fence after each put; lock_all_flush: data, flush, a flag put and flushed, the other side spinning on its flag)")
		in.Methods = []ops.Method{
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
})

// The communication of a block-distributed matrix transpose (the Global Arrays seed),
// after the locks and shared counters (families/locks) as the catalogue had them.
var _ = ops.Register(660, []ops.Info{
	transpose("Transpose_Put", "block j of every process put into process j's window (staggered), then a fence: a distributed transpose's communication, msg_bytes per block"),
	transpose("Transpose_Get", "every process gets its blocks from the others' windows (staggered), then a fence: a distributed transpose's communication, msg_bytes per block"),
})

func rmaSync(name, desc string) ops.Info {
	in := rma(name, desc)
	in.Windowed, in.Bandwidth, in.NoData = false, false, true
	return in
}

// lockKinds: the methods exclusive (the kernel's default) and shared, the operation's
// kernel under the lock type of that name.
func lockKinds(in ops.Info) ops.Info {
	in.Methods = []ops.Method{
		{Name: "exclusive", Kernel: in.Kernel, Mode: "exclusive", Description: "MPI_LOCK_EXCLUSIVE"},
		{Name: "shared", Kernel: in.Kernel, Mode: "shared", Description: "MPI_LOCK_SHARED"},
	}
	return in
}

// callTimed: the kernel times one call of its step, the rest untimed.
func callTimed(in ops.Info) ops.Info { in.CallTimed = true; return in }

func rmaColl(name, desc string, singleShot bool) ops.Info {
	return ops.Info{Name: name, Family: "onesided", Description: desc, Kernel: strings.ToLower(name), Pattern: ops.PatternAll,
		Reduce: ops.ReduceMax, Directions: 1, OneSided: true, SingleShot: singleShot}
}

// noData: the operation moves no data, so it takes no datatype either.
func noData(in ops.Info) ops.Info {
	in.NoData, in.Datatyped = true, false
	return in
}

// layouts: the operation takes data_layout.
func layouts(in ops.Info) ops.Info { in.Layouts = true; return in }

// delayed: an operation whose late partner enters its call delay late (Info.Delayed).
func delayed(in ops.Info) ops.Info { in.Delayed = true; return in }

func transpose(name, desc string) ops.Info {
	in := rmaColl(name, desc, true)
	in.PerProcess, in.Throughput = true, true
	return in
}
