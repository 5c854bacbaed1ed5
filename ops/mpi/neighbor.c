//go:build mpi

/* Neighbourhood collectives (MPI-3) on a process topology made once per point: a
 * periodic Cartesian grid (MPI_Cart_create, its dimensions checked by MPI_Dims_create
 * and its neighbours against MPI_Cart_shift) or a distributed graph
 * (MPI_Dist_graph_create_adjacent from the edges Go computed, ops.Topology). Blocks of
 * msg_bytes, one per neighbour; the v- and w-variants with equal counts. The
 * non-blocking forms are posted and completed as nonblocking.c's collectives. */
#include <stdlib.h>
#include "kernels.h"

/* sk_prepare_topology builds the topology's communicator and the per-neighbour
 * arrays; collective over the point's communicator. */
static int sk_prepare_topology(sk_ctx *c) {
	const sk_args *a = &c->a;
	int rc, in = c->indeg, out = c->outdeg, n = in > out ? in : out;
	if (!c->nsrc || !c->ndst) return SK_ERR_TOPOLOGY;
	c->ncounts = malloc(sizeof(int) * (size_t)(n + 1));
	c->ndispls = malloc(sizeof(int) * (size_t)(n + 1));
	c->wdispls = malloc(sizeof(MPI_Aint) * (size_t)(n + 1));
	c->wtypes = malloc(sizeof(MPI_Datatype) * (size_t)(n + 1));
	if (!c->ncounts || !c->ndispls || !c->wdispls || !c->wtypes) return SK_ERR_NOMEM;
	for (int i = 0; i < n; i++) {
		c->ncounts[i] = c->count;
		c->ndispls[i] = i * c->count;
		c->wdispls[i] = (MPI_Aint)i * a->bytes;
		c->wtypes[i] = c->dt;
	}
	if (a->topo_graph) {
/* Open MPI's MPI_UNWEIGHTED is a zero-length array, which GCC takes for a short read. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wstringop-overread"
		rc = MPI_Dist_graph_create_adjacent(c->comm, in, c->nsrc, MPI_UNWEIGHTED, out, c->ndst, MPI_UNWEIGHTED,
		                                    MPI_INFO_NULL, 0, &c->topo);
#pragma GCC diagnostic pop
		c->have_topo = rc == MPI_SUCCESS;
		return rc;
	}
	if (a->ndims < 1 || !a->dims || 2 * a->ndims != in || in != out) return SK_ERR_TOPOLOGY;
	int dims[16], periods[16];
	for (int d = 0; d < a->ndims && d < 16; d++) {
		dims[d] = a->dims[d];
		periods[d] = 1;
	}
	if ((rc = MPI_Dims_create(c->nprocs, a->ndims, dims)) != MPI_SUCCESS) return rc;
	if ((rc = MPI_Cart_create(c->comm, a->ndims, dims, periods, 0, &c->topo)) != MPI_SUCCESS) return rc;
	c->have_topo = 1;
	for (int d = 0; d < a->ndims; d++) { /* the library's neighbours are the ones Go checks against */
		int src, dst;
		if ((rc = MPI_Cart_shift(c->topo, d, 1, &src, &dst)) != MPI_SUCCESS) return rc;
		if (src != c->nsrc[2 * d] || dst != c->nsrc[2 * d + 1]) return SK_ERR_TOPOLOGY;
	}
	return MPI_SUCCESS;
}

static int sk_close_topology(sk_ctx *c) {
	if (!c->have_topo) return MPI_SUCCESS;
	c->have_topo = 0;
	return MPI_Comm_free(&c->topo);
}

int sk_step_neighbor_allgather(sk_ctx *c) {
	return MPI_Neighbor_allgather(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->topo);
}
int sk_step_neighbor_allgatherv(sk_ctx *c) {
	return MPI_Neighbor_allgatherv(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->ncounts, c->ndispls, c->dt, c->topo);
}
int sk_step_neighbor_alltoall(sk_ctx *c) {
	return MPI_Neighbor_alltoall(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->topo);
}
int sk_step_neighbor_alltoallv(sk_ctx *c) {
	return MPI_Neighbor_alltoallv(c->a.sbuf, c->ncounts, c->ndispls, c->dt, c->a.rbuf, c->ncounts, c->ndispls, c->dt,
	                              c->topo);
}
int sk_step_neighbor_alltoallw(sk_ctx *c) {
	return MPI_Neighbor_alltoallw(c->a.sbuf, c->ncounts, c->wdispls, c->wtypes, c->a.rbuf, c->ncounts, c->wdispls,
	                              c->wtypes, c->topo);
}

