//go:build mpi

/* Collectives with one late process (SKaMPI's delayed_Alltoall and delayed_Gather):
 * the last rank of the communicator busy-waits on the clock for the delay setting from
 * the start of its step, as SKaMPI does from its synchronised start (no MPI call, no
 * system call; a spin count calibrated beforehand came out short whenever the shared
 * machine was busy while it was calibrated), then calls the collective; the others
 * call it at once. The time holds the delay: what the others lose to the late one is
 * the time less the delay. */
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

/* The kernels of this file (kernels.c joins the tables). */
static const sk_kernel kernels[] = {
	CHECKED("delayed_alltoall", step_delayed_alltoall, COLL, SK_CHECK_ALLTOALL),
	CHECKED("delayed_gather", step_delayed_gather, COLL, SK_CHECK_GATHER),
};
const sk_table sk_imbalance_table = SK_TABLE(kernels);
