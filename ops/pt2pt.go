package ops

import "strings"

// Point-to-point operations: a pair's ping-pongs, exchanges and bandwidths, IMB's Exchange
// and the shift of every rank.
var pt2ptOps = register(100, []Info{
	layouts(pp("Pingpong_Send_Recv", "round trip: MPI_Send then MPI_Recv on each side")),
	pp("Pingpong_Send_Iprobe_Recv", "round trip: MPI_Send; the receiver spins on MPI_Iprobe, then MPI_Recv"),
	pp("Pingpong_Send_Irecv", "round trip: MPI_Send; the receiver uses MPI_Irecv + MPI_Wait"),
	pp("Pingpong_Send_Recv_AT", "round trip: MPI_Send then MPI_Recv with MPI_ANY_TAG"),
	pp("Pingpong_Send_Recv_AS", "round trip: MPI_Send then MPI_Recv from MPI_ANY_SOURCE (IMB's PingPongAnySource)"),
	pp("Pingpong_Ssend_Recv", "round trip: synchronous MPI_Ssend then MPI_Recv"),
	pp("Pingpong_Bsend_Recv", "round trip: buffered MPI_Bsend then MPI_Recv; the buffer (message + MPI_BSEND_OVERHEAD) attached once per point"),
	pp("Pingpong_Isend_Recv", "round trip: MPI_Isend + MPI_Wait then MPI_Recv"),
	pp("Pingpong_Issend_Recv", "round trip: MPI_Issend + MPI_Wait then MPI_Recv"),
	{Name: "Pingpong_Sendrecv", Family: "pt2pt", Kernel: "pingpong_sendrecv", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 2,
		Description: "exchange: both ranks call MPI_Sendrecv with each other at once"},
	{Name: "Pingpong_Sendrecv_replace", Family: "pt2pt", Kernel: "pingpong_sendrecv_replace", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 2,
		Description: "exchange: both ranks call MPI_Sendrecv_replace with each other at once"},
	{Name: "Pingping_Send_Recv", Family: "pt2pt", Kernel: "pingping_send_recv", Pattern: PatternPair, Reduce: ReduceMax, Directions: 2,
		Description: "both ranks send at once: MPI_Isend, MPI_Recv, MPI_Wait; time of the slower"},
	{Name: "Pingping_Send_Recv_AS", Family: "pt2pt", Kernel: "pingping_send_recv_as", Pattern: PatternPair, Reduce: ReduceMax, Directions: 2,
		Description: "both ranks send at once: MPI_Isend, MPI_Recv from MPI_ANY_SOURCE, MPI_Wait; time of the slower (IMB's PingPingAnySource)"},
	{Name: "Ssend", Family: "pt2pt", Kernel: "ssend", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 1,
		Description: "one way, timed on the sender: MPI_Ssend, the receiver in MPI_Recv; back to back, each send returns once its receive has matched (SKaMPI's Send)"},
	{Name: "Bandwidth_Isend_Irecv", Family: "pt2pt", Kernel: "bandwidth_isend_irecv", Pattern: PatternPair, Reduce: ReduceFirst,
		Windowed: true, Bandwidth: true, Directions: 1,
		Description: "unidirectional bandwidth: a window of MPI_Isend/MPI_Irecv, then a 1-byte ack"},
	{Name: "Bibandwidth_Isend_Irecv", Family: "pt2pt", Kernel: "bibandwidth_isend_irecv", Pattern: PatternPair, Reduce: ReduceMax,
		Windowed: true, Bandwidth: true, Directions: 2,
		Description: "bidirectional bandwidth: both ranks post a window of MPI_Irecv and MPI_Isend, then MPI_Waitall"},
	{Name: "Multipair_Bandwidth", Family: "pt2pt", Kernel: "bandwidth_isend_irecv", Pattern: PatternPairs, Reduce: ReduceMax,
		Windowed: true, Bandwidth: true, Directions: 1,
		Description: "aggregate bandwidth and message rate: every rank i sends a window to rank i+p/2 at once, then a 1-byte ack (osu_mbw_mr, IMB's Uniband)"},
	{Name: "Multipair_Bibandwidth", Family: "pt2pt", Kernel: "bibandwidth_isend_irecv", Pattern: PatternPairs, Reduce: ReduceMax,
		Windowed: true, Bandwidth: true, Directions: 2,
		Description: "aggregate bidirectional bandwidth and message rate: every rank i and rank i+p/2 post a window of MPI_Irecv and MPI_Isend to each other at once, then MPI_Waitall (IMB's Biband)"},
	{Name: "Exchange", Family: "pt2pt", Kernel: "exchange", Pattern: PatternAll, Reduce: ReduceMax, PerProcess: true,
		Bandwidth: true, Directions: 4,
		Description: "IMB's Exchange: every rank MPI_Isend's msg_bytes to both neighbours of a ring, MPI_Recv's from both, MPI_Waitall; the slowest rank's time; MB/s as IMB's, 4 x msg_bytes / time (two messages out, two in)"},
})

func pp(name, desc string) Info {
	return Info{Name: name, Family: "pt2pt", Description: desc, Kernel: strings.ToLower(name), Pattern: PatternPair,
		Reduce: ReduceFirst, RoundTrip: true, Directions: 2}
}

// shiftOps: every rank sends to the next and receives from the previous with
// MPI_Sendrecv (2 ranks: an exchange), the MPI side of Shmem_Sendrecv_Shift.
var shiftOps = register(1700, []Info{{Name: "Sendrecv_Shift", Family: "pt2pt", Kernel: "sendrecv_shift", Pattern: PatternAll,
	Reduce: ReduceMax, Directions: 2, Bandwidth: true,
	Description: "every rank MPI_Sendrecv's msg_bytes to the next and from the previous rank at once (beside Shmem_Sendrecv_Shift; IMB's Sendrecv): the slowest rank's time, MB/s as IMB's, 2 x msg_bytes / time"}})
