//go:build mpi

/* Collectives with counts per process, beside coll.c's (named in kernels.c). */
#include <limits.h>
#include <stdlib.h>
#include "kernels.h"
#include "sk_common.h"

/* Reduce_Scatterv, SKaMPI's baseline for MPI_Reduce_scatter: MPI_Reduce of every
 * process's nprocs blocks to the root, then MPI_Scatterv of block i to process i (the
 * root keeps its own in place). Counts are equal, msg_bytes each, as Reduce_scatter's. */
static int step_reduce_scatterv(sk_ctx *c) {
	int root = c->a.root;
	CK(MPI_Reduce(c->a.sbuf, c->a.rbuf, c->count * c->nprocs, c->dt, c->op, root, c->comm));
	if (c->rank == root)
		return MPI_Scatterv(c->a.rbuf, c->counts, c->displs, c->dt, MPI_IN_PLACE, c->count, c->dt, root, c->comm);
	return MPI_Scatterv(NULL, NULL, NULL, c->dt, c->a.rbuf, c->count, c->dt, root, c->comm);
}

/* Alltoallw's arrays, once per point: the equal counts of the v-forms (c->counts), a
 * displacement in bytes and the point's datatype for every process, so its blocks lie
 * as Alltoall's (and are checked alike). Also the persistent form's (persistent.c). */
int sk_prepare_alltoallw(sk_ctx *c) {
	int p = c->nprocs;
	if ((long long)c->a.bytes * p > INT_MAX) return SK_ERR_ARGS; /* int displacements */
	c->bdispls = malloc(sizeof(int) * (size_t)p);
	c->wtypes = malloc(sizeof(MPI_Datatype) * (size_t)p);
	if (!c->bdispls || !c->wtypes) return SK_ERR_NOMEM;
	for (int i = 0; i < p; i++) {
		c->bdispls[i] = i * c->a.bytes;
		c->wtypes[i] = c->dt;
	}
	return MPI_SUCCESS;
}

static int step_alltoallw(sk_ctx *c) {
	return MPI_Alltoallw(c->a.sbuf, c->counts, c->bdispls, c->wtypes, c->a.rbuf, c->counts, c->bdispls, c->wtypes,
	                     c->comm);
}

/* The non-blocking form, posted and completed as nonblocking.c's collectives. */
static int post_ialltoallw(sk_ctx *c) {
	c->nreq = 1;
	return MPI_Ialltoallw(c->a.sbuf, c->counts, c->bdispls, c->wtypes, c->a.rbuf, c->counts, c->bdispls, c->wtypes,
	                      c->comm, &c->req[0]);
}

/* The kernels of this file (kernels.c joins the tables). */
static const sk_kernel kernels[] = {
	KERNEL("reduce_scatterv", step_reduce_scatterv, COLL),
	{.name = "alltoallw", .step = step_alltoallw, .prepare = sk_prepare_alltoallw, .flags = COLL,
	 .check = SK_CHECK_ALLTOALL},
	{.name = "ialltoallw", .prepare = sk_prepare_alltoallw, .flags = COLL | SK_K_NONBLOCKING, .check = SK_CHECK_ALLTOALL,
	 .post = post_ialltoallw},
};
const sk_table sk_coll_v_table = SK_TABLE(kernels);
