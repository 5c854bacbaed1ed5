//go:build mpi

/* Alltoallv where one rank sends more (GROMACS's PME ranks): rank 0 sends its whole
 * block (msg_bytes) to every rank, every other rank 1/ratio of it (whole elements,
 * rounded down), each block at its usual place, so the buffers are Alltoall's. The
 * ratio is the request's number "ratio" (c->kparam[0]); the send counts are the
 * engine's c->counts, the receive counts this kernel's own (c->fam). */
#include <limits.h>
#include <stdlib.h>
#include "kernels.h"
#include "sk_common.h"

static int *rcounts(const sk_ctx *c) { return c->fam; }

static int prepare_skewed(sk_ctx *c) {
	double ratio = c->kparam[0];
	if (!(ratio >= 1 && ratio <= INT_MAX)) return SK_ERR_PARAM;
	MPI_Aint lb;
	CK(MPI_Type_get_extent(c->dt, &lb, &c->extent));
	int *r = malloc(sizeof(int) * (size_t)c->nprocs);
	if (!r) return SK_ERR_NOMEM;
	c->fam = r;
	int light = c->count / (int)ratio;
	for (int i = 0; i < c->nprocs; i++) {
		c->counts[i] = c->rank == 0 ? c->count : light;
		r[i] = i == 0 ? c->count : light;
	}
	return MPI_SUCCESS;
}

static void release_skewed(sk_ctx *c) {
	free(c->fam);
	c->fam = NULL;
}

static int step_alltoallv_skewed(sk_ctx *c) {
	return MPI_Alltoallv(c->a.sbuf, c->counts, c->displs, c->dt, c->a.rbuf, rcounts(c), c->displs, c->dt, c->comm);
}

/* check_data: every rank sends its pattern in every block; block i of rbuf starts
 * with rcounts[i] elements of rank i's block for this rank. */
static void fill_skewed(sk_ctx *c) {
	long long n = c->a.bytes;
	sk_pattern_fill(c->a.sbuf, n * c->nprocs, c->rank, n, c->rep, 0);
}

static void verify_skewed(sk_ctx *c, long long iters) {
	(void)iters;
	long long n = c->a.bytes;
	for (int i = 0; i < c->nprocs; i++)
		sk_check_mark(c, c->a.rbuf + (size_t)i * (size_t)n, (long long)rcounts(c)[i] * (long long)c->extent, i, i,
		              (long long)c->rank * n);
}

/* The kernel's table, which kernels.go hands to the engine. */
static const char *const skewed_params[] = {"ratio", NULL};
static const sk_kernel kernels[] = {
	{.name = "alltoallv_skewed", .step = step_alltoallv_skewed, .prepare = prepare_skewed, .flags = COLL,
	 .check = SK_CHECK_OWN, .fill = fill_skewed, .verify = verify_skewed, .params = skewed_params,
	 .release = release_skewed},
};
static const sk_table table = SK_TABLE(kernels);
static const sk_table *const tables[] = {&table};
const sk_table *const *sk_skewed_tables(int *n) {
	*n = 1;
	return tables;
}
