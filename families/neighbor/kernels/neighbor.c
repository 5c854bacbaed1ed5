//go:build mpi

/* Neighbourhood collectives (MPI-3) on a process topology made once per point: a
 * periodic Cartesian grid (MPI_Cart_create, its dimensions checked by MPI_Dims_create
 * and its neighbours against MPI_Cart_shift) or a distributed graph
 * (MPI_Dist_graph_create_adjacent from the edges Go computed, ops.Topology). Blocks of
 * msg_bytes, one per neighbour; the v- and w-variants with equal counts. The
 * non-blocking forms are posted and completed as the engine's non-blocking collectives.
 *
 * What the family's Go gives by name (families/neighbor): the numbers topo_graph (1: a
 * graph, 0: a grid); the lists sources and dests (this rank's edges), from_blocks (for
 * each receive block, the mask of its source's send blocks that may land there) and
 * dims (a grid's); the word topology (its name, for a failure). */
#include <stdio.h>
#include <stdlib.h>
#include "skampi.h"

/* A point's topology on this rank (c->fam). */
struct nb {
	MPI_Comm topo;
	int have_topo, indeg, outdeg;
	int *src, *dst;
	unsigned long long *from;
	int *counts, *displs;
	MPI_Aint *wdispls;
	MPI_Datatype *wtypes;
};
#define NB(c) ((struct nb *)(c)->fam)

static const char *const params[] = {"topo_graph", NULL};
static const char *const strings[] = {"topology", NULL};
static const char *const arrays[] = {"sources", "dests", "from_blocks", "dims", NULL};
enum { SOURCES, DESTS, FROM_BLOCKS, DIMS };

static void release_topology(sk_ctx *c) {
	struct nb *b = NB(c);
	if (!b) return;
	free(b->src);
	free(b->dst);
	free(b->from);
	free(b->counts);
	free(b->displs);
	free(b->wdispls);
	free(b->wtypes);
	free(b);
	c->fam = NULL;
}

/* ints copies one of the request's lists into C ints (n + 1 of them: never empty). */
static int *ints(const long long *v, int n) {
	int *out = malloc(sizeof(int) * (size_t)(n + 1));
	if (out)
		for (int i = 0; i < n; i++) out[i] = (int)v[i];
	return out;
}

/* prepare_topology builds the topology's communicator and the per-neighbour arrays;
 * collective over the point's communicator. */
