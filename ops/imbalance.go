package ops

// Imbalance, as the seeds' applications have it (GROMACS: one rank late into its
// all-to-all; node load under concurrent traffic): collectives with one late rank
// (1800), then the skewed all-to-all (families/skewed, 1810), and ping-pongs (and
// ping-pings) between every pair of ranks at once (1820).
var imbalanceOps = register(1800, []Info{
	delayed(coll("delayed_Alltoall", "MPI_Alltoall, msg_bytes to each process, the last rank entering delay late (a busy computation); the time holds the delay", true, false, false)),
	delayed(coll("delayed_Gather", "MPI_Gather of msg_bytes per process to the root, the last rank entering delay late (a busy computation); the time holds the delay", true, false, true)),
})

var pairsOps = register(1820, []Info{
	{Name: "Par_Pingpong_Send_Recv", Family: "pt2pt", Kernel: "pingpong_send_recv", Pattern: PatternPairs, Reduce: ReduceMax,
		RoundTrip: true, Directions: 2,
		Description: "round trips (MPI_Send then MPI_Recv) between every rank i and rank i+p/2 at once: latency under load; time of the slowest pair"},
	{Name: "Par_Pingping_Send_Recv", Family: "pt2pt", Kernel: "pingping_send_recv", Pattern: PatternPairs, Reduce: ReduceMax, Directions: 2,
		Description: "Pingping_Send_Recv between every rank i and rank i+p/2 at once (IMB-P2P's PingPing over its pairs, IMB-MPI1's Multi-PingPing): both of each pair MPI_Isend, MPI_Recv, MPI_Wait; time of the slowest rank"},
})

// delayed: an operation whose late rank or partner enters its call delay late
// (Info.Delayed).
func delayed(in Info) Info {
	in.Delayed = true
	return in
}
