package ops

import "strings"

// IMB-P2P's random traffic (ops/mpi/pt2pt.c): the same pseudo-random draws on every
// rank, no message to agree on them; a step is nprocs messages (Birandom: exchanges,
// Corandom: one message from every rank).
var randomOps = register(200, []Info{
	random("Unirandom", 1, "IMB-P2P's Unirandom: a step is nprocs messages one after another, each MPI_Send from a random rank to another random rank's MPI_Recv (the others skip it); the slowest rank's time"),
	random("Birandom", 2, "IMB-P2P's Birandom: a step is nprocs exchanges one after another between two random ranks (MPI_Irecv, MPI_Send, MPI_Wait on both; the others skip it); the slowest rank's time"),
	random("Corandom", 2, "IMB-P2P's Corandom: every rank receives from its predecessor and sends to its successor (MPI_Irecv, MPI_Send, MPI_Wait) in a ring of all ranks shuffled again every step; the slowest rank's time"),
})

func random(name string, dirs int, desc string) Info {
	return Info{Name: name, Family: "pt2pt", Kernel: strings.ToLower(name), Pattern: PatternAll, Reduce: ReduceMax, Directions: dirs,
		MinProcs: 2, MinProcsWhy: "every message goes between two ranks", Description: desc}
}