static int prepare_topology(sk_ctx *c) {
	const long long *src = c->karray[SOURCES], *dst = c->karray[DESTS], *from = c->karray[FROM_BLOCKS];
	int in = c->karray_len[SOURCES], out = c->karray_len[DESTS], n = in > out ? in : out, rc;
	if (!src || !dst) return SK_ERR_ARGS; /* the family gives every member its edges */
	struct nb *b = calloc(1, sizeof *b);
	if (!(c->fam = b)) return SK_ERR_NOMEM;
	b->indeg = in;
	b->outdeg = out;
	b->src = ints(src, in);
	b->dst = ints(dst, out);
	b->from = calloc((size_t)in + 1, sizeof(unsigned long long));
	b->counts = malloc(sizeof(int) * (size_t)(n + 1));
	b->displs = malloc(sizeof(int) * (size_t)(n + 1));
	b->wdispls = malloc(sizeof(MPI_Aint) * (size_t)(n + 1));
	b->wtypes = malloc(sizeof(MPI_Datatype) * (size_t)(n + 1));
	if (!b->src || !b->dst || !b->from || !b->counts || !b->displs || !b->wdispls || !b->wtypes) return SK_ERR_NOMEM;
	for (int i = 0; from && i < in && i < c->karray_len[FROM_BLOCKS]; i++) b->from[i] = (unsigned long long)from[i];
	for (int i = 0; i < n; i++) {
		b->counts[i] = c->count;
		b->displs[i] = i * c->count;
		b->wdispls[i] = (MPI_Aint)i * c->a.bytes;
		b->wtypes[i] = c->dt;
	}
	if (c->kparam[0] != 0) { /* topo_graph */
/* Open MPI's MPI_UNWEIGHTED is a zero-length array, which GCC takes for a short read. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wstringop-overread"
		rc = MPI_Dist_graph_create_adjacent(c->comm, in, b->src, MPI_UNWEIGHTED, out, b->dst, MPI_UNWEIGHTED,
		                                    MPI_INFO_NULL, 0, &b->topo);
#pragma GCC diagnostic pop
		b->have_topo = rc == MPI_SUCCESS;
		return rc;
	}
	int ndims = c->karray_len[DIMS];
	if (ndims < 1 || ndims > 16 || !c->karray[DIMS] || 2 * ndims != in || in != out) return SK_ERR_ARGS;
	int dims[16], periods[16];
	for (int d = 0; d < ndims; d++) {
		dims[d] = (int)c->karray[DIMS][d];
		periods[d] = 1;
	}
	if ((rc = MPI_Dims_create(c->nprocs, ndims, dims)) != MPI_SUCCESS) return rc;
	if ((rc = MPI_Cart_create(c->comm, ndims, dims, periods, 0, &b->topo)) != MPI_SUCCESS) return rc;
	b->have_topo = 1;
	for (int d = 0; d < ndims; d++) { /* the library's neighbours are the ones Go checks against */
		int s, t;
		if ((rc = MPI_Cart_shift(b->topo, d, 1, &s, &t)) != MPI_SUCCESS) return rc;
		if (s != b->src[2 * d] || t != b->src[2 * d + 1]) {
			snprintf(sk_failure, SK_FAILURE_LEN, "kernel %s: the library's topology (MPI_Cart_shift) differs from the one computed for %s",
			         c->k->name, c->kstring[0] ? c->kstring[0] : "the grid");
			return SK_ERR_FAILED;
		}
	}
	return MPI_SUCCESS;
}

static int close_topology(sk_ctx *c) {
	struct nb *b = NB(c);
	if (!b || !b->have_topo) return MPI_SUCCESS;
	b->have_topo = 0;
	return MPI_Comm_free(&b->topo);
}

/* check_data: allgathers send one block, block i of rbuf is in-neighbour i's; alltoalls
 * send a block per out-neighbour, and block i of rbuf is the one in-neighbour i sent
 * this rank. */
static void fill_allgather(sk_ctx *c) { sk_pattern_fill(c->a.sbuf, c->a.bytes, c->rank, c->a.bytes, c->rep, 0); }
static void fill_alltoall(sk_ctx *c) {
	long long n = c->a.bytes;
	sk_pattern_fill(c->a.sbuf, n * NB(c)->outdeg, c->rank, n, c->rep, 0);
}
static void verify_allgather(sk_ctx *c, long long iters) {
	(void)iters;
	long long n = c->a.bytes;
	for (int i = 0; i < NB(c)->indeg; i++) sk_check_mark(c, c->a.rbuf + (size_t)i * (size_t)n, n, NB(c)->src[i], i, 0);
}
static void verify_alltoall(sk_ctx *c, long long iters) {
	(void)iters;
	struct nb *b = NB(c);
	long long n = c->a.bytes;
	for (int i = 0; i < b->indeg; i++) {
		/* Any of the source's blocks to this rank will do where the two share several
		 * edges (their order is the library's); the first is reported. */
		const char *blk = c->a.rbuf + (size_t)i * (size_t)n;
		int first = -1, ok = 0;
		for (int j = 0; j < 64 && !ok; j++) {
			if (!(b->from[i] >> j & 1)) continue;
			if (first < 0) first = j;
			ok = sk_pattern_find(blk, n, b->src[i], n, c->rep, (long long)j * n) < 0;
		}
		if (!ok) sk_check_mark(c, blk, n, b->src[i], i, (long long)(first < 0 ? 0 : first) * n);
	}
}

