package ops

// Load, as the seeds' applications have it (node load under concurrent traffic):
// ping-pongs (and ping-pings) between every pair of ranks at once, after the
// collectives with a late rank (families/delay, 1800) and the skewed all-to-all
// (families/skewed, 1810).
var pairsOps = register(1820, []Info{
	{Name: "Par_Pingpong_Send_Recv", Family: "pt2pt", Kernel: "pingpong_send_recv", Pattern: PatternPairs, Reduce: ReduceMax,
		RoundTrip: true, Directions: 2,
		Description: "round trips (MPI_Send then MPI_Recv) between every rank i and rank i+p/2 at once: latency under load; time of the slowest pair"},
	{Name: "Par_Pingping_Send_Recv", Family: "pt2pt", Kernel: "pingping_send_recv", Pattern: PatternPairs, Reduce: ReduceMax, Directions: 2,
		Description: "Pingping_Send_Recv between every rank i and rank i+p/2 at once (IMB-P2P's PingPing over its pairs, IMB-MPI1's Multi-PingPing): both of each pair MPI_Isend, MPI_Recv, MPI_Wait; time of the slowest rank"},
})
