//go:build mpi

/* Collectives with counts per process, beside coll.c's (named in kernels.c). */
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

/* The kernels of this file (kernels.c joins the tables). */
static const sk_kernel kernels[] = {
	KERNEL("reduce_scatterv", step_reduce_scatterv, COLL),
};
const sk_table sk_coll_v_table = SK_TABLE(kernels);
