package ops

import "strings"

// Persistent operations: a request made once per point and started in every step
// (MPI-4's persistent collectives, OSU's osu_*_persistent; the persistent and the
// partitioned ping-pong). The collectives' init is measured apart (<Coll>_init). Where
// the MPI library does not provide a routine one calls, the operation stays and its
// points are refused, with the routine named (ops/mpi: UnsupportedReason).

// persistentOf are the collectives OSU 7.4 measures persistent, by their blocking names.
var persistentOf = []string{"Barrier", "Bcast", "Reduce", "Allreduce", "Reduce_scatter", "Reduce_scatter_block",
	"Alltoall", "Alltoallv", "Alltoallw", "Gather", "Gatherv", "Allgather", "Allgatherv", "Scatter", "Scatterv"}

var persistentOps = register(2400, func() []Info {
	var out []Info
	for _, name := range persistentOf {
		var b Info
		for _, in := range collOps {
			if in.Name == name {
				b = in
			}
		}
		p := b
		p.Name, p.Family, p.Kernel, p.Methods, p.Panels = name+"_persistent", "persistent", strings.ToLower(name)+"_persistent", nil, nil
		p.Layouts, p.Persistent = false, true
		p.Description = "MPI_" + name + "_init once per point, then MPI_Start + MPI_Wait per call (" + b.Description + ")"
		out = append(out, p)
		i := p
		i.Name, i.Kernel, i.CallTimed, i.Throughput = name+"_init", strings.ToLower(name)+"_init", true, false
		i.Description = "MPI_" + name + "_init timed alone, the request freed outside the time: what making the persistent " + name + " costs"
		out = append(out, i)
	}
	return append(out,
		Info{Name: "Pingpong_Persistent", Family: "persistent", Kernel: "pingpong_persistent", Pattern: PatternPair,
			Reduce: ReduceFirst, RoundTrip: true, Directions: 2, Persistent: true,
			Description: "round trip: MPI_Send_init and MPI_Recv_init once per point, MPI_Start + MPI_Wait of the send then of the receive (osu_latency_persistent)"},
		Info{Name: "Bandwidth_Persistent", Family: "persistent", Kernel: "bandwidth_persistent", Pattern: PatternPair,
			Reduce: ReduceFirst, Windowed: true, Bandwidth: true, Directions: 1, Persistent: true,
			Description: "unidirectional bandwidth with persistent requests: a window of MPI_Send_init / MPI_Recv_init once per point, MPI_Startall + MPI_Waitall per window, then a 1-byte ack (osu_bw_persistent)"},
		Info{Name: "Bibandwidth_Persistent", Family: "persistent", Kernel: "bibandwidth_persistent", Pattern: PatternPair,
			Reduce: ReduceMax, Windowed: true, Bandwidth: true, Directions: 2, Persistent: true,
			Description: "bidirectional bandwidth with persistent requests: both ranks start a window of MPI_Recv_init and MPI_Send_init requests made once per point, MPI_Startall + MPI_Waitall (osu_bibw_persistent)"},
		Info{Name: "Pingpong_Partitioned", Family: "persistent", Kernel: "pingpong_partitioned", Pattern: PatternPair,
			Reduce: ReduceFirst, RoundTrip: true, Directions: 2, Persistent: true, Partitioned: true,
			Description: "round trip of partitioned messages (MPI-4): MPI_Psend_init and MPI_Precv_init once per point; MPI_Start, MPI_Pready of each of the partitions, MPI_Wait; the partner receives, then replies alike"},
	)
}())
