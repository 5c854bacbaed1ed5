package shmem

import (
	"strings"

	"github.com/skampi/skampi/ops"
)

// OpenSHMEM operations (families/shmem/kernels runs them). Puts and gets are
// non-blocking in the engine's sense: the post is the routine, the completion
// shmem_quiet, so a point breaks down into put + quiet (full), the time inside the put
// call (post), quiet after the put (wait) and the overlap with a computation — the
// method paper's measurements of SHMEM puts. A pair's initiator is the origin; the target is passive.

func shmemRMA(name, kernel, desc string, windowed bool) ops.Info {
	return ops.Info{Name: name, Family: "shmem", Description: desc, Kernel: kernel, Pattern: ops.PatternPair,
		Reduce: ops.ReduceFirst, Directions: 1, Nonblocking: true, Windowed: windowed, Bandwidth: windowed, SHMEM: true,
		TargetPassive: true, Heap: ops.HeapSlots}
}

// shmemGet: a blocking get, which returns with its data: timed alone, with no
// completion after it (osu_oshm_get's measurement).
func shmemGet(name, kernel, desc string, windowed bool) ops.Info {
	in := shmemRMA(name, kernel, desc, windowed)
	in.Nonblocking = false
	return in
}

// quietSubtracted: the method paper's put latency (§3.1, Fig. 1): the operation and its
// shmem_quiet, less an empty shmem_quiet measured in alternation with it (the raw time
// stays in the record: time_s + subtracted_s).
var quietSubtracted = ops.Method{Name: "quiet_subtracted", Subtract: "Shmem_Quiet",
	Description: "the operation and its shmem_quiet, less an empty shmem_quiet measured in alternation (subtracted_s)"}

func withQuietSubtracted(in ops.Info) ops.Info {
	m := quietSubtracted
	m.Kernel = in.Kernel // the whole is the operation's own loop
	in.Methods = append(in.Methods, m)
	return in
}

func element(in ops.Info, bytes int64, single bool) ops.Info {
	in.ElementBytes, in.SingleElement = bytes, single
	return in
}

