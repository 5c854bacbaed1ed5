//go:build mpi && shmem

/* The point's symmetric buffer (c->sym), allocated on every PE, idle or not: the plain
 * one of the point-to-point, atomic and memory kernels (sk_shmem_prepare); the
 * collectives, send-receives and locks lay out their own (coll.c, sendrecv.c,
 * locks.c). sk_shmem_close frees any of them. Apart from shmem.c, whose table names
 * these, so the kernel files that call them do not depend on the table's file. */
#include <shmem.h>
#include <string.h>
#include "skampi.h"
#include "shmem_kernels.h"
#include "sk_common.h"

/* Every PE allocates the point's symmetric buffer (collective, same size everywhere):
 * window slots of the message, twice over for the strided operations, and 64 bytes
 * for a flag. */
int sk_shmem_prepare(sk_ctx *c) {
	long long w = c->a.window > 0 ? c->a.window : 1;
	/* At least two cache lines: a lock and a holder's marker (locks.c). */
	long long bytes = ((2 * (long long)c->a.bytes * w + 63) & ~63LL) + 64;
	CK(sk_shmem_alloc(c, bytes < 128 ? 128 : bytes));
	shmem_barrier_all(); /* zeroed everywhere before anyone writes */
	return MPI_SUCCESS;
}

int sk_shmem_alloc(sk_ctx *c, long long bytes) {
	c->sym_bytes = bytes;
	c->sym = shmem_malloc((size_t)bytes);
	if (!c->sym) return SK_ERR_NOMEM;
	memset(c->sym, 0, (size_t)bytes);
	return MPI_SUCCESS;
}

int sk_shmem_close(sk_ctx *c) {
	if (!c->sym) return MPI_SUCCESS;
	shmem_barrier_all(); /* nothing in flight to a buffer about to go */
	shmem_free(c->sym);
	c->sym = NULL;
	return MPI_SUCCESS;
}