#define TOPO NB(c)->topo
#define CNT NB(c)->counts
#define DSP NB(c)->displs
#define WD NB(c)->wdispls
#define WT NB(c)->wtypes
static int step_allgather(sk_ctx *c) { return MPI_Neighbor_allgather(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, TOPO); }
static int step_allgatherv(sk_ctx *c) {
	return MPI_Neighbor_allgatherv(c->a.sbuf, c->count, c->dt, c->a.rbuf, CNT, DSP, c->dt, TOPO);
}
static int step_alltoall(sk_ctx *c) { return MPI_Neighbor_alltoall(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, TOPO); }
static int step_alltoallv(sk_ctx *c) { return MPI_Neighbor_alltoallv(c->a.sbuf, CNT, DSP, c->dt, c->a.rbuf, CNT, DSP, c->dt, TOPO); }
static int step_alltoallw(sk_ctx *c) { return MPI_Neighbor_alltoallw(c->a.sbuf, CNT, WD, WT, c->a.rbuf, CNT, WD, WT, TOPO); }

#define ONE(call)      \
	do {               \
		c->nreq = 1;   \
		return (call); \
	} while (0)
static int post_allgather(sk_ctx *c) {
	ONE(MPI_Ineighbor_allgather(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, TOPO, &c->req[0]));
}
static int post_allgatherv(sk_ctx *c) {
	ONE(MPI_Ineighbor_allgatherv(c->a.sbuf, c->count, c->dt, c->a.rbuf, CNT, DSP, c->dt, TOPO, &c->req[0]));
}
static int post_alltoall(sk_ctx *c) {
	ONE(MPI_Ineighbor_alltoall(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, TOPO, &c->req[0]));
}
static int post_alltoallv(sk_ctx *c) {
	ONE(MPI_Ineighbor_alltoallv(c->a.sbuf, CNT, DSP, c->dt, c->a.rbuf, CNT, DSP, c->dt, TOPO, &c->req[0]));
}
static int post_alltoallw(sk_ctx *c) {
	ONE(MPI_Ineighbor_alltoallw(c->a.sbuf, CNT, WD, WT, c->a.rbuf, CNT, WD, WT, TOPO, &c->req[0]));
}

/* The kernels of this file (kernels.go hands the table to the engine): the topology
 * made by the prepare hook, freed collectively by the close hook, its memory by the
 * release hook; the data checked by the family's own hooks (AG: allgathers, AA:
 * alltoalls). */
#define AG .fill = fill_allgather, .verify = verify_allgather
#define AA .fill = fill_alltoall, .verify = verify_alltoall
#define COMMON                                                                                                  \
	.prepare = prepare_topology, .check = SK_CHECK_OWN, .close = close_topology, .release = release_topology, \
	.params = params, .strings = strings, .arrays = arrays
#define NEIGHBOR(name_, step_, check_) {.name = (name_), .step = (step_), .flags = SK_K_COLLECTIVE, COMMON, check_}
#define INEIGHBOR(name_, post_, check_) \
	{.name = (name_), .post = (post_), .flags = SK_K_COLLECTIVE | SK_K_NONBLOCKING, COMMON, check_}
static const sk_kernel kernels[] = {
	NEIGHBOR("neighbor_allgather", step_allgather, AG),
	NEIGHBOR("neighbor_allgatherv", step_allgatherv, AG),
	NEIGHBOR("neighbor_alltoall", step_alltoall, AA),
	NEIGHBOR("neighbor_alltoallv", step_alltoallv, AA),
	NEIGHBOR("neighbor_alltoallw", step_alltoallw, AA),
	INEIGHBOR("ineighbor_allgather", post_allgather, AG),
	INEIGHBOR("ineighbor_allgatherv", post_allgatherv, AG),
	INEIGHBOR("ineighbor_alltoall", post_alltoall, AA),
	INEIGHBOR("ineighbor_alltoallv", post_alltoallv, AA),
	INEIGHBOR("ineighbor_alltoallw", post_alltoallw, AA),
};
static const sk_table table = SK_TABLE(kernels);
static const sk_table *const tables[] = {&table};
const sk_table *const *sk_neighbor_tables(int *n) {
	*n = 1;
	return tables;
}
