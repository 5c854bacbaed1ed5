//go:build mpi && shmem

/* The point's symmetric buffer (c->sym), allocated on every PE, idle or not: the plain
 * one of the point-to-point, atomic and memory kernels (sk_shmem_prepare); the
 * collectives, send-receives and locks lay out their own (coll.c, sendrecv.c,
 * locks.c). sk_shmem_close frees any of them. With the hooks every kernel file's table
 * names (the passive partner's step, the quiesce after a run): the kernel files depend
 * on this one, and only tables.c on them. */
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
	return sk_shmem_busy_prepare(c);
}

int sk_shmem_alloc(sk_ctx *c, long long bytes) {
	c->sym_bytes = bytes;
	c->sym = shmem_malloc((size_t)bytes);
	if (!c->sym) return SK_ERR_NOMEM;
	memset(c->sym, 0, (size_t)bytes);
	return MPI_SUCCESS;
}

int sk_shmem_close(sk_ctx *c) {
	sk_shmem_busy_close(c);
	if (!c->sym) return MPI_SUCCESS;
	shmem_barrier_all(); /* nothing in flight to a buffer about to go */
	shmem_free(c->sym);
	c->sym = NULL;
	return MPI_SUCCESS;
}

/* The partner of a point-to-point operation is passive: nothing to do per step. */
int sk_shmem_passive(sk_ctx *c) {
	(void)c;
	return MPI_SUCCESS;
}

/* After every run, on every PE: nothing of OpenSHMEM's left for another PE to drive
 * while this one is in the engine's MPI calls (ops/mpi: sk_kernel.quiesce). */
int sk_shmem_quiesce(sk_ctx *c) {
	(void)c;
	shmem_barrier_all();
	return MPI_SUCCESS;
}
