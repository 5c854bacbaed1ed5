package ops

import "strings"

// Collective operations. msg_bytes is the data of one process: the broadcast buffer,
// each process's contribution to a reduction, or the block exchanged with each
// process for PerProcess operations. Time is until the last process is done.
var collOps = register(300, withOSU([]Info{
	noData(coll("Barrier", "MPI_Barrier: every process waits for all of them", false, false, false)),
	bcast,
	coll("Reduce", "MPI_Reduce to the root", false, true, true),
	coll("Allreduce", "MPI_Allreduce: the reduction delivered to every process", false, true, false),
	coll("Reduce_scatter", "MPI_Reduce_scatter, msg_bytes to each process", true, true, false),
	coll("Reduce_scatter_block", "MPI_Reduce_scatter_block, msg_bytes to each process", true, true, false),
	layouts(throughput(coll("Alltoall", "MPI_Alltoall, msg_bytes to each process", true, false, false))),
	displaced(throughput(coll("Alltoallv", "MPI_Alltoallv with equal counts, msg_bytes to each process", true, false, false)), DisplElements),
	displaced(throughput(coll("Alltoallw", "MPI_Alltoallw with equal counts, the datatype for every process and displacements in bytes, msg_bytes to each process (osu_alltoallw)", true, false, false)), DisplBytes),
	coll("Gather", "MPI_Gather of msg_bytes per process to the root", true, false, true),
	displaced(coll("Gatherv", "MPI_Gatherv with equal counts to the root", true, false, true), DisplElements),
	coll("Allgather", "MPI_Allgather of msg_bytes per process", true, false, false),
	displaced(coll("Allgatherv", "MPI_Allgatherv with equal counts", true, false, false), DisplElements),
	coll("Scatter", "MPI_Scatter of msg_bytes per process from the root", true, false, true),
	displaced(coll("Scatterv", "MPI_Scatterv with equal counts from the root", true, false, true), DisplElements),
	local(coll("Reduce_local", "MPI_Reduce_local: msg_bytes of sbuf combined into rbuf on every process, no communication (IMB's Reduce_local)", false, true, false)),
	coll("Scan", "MPI_Scan (inclusive prefix reduction)", false, true, false),
	coll("Exscan", "MPI_Exscan (exclusive prefix reduction)", false, true, false),
	// SKaMPI's hand-made baselines: what a library's collective should beat.
	coll("Bcast_using_Send_Recv", "baseline: the root MPI_Sends to every process in turn", false, false, true),
	throughput(coll("Alltoall_using_Isend_Irecv", "baseline: MPI_Irecv from and MPI_Isend to every process, MPI_Waitall", true, false, false)),
	coll("Gather_using_Send_Recv", "baseline: every process MPI_Sends to the root, which receives in rank order", true, false, true),
	coll("Gather_using_Isend_Irecv_Waitall", "baseline: every process MPI_Isends to the root, which MPI_Irecvs every other block, then MPI_Waitall", true, false, true),
	displaced(throughput(coll("Alltoallv_using_Isend_Irecv", "baseline: MPI_Irecv from and MPI_Isend to every process at Alltoallv's counts and displacements, MPI_Waitall", true, false, false)), DisplElements),
	coll("Allreduce_using_Reduce_Bcast", "baseline: MPI_Reduce to rank 0, then MPI_Bcast", false, true, false),
	// Communicator creation: one call timed alone, the new communicator freed untimed.
	callTimed(noData(coll("Comm_dup", "MPI_Comm_dup of the point's communicator, timed alone (freed outside the time)", false, false, false))),
	callTimed(noData(coll("Comm_split", "MPI_Comm_split of the point's communicator, colour rank % 2, key rank, timed alone (freed outside the time)", false, false, false))),
	// The ordered all-to-all (Kutzner et al.): P phases of MPI_Sendrecv with the i-th
	// neighbour, a barrier between phases above barrier_above; and its node-aware form.
	phased(throughput(coll("Alltoall_Ordered", "ordered all-to-all: P phases of MPI_Sendrecv with the i-th neighbour (phase 0: its own block)", true, false, false))),
	func() Info {
		in := phased(throughput(coll("Alltoall_Ordered_Nodes", "node-aware ordered all-to-all: phases over nodes, MPI_Isend/MPI_Irecv to every rank of the partner node", true, false, false)))
		in.NodeAware = true
		return in
	}(),
}))

