//go:build mpi

/* Collectives with one late process (SKaMPI's delayed_Alltoall and delayed_Gather):
 * the last rank of the communicator busy-waits on the clock for the delay setting from
 * the start of its step, as SKaMPI does from its synchronised start (no MPI call, no
 * system call; a spin count calibrated beforehand came out short whenever the shared
 * machine was busy while it was calibrated), then calls the collective; the others
 * call it at once. The time holds the delay: what the others lose to the late one is
 * the time less the delay. The delay is the engine's (c->delay, "delay_s"): OpenSHMEM's
 * send-receives have a late PE too. */
#include "kernels.h"
#include "sk_common.h"

static void arrive_late(const sk_ctx *c) {
	if (c->rank != c->nprocs - 1 || !(c->delay > 0)) return;
	double until = sk_now() + c->delay;
	while (sk_now() < until) {
	}
}

static int step_delayed_alltoall(sk_ctx *c) {
	arrive_late(c);
	return MPI_Alltoall(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->comm);
}

static int step_delayed_gather(sk_ctx *c) {
	arrive_late(c);
	return MPI_Gather(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm);
}

/* The kernels of this file: a table of their own, which kernels.go hands to the engine. */
static const sk_kernel kernels[] = {
	CHECKED("delayed_alltoall", step_delayed_alltoall, COLL, SK_CHECK_ALLTOALL),
	CHECKED("delayed_gather", step_delayed_gather, COLL, SK_CHECK_GATHER),
};
static const sk_table table = SK_TABLE(kernels);
static const sk_table *const tables[] = {&table};
const sk_table *const *sk_delay_tables(int *n) {
	*n = 1;
	return tables;
}
