package mt

import "github.com/skampi/skampi/ops"

// Multi-threaded communication (osu_latency_mt at 1:1 and at 1:N threads, osu_bw in
// several thread pairs, IMB-MT's PingPingMT, SendRecvMT and BibandMT; docs/osu-imb.md
// says how they differ from the peers): each rank of the pair runs `threads` threads
// (created in C once per point), every thread its own ping-pong or window of messages
// with its partner thread on the other rank, on a communicator of its own (thread_comm
// = "dup") or one shared with a tag each ("tag"). The point's time is the slowest
// thread's; records also carry the mean thread's and the messages per second of all
// threads together. Pingpong_Send_Recv_MT_1toN is osu_latency_mt's default instead:
// one sender thread, `threads` receiver threads sharing its messages (Info.OneToN).
var _ = ops.Register(2600, []ops.Info{
	{Name: "Pingpong_Send_Recv_MT", Family: "pt2pt", Kernel: "pingpong_send_recv_mt", Pattern: ops.PatternPair, Reduce: ops.ReduceFirst,
		RoundTrip: true, Directions: 2, Threaded: true,
		Description: "round trips (MPI_Send then MPI_Recv) in `threads` threads per rank at once, each with its partner thread on its own communicator or tag (osu_latency_mt at -t 1:1; its default, 1 sender thread to N receivers, is Pingpong_Send_Recv_MT_1toN); time of the slowest thread; needs MPI_THREAD_MULTIPLE"},
	{Name: "Pingpong_Send_Recv_MT_1toN", Family: "pt2pt", Kernel: "pingpong_send_recv_mt_1ton", Pattern: ops.PatternPair, Reduce: ops.ReduceFirst,
		RoundTrip: true, Directions: 2, Threaded: true, OneToN: true,
		Description: "osu_latency_mt's default (-t 1:N): one sender thread on the initiator (MPI_Send then MPI_Recv), `threads` receiver threads on the responder (MPI_Recv then MPI_Send), all on the pair's communicator with the same tags, so any receiver may take any message; the receivers share the iterations; time of the sender's round trip (latency_s its half, OSU's number); needs MPI_THREAD_MULTIPLE"},
	{Name: "Bandwidth_MT", Family: "pt2pt", Kernel: "bandwidth_mt", Pattern: ops.PatternPair, Reduce: ops.ReduceFirst,
		Windowed: true, Bandwidth: true, Directions: 1, Threaded: true,
		Description: "a window of MPI_Isend/MPI_Irecv then a 1-byte ack, in `threads` threads per rank at once, each with its partner thread on its own communicator or tag (osu_bw per thread pair; IMB-MT's UnibandMT); time of the slowest thread, bandwidth and messages/s of all threads over their span; needs MPI_THREAD_MULTIPLE"},
	{Name: "Pingping_Send_Recv_MT", Family: "pt2pt", Kernel: "pingping_send_recv_mt", Pattern: ops.PatternPair, Reduce: ops.ReduceMax,
		Directions: 2, Threaded: true,
		Description: "both threads of a pair send at once (MPI_Isend, MPI_Recv, MPI_Wait), in `threads` threads per rank, each pair on its own communicator or tag (IMB-MT's PingPingMT); time of the slowest thread on the slower rank; needs MPI_THREAD_MULTIPLE"},
	{Name: "Sendrecv_MT", Family: "pt2pt", Kernel: "sendrecv_mt", Pattern: ops.PatternPair, Reduce: ops.ReduceMax,
		Directions: 2, Threaded: true,
		Description: "MPI_Sendrecv with the partner thread, in `threads` threads per rank, each pair on its own communicator or tag (IMB-MT's SendRecvMT on two processes); time of the slowest thread on the slower rank; needs MPI_THREAD_MULTIPLE"},
	{Name: "Bibandwidth_MT", Family: "pt2pt", Kernel: "bibandwidth_mt", Pattern: ops.PatternPair, Reduce: ops.ReduceMax,
		Windowed: true, Bandwidth: true, Directions: 2, Threaded: true,
		Description: "bidirectional bandwidth: both threads of a pair post a window of MPI_Irecv and MPI_Isend, then MPI_Waitall, in `threads` threads per rank at once (osu_bibw per thread, IMB-MT's BibandMT); bandwidth and messages/s of all threads both ways; needs MPI_THREAD_MULTIPLE"},
})
