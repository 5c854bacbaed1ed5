//go:build mpi

/* Ring algorithms written with point-to-point calls. */
#include <string.h>
#include "skampi.h"

enum { RING_TAG = 0x7269 };

/* One allgather: this rank's block into its place, then p - 1 steps; in step k rank r
 * sends block (r - k) mod p to r + 1 and receives block (r - k - 1) mod p from r - 1,
 * so every block goes round the ring once. */
static int step_allgather_ring(sk_ctx *c) {
	int p = c->nprocs, r = c->rank, right = (r + 1) % p, left = (r - 1 + p) % p;
	size_t blk = (size_t)c->a.bytes;
	memcpy(c->a.rbuf + (size_t)r * blk, c->a.sbuf, blk);
	for (int k = 0; k < p - 1; k++) {
		int out = (r - k + p) % p, in = (r - k - 1 + p) % p;
		int rc = MPI_Sendrecv(c->a.rbuf + (size_t)out * blk, c->count, c->dt, right, RING_TAG,
		                      c->a.rbuf + (size_t)in * blk, c->count, c->dt, left, RING_TAG, c->comm, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_SUCCESS;
}

static const sk_kernel kernels[] = {
	{.name = "allgather_ring", .step = step_allgather_ring, .flags = SK_K_COLLECTIVE, .check = SK_CHECK_ALLGATHER},
};

static const sk_table table = SK_TABLE(kernels);
static const sk_table *const tables[] = {&table};

const sk_table *const *sk_ring_tables(int *n) {
	*n = (int)(sizeof tables / sizeof tables[0]);
	return tables;
}
