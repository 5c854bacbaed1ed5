package onesided

import "github.com/skampi/skampi/ops"

// The synchronisation calls timed apart, and the RMA calls alone (SKaMPI's
// Win_fence_open, Win_start_delayed_post, Win_wait_early_complete, Put, ...): each
// step times one call (kernels/rma_sync.c), the rest of its epoch untimed. The
// operations that have a late partner take the setting delay: the partner computes
// that long (the calibrated spin) before its call; delay = "0s" (the default) has none.
var _ = ops.Register(700, []ops.Info{
	fenceCall("Win_fence_open", "the opening MPI_Win_fence (MPI_MODE_NOPRECEDE) of an empty epoch timed alone, on every process; the closing fence untimed", true),
	fenceCall("Win_fence_close", "the closing MPI_Win_fence (MPI_MODE_NOSUCCEED) timed alone, on every process, after an untimed opening fence and a put of msg_bytes to the next rank", false),
	delayed(fenceCall("Win_fence_close_delayed", "as Win_fence_close, every process computing for delay between its put and the timed closing fence: whether the puts progressed meanwhile", false)),
	perProcess(fenceCall("Win_fence_close_collective", "the closing MPI_Win_fence timed alone, on every process, after every rank but 0 put msg_bytes into its own block of rank 0's window: the fence when all data converges on one process", false), false),
	minTwo(delayed(fenceCall("Caching", "rank 0's closing MPI_Win_fence timed alone after it put msg_bytes to every other rank and computed for delay: a fence that still pays for the puts shows the MPI deferred them to it", false))),
	minTwo(windowed(fenceCall("Combining_Put_fence", "the closing MPI_Win_fence timed alone, on every process, after rank 0 put `window` messages of msg_bytes to rank 1: whether the MPI combines small puts (compare window 64 × 8 B with window 1 × 512 B)", false))),
	delayed(pscwCall("Win_start", "the origin's MPI_Win_start timed alone; the target computes for delay before its MPI_Win_post (a put of msg_bytes, MPI_Win_complete and the target's MPI_Win_wait untimed)")),
	pscwCall("Win_post", "the target's MPI_Win_post timed alone (the origin's start, put of msg_bytes and complete, the target's MPI_Win_wait untimed)"),
	delayed(pscwCall("Win_complete", "the origin's MPI_Win_complete timed alone after a put of msg_bytes; the target computes for delay between its MPI_Win_post and its MPI_Win_wait")),
	delayed(pscwCall("Win_wait_late_complete", "the target's MPI_Win_wait timed alone; the origin computes for delay between its put of msg_bytes and its MPI_Win_complete")),
	delayed(pscwCall("Win_wait_early_complete", "the target's MPI_Win_wait timed alone after computing for delay since its MPI_Win_post: the origin's put of msg_bytes and complete came before")),
	windowed(delayed(pscwCall("Win_complete_n", "the origin's MPI_Win_complete timed alone after `window` puts of msg_bytes and computing for delay: whether the puts progressed before the complete, or the complete pays for all of them"))),
	delayed(pscwCall("Win_test", "the target's MPI_Win_test timed once after its MPI_Win_post (an MPI_Win_wait follows untimed if it said no); the origin computes for delay between its put of msg_bytes and its MPI_Win_complete")),
	delayed(lockKinds(callTimed(rmaSync("Win_lock_desync", "MPI_Win_lock of a target that computes for delay in each step, timed alone (method exclusive or shared); a 1-byte get, MPI_Win_flush and MPI_Win_unlock follow untimed")))),
	rmaCall("Put_callduration", "the MPI_Put call of msg_bytes alone, inside a fence epoch; the MPI_Win_fence that completes it untimed", "put_callduration"),
	rmaCall("Get_callduration", "the MPI_Get call of msg_bytes alone, inside a fence epoch; the MPI_Win_fence that completes it untimed", "get_callduration"),
	callTimed(rmaColl("Win_create", "MPI_Win_create over msg_bytes per process timed alone; MPI_Win_free untimed", true)),
	callTimed(rmaColl("Win_free", "MPI_Win_free of a window created (untimed) over msg_bytes per process, timed alone", true)),
})

// oneCall: the step's one timed call is on whichever rank makes it; the others add
// nothing, so the slowest rank's time is that call's.
func oneCall(in ops.Info) ops.Info {
	in.CallTimed, in.Reduce = true, ops.ReduceMax
	return in
}

func fenceCall(name, desc string, open bool) ops.Info {
	in := callTimed(rmaColl(name, desc, false))
	if open {
		in.NoData = true
	}
	return in
}

func pscwCall(name, desc string) ops.Info {
	in := oneCall(rma(name, desc))
	in.Windowed, in.Bandwidth = false, false
	return in
}

func rmaCall(name, desc, kernel string) ops.Info {
	in := oneCall(rma(name, desc))
	in.Windowed, in.Bandwidth = false, false
	in.Methods = []ops.Method{{Name: "fence_epoch", Kernel: kernel, Mode: "fence_epoch", Description: "inside a fence epoch"}}
	return in
}

// windowed: the step puts `window` messages (received into one slot or one each,
// recv_slots); the time is still the one timed call's.
func windowed(in ops.Info) ops.Info { in.Windowed = true; return in }

// minTwo: rank 0 puts to the other ranks, which one process alone does not have.
func minTwo(in ops.Info) ops.Info {
	in.MinProcs, in.MinProcsWhy = 2, "rank 0 puts to the other ranks"
	return in
}

// perProcess: msg_bytes is each process's block (ops.Info.PerProcess), with the
// all-to-all throughput in the records when throughput (ops.Info.Throughput).
func perProcess(in ops.Info, throughput bool) ops.Info {
	in.PerProcess, in.Throughput = true, throughput
	return in
}
