//go:build mpi && shmem

/* Point-to-point synchronisation by itself (SKaMPI's Shmem_Wait_Until and
 * Shmem_Test): every PE waits for, or tests, a symmetric long of its own that already
 * holds the value, so the time is the call's, not a partner's. */
#include <shmem.h>
#include "skampi.h"
#include "shmem_kernels.h"
#include "sk_common.h"

static long *flag(sk_ctx *c) { return (long *)c->sym; }

static int prepare_flag(sk_ctx *c) {
	CK(sk_shmem_prepare(c));
	*flag(c) = 1;
	return MPI_SUCCESS;
}

static int wait_until(sk_ctx *c) {
	if (c->a.role == SK_ROLE_IDLE) return MPI_SUCCESS;
	shmem_long_wait_until(flag(c), SHMEM_CMP_EQ, 1);
	return MPI_SUCCESS;
}

/* A test that finds the value must say so: a 0 would mean the call read stale
 * memory, and fails the point as wrong data. */
static int test(sk_ctx *c) {
	if (c->a.role == SK_ROLE_IDLE) return MPI_SUCCESS;
	if (shmem_long_test(flag(c), SHMEM_CMP_EQ, 1) != 1 && !c->bad) {
		c->bad = 1;
		c->bad_from = c->rank;
		c->bad_expected = 1;
		c->bad_actual = 0;
		c->bad_rep = c->rep;
	}
	return MPI_SUCCESS;
}

/* The kernels of this file (tables.c joins the tables). */
static const sk_kernel kernels[] = {
	SHMEM_KERNEL("shmem_wait_until", wait_until, prepare_flag, SK_K_COLLECTIVE),
	SHMEM_KERNEL("shmem_test", test, prepare_flag, SK_K_COLLECTIVE),
};
const sk_table sk_shmem_wait_table = SK_TABLE(kernels);
