package ops

// The self-tests, and the cost of a read of the timer (Wtime), kept at the end of the
// catalogue (OpenSHMEM's, Selftest_Broadcast_Noack, is families/shmem's, just before
// them).
var selftestOps = register(2700, []Info{
	// Self-tests: real MPI calls that misbehave on purpose, so users can check on their
	// own cluster that a hang or a crash costs one point, not the run.
	{Name: "Selftest_Hang", Family: "selftest", Kernel: "selftest_hang", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 1,
		Description: "self-test: both ranks block forever in MPI_Recv (the watchdog must end it)"},
	{Name: "Selftest_Crash", Family: "selftest", Kernel: "selftest_crash", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 1,
		Description: "self-test: the initiator calls abort() inside the timed loop (on the deny-list)"},
	{Name: "Selftest_Segfault", Family: "selftest", Kernel: "selftest_segfault", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 1,
		Description: "self-test: the responder writes through a NULL pointer inside the timed loop, a SIGSEGV in C, while the initiator waits (on the deny-list)"},
	{Name: "Selftest_Corrupt", Family: "selftest", Kernel: "selftest_corrupt", Pattern: PatternPair, Reduce: ReduceFirst, RoundTrip: true, Directions: 2,
		Description: "self-test: a ping-pong whose responder flips the middle byte of its reply (check_data = true reports it)"},
	{Name: "Wtime", Family: "timer", Kernel: "wtime", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 1, NoData: true,
		Description: "one read of the clock every timing reads (clock_gettime(CLOCK_MONOTONIC)) on the initiator: what a timer call costs (SKaMPI's MPI_Wtime measurement)"},
	{Name: "Selftest_Slow", Family: "selftest", Kernel: "selftest_slow", Pattern: PatternPair, Reduce: ReduceFirst, RoundTrip: true, Directions: 2,
		Description: "self-test: a ping-pong that sleeps 20 ms a step on both ranks: slow but moving, it must end by its time cap with its samples, never as a hang"},
	{Name: "Selftest_Transient", Family: "selftest", Kernel: "selftest_transient", Pattern: PatternPair, Reduce: ReduceFirst, RoundTrip: true, Directions: 2,
		Description: "self-test: a ping-pong whose first 7 steps sleep 2 ms on both ranks, as a job still starting: the point must end on the ping-pong's steady time, the slow repetitions dropped as a transient"},
})