// Collectives with counts per process beside coll's (ops/mpi/coll_v.c).
var collV = register(2200, withOSU([]Info{
	displaced(coll("Reduce_Scatterv", "baseline: MPI_Reduce of nprocs blocks to the root, then MPI_Scatterv of block i to process i (SKaMPI's Reduce_Scatterv), beside Reduce_scatter", true, true, true), DisplElements),
}))

// Broadcast timing methods (the method paper's Alg. 1-4). Without a method, one
// MPI_Bcast per repetition after a barrier.
var bcastMethods = []Method{
	{Name: "barrier", Kernel: "bcast_barrier", Subtract: "Barrier",
		Description: "Alg. 1: MPI_Bcast + MPI_Barrier, less a barrier measured right after"},
	{Name: "sync", Kernel: "bcast", WindowSync: true,
		Description: "Alg. 2: every broadcast starts at an agreed instant on a global clock"},
	{Name: "rounds", Kernel: "bcast_rounds",
		Description: "Alg. 3: a broadcast from every root in turn, divided by their number"},
	{Name: "ack", Kernel: "bcast_ack", RootTimed: true, PerTask: true,
		Description: "Alg. 4-5: every process in turn acknowledges to the root; the acknowledgement's one-way time, measured first, is subtracted (de Supinski & Karonis, two-sided)"},
}

var bcast = func() Info {
	in := coll("Bcast", "MPI_Bcast from the root; method = barrier, sync, rounds, ack, osu", false, false, true)
	in.Methods = append(bcastMethods, osuMethod("bcast"))
	return in
}()

// osuMethod is OSU's collective benchmarks' sequence and reduction (osu_allreduce and
// its siblings, 5.x to 7.x): every call timed alone with a barrier after it, each rank's
// mean per call, averaged over the ranks (their "Avg Latency"). A repetition is such a
// loop (iterations calibrated), so a point is OSU's run repeated under the stop rule.
// skampi's own, without a method, takes the slowest rank of every call: when the
// operation is done for everyone.
func osuMethod(kernel string) Method {
	return Method{Name: "osu", Kernel: kernel, RankMean: true, BarrierEach: true,
		Description: "OSU's: every call timed alone with a barrier after it, the mean per call over the ranks (osu_<coll>'s Avg Latency), not the slowest rank"}
}

// throughput marks the all-to-all operations whose records carry throughput_Bps.
// displaced: the kernel places blocks at C int displacements in unit (Info.Displacements).
func displaced(in Info, unit string) Info {
	in.Displacements = unit
	return in
}

func throughput(in Info) Info {
	in.Throughput = true
	return in
}

func coll(name, desc string, perProcess, reduction, rooted bool) Info {
	return Info{Name: name, Family: "coll", Description: desc, Kernel: strings.ToLower(name), Pattern: PatternAll, Reduce: ReduceMax,
		Directions: 1, PerProcess: perProcess, Reduction: reduction, Rooted: rooted, SingleShot: true,
		Datatyped: true, Combines: reduction}
}

// Collective describes, for a family outside this package, a blocking collective of
// every rank of its communicator as the catalogue's own are: kernel times one call
// per repetition, until the slowest rank is done, and OSU's method (each call timed
// alone, a barrier after it) is among its methods. msg_bytes is each process's data
// (perProcess: the block for each process).
func Collective(family, name, kernel, desc string, perProcess, reduction, rooted bool) Info {
	in := coll(name, desc, perProcess, reduction, rooted)
	in.Family, in.Kernel = family, kernel
	return withOSU([]Info{in})[0]
}

// withOSU gives every blocking collective timed one call per repetition the method osu
// (Bcast has it among its own).
func withOSU(in []Info) []Info {
	for i := range in {
		if !in[i].CallTimed && !in[i].Local && len(in[i].Methods) == 0 {
			in[i].Methods = []Method{osuMethod(in[i].Kernel)}
		}
	}
	return in
}

// callTimed: the kernel times one call of its step, the rest untimed.
func callTimed(in Info) Info { in.CallTimed = true; return in }

// noData: the operation moves no data, so it takes no datatype either.
func noData(in Info) Info {
	in.NoData, in.Datatyped = true, false
	return in
}

// local: no communication, so back-to-back calls cannot pipeline: many per repetition,
// every process timing its own.
func local(in Info) Info {
	in.Local, in.SingleShot = true, false
	return in
}

// phased: an ordered all-to-all, whose phases barrier_above separates.
func phased(in Info) Info { in.Phased = true; return in }