var shmemOps = ops.Register(800, []ops.Info{
	withQuietSubtracted(shmemRMA("Shmem_Put", "shmem_putmem", "shmem_putmem of msg_bytes, window puts then shmem_quiet", true)),
	withQuietSubtracted(shmemRMA("Shmem_Put_Nbi", "shmem_putmem_nbi", "shmem_putmem_nbi of msg_bytes, window puts then shmem_quiet", true)),
	shmemGet("Shmem_Get", "shmem_getmem", "shmem_getmem of msg_bytes into a private buffer (blocking: no completion after it), window gets back to back", true),
	shmemGet("Shmem_Get_Symmetric", "shmem_getmem_symmetric", "shmem_getmem of msg_bytes into the initiator's symmetric memory, as osu_oshm_get does (blocking, window gets back to back)", true),
	shmemRMA("Shmem_Get_Nbi", "shmem_getmem_nbi", "shmem_getmem_nbi of msg_bytes, window gets then shmem_quiet", true),
	element(shmemRMA("Shmem_Put8", "shmem_put8", "shmem_put8: msg_bytes of 8-bit elements, window puts then shmem_quiet", true), 1, false),
	element(shmemRMA("Shmem_Put16", "shmem_put16", "shmem_put16: msg_bytes of 16-bit elements, then shmem_quiet", true), 2, false),
	element(shmemRMA("Shmem_Put32", "shmem_put32", "shmem_put32: msg_bytes of 32-bit elements, then shmem_quiet", true), 4, false),
	element(shmemRMA("Shmem_Put64", "shmem_put64", "shmem_put64: msg_bytes of 64-bit elements, then shmem_quiet", true), 8, false),
	element(shmemGet("Shmem_Get8", "shmem_get8", "shmem_get8: msg_bytes of 8-bit elements (blocking)", true), 1, false),
	element(shmemGet("Shmem_Get16", "shmem_get16", "shmem_get16: msg_bytes of 16-bit elements (blocking)", true), 2, false),
	element(shmemGet("Shmem_Get32", "shmem_get32", "shmem_get32: msg_bytes of 32-bit elements (blocking)", true), 4, false),
	element(shmemGet("Shmem_Get64", "shmem_get64", "shmem_get64: msg_bytes of 64-bit elements (blocking)", true), 8, false),
	element(shmemRMA("Shmem_Iput64", "shmem_iput64", "shmem_iput64: msg_bytes of 64-bit elements into every other target element, then shmem_quiet", true), 8, false),
	element(shmemGet("Shmem_Iget64", "shmem_iget64", "shmem_iget64: msg_bytes of 64-bit elements from every other source element (blocking)", true), 8, false),
	element(withQuietSubtracted(shmemRMA("Shmem_P", "shmem_long_p", "shmem_long_p of one long (msg_bytes 8), then shmem_quiet", false)), 8, true),
	element(shmemGet("Shmem_G", "shmem_long_g", "shmem_long_g of one long (msg_bytes 8; blocking)", false), 8, true),
	// Many pairs at once, OSU's message-rate tests (osu_oshm_put_mr, put_mr_nb,
	// get_mr_nb) as Multipair_Bandwidth is osu_mbw_mr's: PE i with PE i + p/2.
	multipair("Shmem_Multipair_Put", "shmem_multipair_putmem", "every PE of the first half shmem_putmem's a window of msg_bytes to its partner in the second half (PE i to i + p/2) at once, then one shmem_quiet (osu_oshm_put_mr); the slowest PE's time, bandwidth and messages/s summed over pairs"),
	multipair("Shmem_Multipair_Put_Nbi", "shmem_multipair_putmem_nbi", "every PE of the first half shmem_putmem_nbi's a window of msg_bytes to its partner in the second half at once, then one shmem_quiet (osu_oshm_put_mr_nb); the slowest PE's time, bandwidth and messages/s summed over pairs"),
	multipair("Shmem_Multipair_Get_Nbi", "shmem_multipair_getmem_nbi", "every PE of the first half shmem_getmem_nbi's a window of msg_bytes from its partner in the second half at once, then one shmem_quiet (osu_oshm_get_mr_nb); the slowest PE's time, bandwidth and messages/s summed over pairs"),
	// Every PE of the communicator: subtracted from a pair's put, the initiator's
	// counts; from the atomics, the slowest PE's, as theirs does.
	{Name: "Shmem_Quiet", Family: "shmem", Kernel: "shmem_quiet", Pattern: ops.PatternAll, Reduce: ops.ReduceMax, Directions: 1,
		SHMEM: true, NoData: true, Heap: ops.HeapSlots,
		Description: "shmem_quiet with nothing outstanding, on every PE of the communicator: what completion costs by itself (subtracted by method quiet_subtracted)"},
	{Name: "Shmem_Fence", Family: "shmem", Kernel: "shmem_fence", Pattern: ops.PatternAll, Reduce: ops.ReduceMax, Directions: 1,
		SHMEM: true, NoData: true, Heap: ops.HeapSlots,
		Description: "shmem_fence with nothing outstanding, on every PE of the communicator"},
	shmemRMA("Shmem_Put_Fence", "shmem_putmem_fence", "shmem_putmem then shmem_fence (ordering, not completion): the fence after a put by subtraction", false),
	{Name: "Shmem_Put_Pingpong", Family: "shmem", Kernel: "shmem_put_pingpong", Pattern: ops.PatternPair, Reduce: ops.ReduceFirst,
		RoundTrip: true, Directions: 2, SHMEM: true, Heap: ops.HeapSlots,
		Description: "round trip: shmem_putmem, shmem_fence, a flag by shmem_long_p, shmem_quiet; the peer's shmem_long_wait_until, and back"},
})

// multipair: a put or get and its shmem_quiet in one step (no breakdown), on every
// pair at once; the partners in the second half are passive.
func multipair(name, kernel, desc string) ops.Info {
	return ops.Info{Name: name, Family: "shmem", Description: desc, Kernel: kernel, Pattern: ops.PatternPairs,
		Reduce: ops.ReduceMax, Directions: 1, Windowed: true, Bandwidth: true, SHMEM: true, Heap: ops.HeapSlots}
}

