//go:build mpi

/* The acknowledgement's one-way time, what the acknowledgement-based broadcasts take
 * off every broadcast they time (Bcast method ack in ops/mpi/coll.c, two-sided;
 * Shmem_Broadcast method ack in families/shmem/kernels/coll.c, a put and an atomic):
 * measured the same way by both, once per point in their prepare hooks, each over its
 * own transport's round trip. */
#include <stdlib.h>
#include "sk_common.h"

int sk_ack_prepare(sk_ctx *c) {
	int task = c->a.task;
	if (task < 0 || task >= c->nprocs || task == c->a.root) return SK_ERR_ARGS;
	c->ack_s = calloc((size_t)c->nprocs, sizeof(double));
	return c->ack_s ? MPI_SUCCESS : SK_ERR_NOMEM;
}

/* Half the mean of the fastest quarter. The fastest round trips, because a round trip
 * is only ever slowed down (a partner still arriving, a descheduled rank), and what is
 * subtracted must be the acknowledgement alone; a quarter rather than the single
 * fastest, so that one lucky sample does not decide. */
double sk_ack_one_way(double *rtt) {
	enum { FASTEST = SK_ACK_ROUNDS / 4 };
	return sk_mean_fastest(rtt, SK_ACK_ROUNDS, FASTEST) / 2;
}
