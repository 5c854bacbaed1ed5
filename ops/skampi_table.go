package ops

// Reasons shared by several entries of the coverage table.
const (
	noteBusy     = "the passive target computes target_busy in every step (0, 10, 50, 100 us in the passive suite) while the origin's epoch is timed: does the operation complete without the target in MPI"
	whyItem3Ring = "every PE puts or gets to its next at once, a ring (issue 25, item 3)"
	noteDTFresh  = "SKaMPI builds and commits the type before every measurement (untimed) and creates a window per call; skampi commits it once per point (type_commit = \"every_call\" builds it in every step, timed)"
	noteDTStruct = "SKaMPI's struct is 600 blocks of 2 MPI_INTs back to back; skampi's one block per 8-byte element, pairs of MPI_INTs and MPI_DOUBLEs in turn"
	noteDTMixed  = "SKaMPI's struct is 200 groups of 2 MPI_INTs and 2 MPI_DOUBLEs back to back; skampi's one block per 8-byte element, pairs of MPI_INTs and MPI_DOUBLEs in turn"
	noteWindow   = "SKaMPI starts each call at an agreed instant, as sync = \"window\" does"
	noteAtomic   = "SKaMPI times neighbour pairs, one side at a time, so never contended: procs = 2 is one such pair (more procs: every PE on the first at once)"
	noteDelayed  = "SKaMPI's late rank (its node parameter) waits on the clock until start + delay; skampi's is the last rank, busy-waiting on the clock for delay from the start of its step"
	noteOwnWin   = "the window lives through the point; SKaMPI creates one per call"
	noteOneEpoch = "SKaMPI times one epoch per synchronised start; skampi a loop of epochs"
	noteHalo     = "msg_bytes is one border row (SKaMPI's rows of a square grid of elemcount doubles); the interior's computation is the calibrated spin for halo_compute (SKaMPI's is a 3-point stencil over the grid); one window, its rows got into a separate buffer, where SKaMPI swaps two; iterations = SKaMPI's iteration_count"
)