func wholeJob(in ops.Info) ops.Info { in.WholeJob = true; return in }

// OpenSHMEM collectives on the communicator's active set (64-bit elements; msg_bytes
// one PE's data), one call per repetition after a barrier: that is what lets their
// pSync arrays be reused.
func shmemColl(name, kernel, desc string, elem int64) ops.Info {
	return ops.Info{Name: name, Family: "shmem-coll", Kernel: kernel, Pattern: ops.PatternAll, Reduce: ops.ReduceMax,
		Directions: 1, SHMEM: true, SingleShot: true, ElementBytes: elem, Description: desc, Heap: ops.HeapColl, NoData: elem == 0}
}

var shmemCollectives = ops.Register(1200, []ops.Info{
	func() ops.Info {
		in := shmemColl("Shmem_Broadcast", "shmem_broadcast", "shmem_broadcast64 from the root; method = barrier, sync, rounds, ack", 8)
		in.Rooted = true
		in.Methods = []ops.Method{
			{Name: "barrier", Kernel: "shmem_broadcast_barrier", Subtract: "Shmem_Barrier",
				Description: "Alg. 1: shmem_broadcast64 + shmem_barrier, less a barrier measured right after"},
			{Name: "sync", Kernel: "shmem_broadcast", WindowSync: true,
				Description: "Alg. 2: every broadcast starts at an agreed instant on a global clock"},
			{Name: "rounds", Kernel: "shmem_broadcast_rounds",
				Description: "Alg. 3: a broadcast from every PE in turn (its own pSync each), divided by their number"},
			{Name: "ack", Kernel: "shmem_broadcast_ack", RootTimed: true, PerTask: true, OrderChecked: true,
				Description: "Alg. 4-5, one-sided: every PE in turn acknowledges with an atomic fetch-and-increment on the root's counter, which the root waits for; the acknowledgement's one-way time, measured first, is subtracted"},
		}
		return in
	}(),
	shmemColl("Shmem_Barrier", "shmem_barrier", "shmem_barrier on the active set", 0),
	shmemColl("Shmem_Sync", "shmem_sync", "shmem_sync on the active set: synchronisation without completing puts (OpenSHMEM 1.5's team sync, in 1.4's form)", 0),
	wholeJob(shmemColl("Shmem_Barrier_All", "shmem_barrier_all", "shmem_barrier_all (every PE)", 0)),
	wholeJob(shmemColl("Shmem_Sync_All", "shmem_sync_all", "shmem_sync_all (every PE; synchronisation without completing puts)", 0)),
	threeWays(reduction(shmemColl("Shmem_Long_Sum_To_All", "shmem_long_sum_to_all", "shmem_long_sum_to_all of msg_bytes of longs", 8))),
	threeWays(reduction(shmemColl("Shmem_Long_Max_To_All", "shmem_long_max_to_all", "shmem_long_max_to_all of msg_bytes of longs", 8))),
	threeWays(reduction(shmemColl("Shmem_Int_Sum_To_All", "shmem_int_sum_to_all", "shmem_int_sum_to_all of msg_bytes of ints", 4))),
	threeWays(reduction(shmemColl("Shmem_Short_And_To_All", "shmem_short_and_to_all", "shmem_short_and_to_all (bitwise and) of msg_bytes of shorts", 2))),
	threeWays(reduction(shmemColl("Shmem_Float_Sum_To_All", "shmem_float_sum_to_all", "shmem_float_sum_to_all of msg_bytes of floats (osu_oshm_reduce's)", 4))),
	threeWays(reduction(shmemColl("Shmem_Double_Sum_To_All", "shmem_double_sum_to_all", "shmem_double_sum_to_all of msg_bytes of doubles", 8))),
	threeWays(perProcess(shmemColl("Shmem_Collect", "shmem_collect", "shmem_collect64: every PE's msg_bytes to every PE", 8), false)),
	threeWays(perProcess(shmemColl("Shmem_Fcollect", "shmem_fcollect", "shmem_fcollect64: every PE's msg_bytes to every PE (equal sizes)", 8), false)),
	threeWays(perProcess(shmemColl("Shmem_Alltoall", "shmem_alltoall", "shmem_alltoall64: msg_bytes from every PE to every PE", 8), true)),
	threeWays(perProcess(shmemColl("Shmem_Alltoalls", "shmem_alltoalls", "shmem_alltoalls64 with unit strides: msg_bytes from every PE to every PE", 8), true)),
})

