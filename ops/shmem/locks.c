//go:build mpi && shmem

/* OpenSHMEM locks (named in shmem.c's table): a lock is a symmetric long, here the
 * first of the point's symmetric buffer (zero on every PE when the point starts). The
 * members of the communicator take part; the others only allocate the buffer. */
#include <shmem.h>
#include <stdint.h>
#include "skampi.h"
#include "shmem_kernels.h"

#define GO_TAG 6

static long *lock_of(sk_ctx *c) { return (long *)c->sym; }
/* The holder's marker, one cache line past the lock. */
static long *marker_of(sk_ctx *c) { return (long *)(c->sym + 64); }

/* Every member sets and clears the one lock at once: acquisition + release per PE,
 * contended by all the others (one member: uncontended). */
int sk_shmem_lock_contention(sk_ctx *c) {
	shmem_set_lock(lock_of(c));
	shmem_clear_lock(lock_of(c));
	return MPI_SUCCESS;
}

/* The same with shmem_test_lock spun until it succeeds. */
int sk_shmem_test_lock(sk_ctx *c) {
	while (shmem_test_lock(lock_of(c)) != 0)
		;
	shmem_clear_lock(lock_of(c));
	return MPI_SUCCESS;
}

/* A held lock: the communicator's first PE sets the lock, marks its marker, tells
 * every other member (an MPI message), keeps the lock for c->a.spin spins, clears the
 * marker and the lock. A waiter, told, times until shmem_set_lock returns, then reads
 * the holder's marker with shmem_long_g: set means the lock was not exclusive. The
 * holder waits for every waiter before the next step. A waiter's time is its mean
 * wait (SK_K_OWN_RESULT); the point's the slowest waiter's. */
int sk_shmem_lock_held(sk_ctx *c) {
	char go = 0;
	int holder = c->a.target_pe;
	if (c->rank == 0) {
		shmem_set_lock(lock_of(c));
		*(volatile long *)marker_of(c) = 1;
		for (int r = 1; r < c->nprocs; r++) {
			int rc = MPI_Send(&go, 0, MPI_BYTE, r, GO_TAG, c->comm);
			if (rc != MPI_SUCCESS) return rc;
		}
		sk_spin(c->a.spin);
		*(volatile long *)marker_of(c) = 0;
		shmem_quiet();
		shmem_clear_lock(lock_of(c));
		for (int r = 1; r < c->nprocs; r++) {
			int rc = MPI_Recv(&go, 0, MPI_BYTE, r, GO_TAG, c->comm, MPI_STATUS_IGNORE);
			if (rc != MPI_SUCCESS) return rc;
		}
		return MPI_SUCCESS;
	}
	int rc = MPI_Recv(&go, 0, MPI_BYTE, 0, GO_TAG, c->comm, MPI_STATUS_IGNORE);
	if (rc != MPI_SUCCESS) return rc;
	double t0 = sk_now();
	shmem_set_lock(lock_of(c));
	c->result += sk_now() - t0;
	if (shmem_long_g(marker_of(c), holder) != 0) c->lock_violations++;
	shmem_clear_lock(lock_of(c));
	return MPI_Send(&go, 0, MPI_BYTE, 0, GO_TAG, c->comm);
}