// skampiTable: one entry per SKaMPI 6 measurement function (ops/testdata lists them).
var skampiTable = []SkampiFunc{
	// MPI point-to-point.
	meas("Pingpong_Send_Recv", "Pingpong_Send_Recv", "", "", ""),
	meas("Pingpong_Send_Iprobe_Recv", "Pingpong_Send_Iprobe_Recv", "", "", ""),
	meas("Pingpong_Send_Irecv", "Pingpong_Send_Irecv", "", "", ""),
	meas("Pingpong_Send_Recv_AT", "Pingpong_Send_Recv_AT", "", "", ""),
	meas("Pingpong_Ssend_Recv", "Pingpong_Ssend_Recv", "", "", ""),
	meas("Pingpong_Isend_Recv", "Pingpong_Isend_Recv", "", "", ""),
	meas("Pingpong_Issend_Recv", "Pingpong_Issend_Recv", "", "", ""),
	meas("Pingpong_Sendrecv", "Pingpong_Sendrecv", "", "", ""),
	meas("Pingpong_Sendrecv_replace", "Pingpong_Sendrecv_replace", "", "", ""),
	meas("Pingpong_Bsend_Recv", "Pingpong_Bsend_Recv", "", "", "the buffer is attached once per point, outside the timing"),
	meas("Par_Pingpong_Send_Recv", "Par_Pingpong_Send_Recv", "", "", "SKaMPI pairs rank i with i+nodesize for i < procs (every pair across two nodes); skampi pairs i with i+p/2, all ranks at once, and reports the slowest pair's round trip"),
	meas("Send", "Ssend", "", "", "SKaMPI's Send is an MPI_Ssend timed on the sender, as skampi's Ssend; an MPI_Isend call alone is Isend's post (its breakdown's post_s)"),
	meas("Isend_callduration", "Isend", "", "timer = \"iteration\"", "the post column is the MPI_Isend call, timed on its own after each"),
	meas("Exchange", "Alltoall_using_Isend_Irecv", "", "", "SKaMPI's msg_count = nprocs − 1; fewer partners are not measured"),
	// MPI collectives.
	meas("Barrier", "Barrier", "", "sync = \"window\"", noteWindow),
	meas("Bcast", "Bcast", "sync", "", ""),
	meas("Reduce", "Reduce", "", "sync = \"window\"", noteWindow),
	meas("Allreduce", "Allreduce", "", "sync = \"window\"", noteWindow),
	meas("Reduce_scatter", "Reduce_scatter", "", "sync = \"window\"", noteWindow),
	meas("Reduce_Scatterv", "Reduce_Scatterv", "", "", "msg_bytes per process, equal counts (SKaMPI splits count elements unevenly); the root keeps its block in place (MPI_IN_PLACE) where SKaMPI scatters into its send buffer"),
	meas("Scan", "Scan", "", "sync = \"window\"", noteWindow),
	meas("Gather", "Gather", "", "sync = \"window\"", noteWindow),
	meas("Gatherv", "Gatherv", "", "sync = \"window\"", noteWindow+"; equal counts"),
	meas("Scatter", "Scatter", "", "sync = \"window\"", noteWindow),
	meas("Scatterv", "Scatterv", "", "sync = \"window\"", noteWindow+"; equal counts"),
	meas("Allgather", "Allgather", "", "sync = \"window\"", noteWindow),
	meas("Allgatherv", "Allgatherv", "", "sync = \"window\"", noteWindow+"; equal counts"),
	meas("Alltoall", "Alltoall", "", "sync = \"window\"", noteWindow),
	meas("Alltoallv", "Alltoallv", "", "sync = \"window\"", noteWindow+"; equal counts"),
	meas("multi_Alltoall", "Alltoall", "", "", "SKaMPI's back-to-back calls into distinct buffers, total time; skampi's loop, per call, into one buffer"),
	meas("myalltoallv", "Alltoallv_Skewed", "", "sync = \"window\"", "SKaMPI's charged rank receives ratio times the even share and the others 1/ratio of it; skampi's rank 0 sends msg_bytes to each and the others msg_bytes/ratio, in Alltoall's buffers"),
	meas("delayed_Alltoall", "delayed_Alltoall", "", "sync = \"window\"", noteDelayed),
	meas("delayed_Gather", "delayed_Gather", "", "sync = \"window\"", noteDelayed),
	meas("Bcast_using_Send_Recv", "Bcast_using_Send_Recv", "", "", ""),
	meas("Gather_using_Send_Recv", "Gather_using_Send_Recv", "", "", ""),
	meas("Allreduce_using_Reduce_Bcast", "Allreduce_using_Reduce_Bcast", "", "", ""),
	meas("Alltoall_using_Isend_Irecv", "Alltoall_using_Isend_Irecv", "", "", ""),
	meas("Gather_using_Isend_Irecv_Waitall", "Gather_using_Isend_Irecv_Waitall", "", "", "a sender's MPI_Wait is inside its time (SKaMPI leaves it out): the next step reuses the buffer"),
	meas("Alltoallv_using_Isend_Irecv", "Alltoallv_using_Isend_Irecv", "", "", "equal blocks, as skampi's Alltoallv"),
	meas("Comm_dup", "Comm_dup", "", "", ""),
	meas("Comm_split", "Comm_split", "", "", "colour rank % 2, key rank (SKaMPI passes 0: the same order)"),
	// MPI one-sided: operations in an epoch.
	meas("Put", "Put_callduration", "fence_epoch", "", "SKaMPI times one call per synchronised start; skampi a loop of calls, each completed by an untimed fence"),
	meas("Get_callduration", "Get_callduration", "fence_epoch", "", "SKaMPI times one call per synchronised start; skampi a loop of calls, each completed by an untimed fence"),
	meas("Put_dedicated", "Put", "pscw_epoch", "window = 1", noteOneEpoch),
	meas("Get_dedicated", "Get", "pscw_epoch", "window = 1", noteOneEpoch),
	meas("Put_fence", "Put", "fence_epoch", "window = 1", noteOneEpoch),
	meas("Get_fence", "Get", "fence_epoch", "window = 1", noteOneEpoch),
	meas("Put_passive", "Put", "lock_exclusive", "window = 1", noteOneEpoch),
	meas("Get_passive", "Get", "lock_exclusive", "window = 1", noteOneEpoch),
	meas("Accumulate", "Accumulate", "pscw_epoch", "window = 1", noteOneEpoch),
	meas("Put_passive_concurrent", "Put_passive_concurrent", "exclusive", "", noteOneEpoch+"; the lock type is the method (exclusive or shared)"),
	meas("Accumulate_concurrent", "Accumulate_concurrent", "disjoint", "", noteOneEpoch+"; SKaMPI's disjoint parameter is the method (same or disjoint); the time is the slowest process's, SKaMPI's rank 0's"),
	meas("Accumulate_concurrent_multi", "Accumulate_concurrent_multi", "disjoint", "", "msg_count = nprocs (every process once, itself last); one fence a step, which closes the epoch and opens the next, where SKaMPI opens and closes its own; disjoint is the method"),
	meas("Put_fence_bidirectional", "Put_fence_bidirectional", "", "", noteOneEpoch),
	meas("Pingpong_Put_Put", "Put_Pingpong", "fence_epoch", "", ""),
	meas("Get_Pingpong", "Get_Pingpong", "", "", ""),
	meas("Put_Shift", "Put_Shift", "", "", "distance 1 (the next process), as Sendrecv_Shift; one fence a step where SKaMPI opens and closes the epoch with two"),
	meas("Put_Exchange", "Transpose_Put", "", "", "SKaMPI's msg_count = nprocs − 1; fewer partners are not measured"),
	meas("Put_Exchange_passive", "Put_Exchange_passive", "", "", "SKaMPI's msg_count = nprocs − 1, block j to process j as Transpose_Put; fewer partners are not measured"),
	meas("Combining_Put_fence", "Combining_Put_fence", "", "window = N", "SKaMPI's msg_count puts is window = msg_count; the fence is timed alone, as SKaMPI's"),
	meas("Combining_Put_dedicated", "Put", "pscw_epoch", "window = N", "SKaMPI's msg_count puts in one epoch is window = msg_count; "+noteOneEpoch),
	meas("Caching", "Caching", "", `delay = "20us"`, ""),
	meas("Put_activewait_get", "Put", "lock_all_flush", `target_busy = "10us"`, noteBusy+"; SKaMPI's origin learns of the put's arrival by getting its last element again and again, skampi's by MPI_Win_flush"),
	meas("Put_activewait_twosided", "Put", "lock_exclusive", `target_busy = "10us"`, noteBusy+"; SKaMPI's target spins on the put's last element and answers with an MPI_Send (in the time), skampi's computes target_busy and the origin's unlock says the put is done"),
	meas("Put_activewait_twosided_sleep", "Put", "lock_exclusive", `target_busy = "10us", progress = N`, noteBusy+"; SKaMPI's target sleeps delay_us between looks at the put's last element, calling no MPI; skampi's computes and, with progress = N, calls MPI_Iprobe every N spins (progress = 0: never, as SKaMPI's)"),
	meas("Get_activewait", "Get", "lock_all_flush", `target_busy = "10us"`, noteBusy+"; SKaMPI's origin spins on its own buffer after MPI_Get with no completion call, relying on progress; skampi's completes the get with MPI_Win_flush"),
	meas("Get_activewait_sleep", "Get", "lock_all_flush", `target_busy = "10us", progress = N`, noteBusy+"; SKaMPI's origin sleeps delay_us between looks at its buffer; skampi's target polls every N spins"),
	meas("Accumulate_activewait_twosided", "Accumulate", "lock_all_flush", `target_busy = "10us"`, noteBusy+"; SKaMPI's target spins on the last element and answers with an MPI_Send (in the time), skampi's computes target_busy while the origin's flush completes the accumulate"),
	// MPI one-sided: synchronisation calls.
	meas("Win_fence_open", "Win_fence_open", "", "", noteOwnWin),
	meas("Win_fence_close", "Win_fence_close", "", "", "skampi puts msg_bytes to the next rank before the close; SKaMPI optionally one element to itself (do_a_put)"),
	meas("Win_fence_close_collective", "Win_fence_close_collective", "", "", ""),
	meas("Win_fence_close_delayed", "Win_fence_close_delayed", "", `delay = "20us"`, "one put of msg_bytes per rank where SKaMPI makes msg_count"),
	meas("Win_fence_openclose", "Win_fence", "", "", "a fence between two epochs, no operation"),
	meas("Win_start", "Win_start", "", "", "SKaMPI's target posts before the synchronised start; skampi's as its previous epoch ends"),
	meas("Win_start_delayed_post", "Win_start", "", `delay = "20us"`, ""),
	meas("Win_post", "Win_post", "", "", "a pair, the origin's epoch untimed; SKaMPI's every rank posts to the whole group"),
	meas("Win_complete", "Win_complete", "", "", "always after a put of msg_bytes (SKaMPI's do_a_put puts to every other rank)"),
	meas("Win_complete_delayed_wait", "Win_complete", "", `delay = "20us"`, ""),
	meas("Win_complete_n", "Win_complete_n", "", `window = N, delay = "20us"`, "the origin puts to its one peer, where SKaMPI's rank 0 puts to every other rank"),
	meas("Win_startcomplete", "Win_pscw", "", "", "an empty epoch: SKaMPI's optional puts (do_a_put) are Put [pscw_epoch]"),
	meas("Win_wait_delayed_complete", "Win_wait_late_complete", "", `delay = "20us"`, ""),
	meas("Win_wait_early_complete", "Win_wait_early_complete", "", `delay = "20us"`, ""),
	meas("Win_test", "Win_test", "", "", "SKaMPI's origin completes before the synchronised start; skampi's may complete after the test (then it says no)"),
	meas("Win_test_delayed", "Win_test", "", `delay = "20us"`, ""),
	meas("Win_lock", "Win_lock", "exclusive", "", "SKaMPI's lock_type is skampi's method (exclusive or shared)"),
	meas("Win_lock_desync", "Win_lock_desync", "exclusive", `delay = "20us"`, "SKaMPI waits delay on every rank after its synchronised start; skampi's target computes for delay in each step while the origin locks"),
	meas("Win_unlock", "Win_unlock", "exclusive", "", "skampi flushes a get before the timed unlock, so the lock is really held; SKaMPI's optional put (do_a_put) would be completed by it"),
	meas("Win_create", "Win_create", "", "", ""),
	meas("Win_free", "Win_free", "", "", "SKaMPI fences an epoch (optionally with a put) before the free; skampi's window had none"),
	// MPI one-sided: SKaMPI's own algorithms and layouts.
	meas("onesided_alltoall", "Transpose_Put", "", "", "an all-to-all by puts and one fence; SKaMPI repeats it alltoall_count times in one epoch"),
	notMeasured("onesided_bcast", "SKaMPI's own broadcast built from one-sided calls; skampi measures the library's MPI_Bcast and the two-sided baseline Bcast_using_Send_Recv"),
	notMeasured("onesided_reduce", "SKaMPI's own reduction built from one-sided calls (MPI_Accumulate into the root); skampi measures the library's MPI_Reduce"),
	notMeasured("onesided_allreduce", "SKaMPI's own allreduce built from one-sided calls; skampi measures the library's MPI_Allreduce and Allreduce_using_Reduce_Bcast"),
	notMeasured("onesided_dummy", "SKaMPI's empty measurement: the cost of its own synchronisation, which skampi's loops do not carry"),
	meas("onesided_borderexchange", "Halo_Onesided_PSCW", "", `halo_compute = "50us"`, noteHalo),
	meas("onesided_borderexchange_fence", "Halo_Onesided_Fence", "", `halo_compute = "50us"`, noteHalo),
	meas("twosided_borderexchange", "Halo_Twosided", "", `halo_compute = "50us"`, noteHalo+"; the rows are sent in place, SKaMPI copies them to send buffers first"),
	meas("Datatype_int", "Put", "fence_epoch", "window = 1", "the contiguous baseline of SKaMPI's datatype tests (ints): data_layout = \"contiguous\""),
	meas("Datatype_simple", "Put", "fence_epoch", `window = 1, data_layout = "vector", stride = 1`, noteDTFresh+"; its vector is one block of 1200 ints, skampi's n doubles of one element each"),
	meas("Datatype_simple_Get", "Get", "fence_epoch", `window = 1, data_layout = "vector", stride = 1`, noteDTFresh+"; its vector is one block of 1200 ints, skampi's n doubles of one element each"),
	meas("Datatype_complex_once", "Put", "fence_epoch", `window = 1, data_layout = "struct", stride = 1`, noteDTStruct),
	meas("Datatype_complex_everytime", "Put", "fence_epoch", `window = 1, data_layout = "struct", stride = 1`, noteDTFresh+"; "+noteDTStruct),
	meas("Datatype_complex_mixed_once", "Put", "fence_epoch", `window = 1, data_layout = "struct", stride = 1`, noteDTMixed),
	meas("Datatype_complex_mixed_everytime", "Put", "fence_epoch", `window = 1, data_layout = "struct", stride = 1`, noteDTFresh+"; "+noteDTMixed),
	meas("Datatype_complex_Get", "Get", "fence_epoch", `window = 1, data_layout = "struct", stride = 1`, noteDTFresh+"; "+noteDTStruct),
	// Timers.
	meas("Wtime", "Wtime", "", "", "SKaMPI times MPI_Wtime; skampi the clock its own timings read"),
	meas("wtime", "Wtime", "", "", "SKaMPI's OpenSHMEM timer; skampi's is the same clock for MPI and OpenSHMEM"),
}