#define ONE(call)      \
	do {               \
		c->nreq = 1;   \
		return (call); \
	} while (0)
int sk_post_ineighbor_allgather(sk_ctx *c) {
	ONE(MPI_Ineighbor_allgather(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->topo, &c->req[0]));
}
int sk_post_ineighbor_allgatherv(sk_ctx *c) {
	ONE(MPI_Ineighbor_allgatherv(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->ncounts, c->ndispls, c->dt, c->topo,
	                             &c->req[0]));
}
int sk_post_ineighbor_alltoall(sk_ctx *c) {
	ONE(MPI_Ineighbor_alltoall(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->topo, &c->req[0]));
}
int sk_post_ineighbor_alltoallv(sk_ctx *c) {
	ONE(MPI_Ineighbor_alltoallv(c->a.sbuf, c->ncounts, c->ndispls, c->dt, c->a.rbuf, c->ncounts, c->ndispls, c->dt,
	                            c->topo, &c->req[0]));
}
int sk_post_ineighbor_alltoallw(sk_ctx *c) {
	ONE(MPI_Ineighbor_alltoallw(c->a.sbuf, c->ncounts, c->wdispls, c->wtypes, c->a.rbuf, c->ncounts, c->wdispls,
	                            c->wtypes, c->topo, &c->req[0]));
}

/* The kernels of this file (kernels.c joins the tables): the topology made by the
 * prepare hook, freed collectively by the close hook. */
#define NEIGHBOR(name_, step_, check_)                                                                          \
	{.name = (name_), .step = (step_), .prepare = sk_prepare_topology, .flags = COLL, .check = (check_), \
	 .close = sk_close_topology}
#define INEIGHBOR(name_, post_, check_)                                                                   \
	{.name = (name_), .prepare = sk_prepare_topology, .flags = COLL | SK_K_NONBLOCKING, .check = (check_), \
	 .post = (post_), .close = sk_close_topology}
static const sk_kernel kernels[] = {
	NEIGHBOR("neighbor_allgather", sk_step_neighbor_allgather, SK_CHECK_NEIGHBOR_ALLGATHER),
	NEIGHBOR("neighbor_allgatherv", sk_step_neighbor_allgatherv, SK_CHECK_NEIGHBOR_ALLGATHER),
	NEIGHBOR("neighbor_alltoall", sk_step_neighbor_alltoall, SK_CHECK_NEIGHBOR_ALLTOALL),
	NEIGHBOR("neighbor_alltoallv", sk_step_neighbor_alltoallv, SK_CHECK_NEIGHBOR_ALLTOALL),
	NEIGHBOR("neighbor_alltoallw", sk_step_neighbor_alltoallw, SK_CHECK_NEIGHBOR_ALLTOALL),
	INEIGHBOR("ineighbor_allgather", sk_post_ineighbor_allgather, SK_CHECK_NEIGHBOR_ALLGATHER),
	INEIGHBOR("ineighbor_allgatherv", sk_post_ineighbor_allgatherv, SK_CHECK_NEIGHBOR_ALLGATHER),
	INEIGHBOR("ineighbor_alltoall", sk_post_ineighbor_alltoall, SK_CHECK_NEIGHBOR_ALLTOALL),
	INEIGHBOR("ineighbor_alltoallv", sk_post_ineighbor_alltoallv, SK_CHECK_NEIGHBOR_ALLTOALL),
	INEIGHBOR("ineighbor_alltoallw", sk_post_ineighbor_alltoallw, SK_CHECK_NEIGHBOR_ALLTOALL),
};
const sk_table sk_neighbor_table = SK_TABLE(kernels);