func reduction(in ops.Info) ops.Info { in.Reduction = true; return in }

// threeWays gives a collective SKaMPI's other timings beside the default (one call per
// repetition after a barrier): barrier-separated less a barrier, synchronised at an
// agreed instant, and consecutive calls (families/shmem/kernels/coll.c:
// THREE_WAYS).
func threeWays(in ops.Info) ops.Info {
	in.Methods = []ops.Method{
		{Name: "barrier", Kernel: in.Kernel + "_barrier", Subtract: "Shmem_Barrier",
			Description: "the call and shmem_barrier on the active set, less a barrier measured right after"},
		{Name: "sync", Kernel: in.Kernel, WindowSync: true,
			Description: "every call starts at an agreed instant on a global clock"},
		{Name: "consecutive", Kernel: in.Kernel + "_consecutive",
			Description: "8 calls back to back (each with its own pSync and pWrk), divided by 8"},
	}
	in.Description += "; method = barrier, sync, consecutive"
	return in
}

func perProcess(in ops.Info, throughput bool) ops.Info {
	in.PerProcess, in.Throughput = true, throughput
	return in
}

// shmemAtomics: every PE of the communicator but its first hits the first's element at
// once (2 PEs: uncontended); records carry the aggregate rate, ops_per_s.
var shmemAtomics = ops.Register(900, func() []ops.Info {
	// quiet: a non-fetching atomic, completed by the shmem_quiet after it.
	kinds := []struct {
		name, desc string
		quiet      bool
	}{
		{"Fetch", "atomic fetch", false}, {"Set", "atomic set, then shmem_quiet", true},
		{"Inc", "atomic increment, then shmem_quiet", true}, {"Fetch_Inc", "atomic fetch-and-increment", false},
		{"Add", "atomic add, then shmem_quiet", true}, {"Fetch_Add", "atomic fetch-and-add", false},
		{"Swap", "atomic swap", false}, {"Compare_Swap", "atomic compare-and-swap", false},
		{"And", "atomic and (unsigned), then shmem_quiet", true}, {"Or", "atomic or (unsigned), then shmem_quiet", true},
		{"Xor", "atomic xor (unsigned), then shmem_quiet", true}, {"Fetch_And", "atomic fetch-and (unsigned)", false},
		{"Fetch_Or", "atomic fetch-or (unsigned)", false}, {"Fetch_Xor", "atomic fetch-xor (unsigned)", false},
	}
	var out []ops.Info
	for _, w := range []struct {
		name  string
		bytes int64
	}{{"Int", 4}, {"Long", 8}} {
		for _, k := range kinds {
			kernel := "shmem_atomic_" + strings.ToLower(k.name) + "_" + strings.ToLower(w.name)
			in := ops.Info{Name: "Shmem_Atomic_" + k.name + "_" + w.name, Family: "shmem-atomics", Kernel: kernel,
				Pattern: ops.PatternAll, Reduce: ops.ReduceMax, Directions: 1, SHMEM: true, AtomicRate: true, TargetPassive: true,
				AtomicKind: k.name, AtomicType: w.name, ElementBytes: w.bytes, SingleElement: true, Heap: ops.HeapSlots,
				MinProcs: 2, MinProcsWhy: "one PE is the target, the others hit it",
				Description: k.desc + " on a " + strings.ToLower(w.name) + " at the communicator's first PE, by every other PE at once"}
			if k.quiet {
				in = withQuietSubtracted(in)
			}
			out = append(out, in)
		}
	}
	return out
}())
