//go:build mpi

/* Locks and shared counters on a window of every process of the communicator (the
 * engine's window, sk_prepare_rma, freed by sk_close_rma). Rank 0 is the target. What a
 * run leaves is checked after it (the after hooks): the counter's increments, the
 * lock never held by two; the counts behind c->fam. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"
#include "sk_common.h"

/* A point's counts on this rank (c->fam). */
struct lk {
	long long violations;       /* a waiter read the holder's marker: the lock was shared */
	long long counter_expected; /* the increments made so far, over every rank */
};
#define LK(c) ((struct lk *)(c)->fam)

static int prepare_locks(sk_ctx *c) {
	if (!(c->fam = calloc(1, sizeof(struct lk)))) return SK_ERR_NOMEM;
	return sk_prepare_rma(c);
}

static void release_locks(sk_ctx *c) {
	free(c->fam);
	c->fam = NULL;
}

#define FLAG_TAG 5
#define base_of sk_rma_base_of

/* An 8-byte get and a flush inside a lock epoch: a lock an implementation may grant
 * lazily (MPI_Win_lock may return before it holds the lock; an empty epoch may be
 * elided) is surely held once data has come back under it. */
static int touch(sk_ctx *c, int64_t *v) {
	CK(MPI_Get(v, 1, MPI_INT64_T, 0, base_of(c, 0), 1, MPI_INT64_T, c->win));
	return MPI_Win_flush(0, c->win);
}

/* Lock contention: every rank but the target acquires rank 0's lock, gets 8 bytes and
 * releases it, all at once; the time is per acquisition. */
static int step_lock_contention(sk_ctx *c) {
	if (c->rank == 0) return MPI_SUCCESS;
	int64_t v;
	int type = c->mode == SK_SYNC_LOCK_SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
	CK(MPI_Win_lock(type, 0, 0, c->win));
	CK(touch(c, &v));
	return MPI_Win_unlock(0, c->win);
}

/* A held lock: rank 0 (the holder) locks its own window exclusively and gets 8 bytes
 * under it (a lazy MPI takes a lock only with the epoch's first operation: without
 * one the waiters might be told of a lock nobody holds yet), tells every other rank,
 * keeps the lock for c->hold_spin spins, and releases it; each waiter, told, asks for
 * the lock and times until it holds it (its get under the lock has come back). The
 * holder writes a marker in its window while it holds the lock and clears it before
 * releasing; a waiter that reads the marker set proves the lock was not exclusive.
 * The holder waits for every waiter before the next step, so steps do not overlap. A waiter's time is its mean wait (SK_K_OWN_RESULT); the point's is the
 * slowest waiter's, which with several waiters includes queueing behind the others. */
static int step_lock_held(sk_ctx *c) {
	char go = 0;
	if (c->rank == 0) {
		int64_t v;
		CK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, c->win));
		CK(touch(c, &v)); /* held, surely, before anyone is told */
		volatile int64_t *marker = (volatile int64_t *)c->wbase;
		*marker = 1;
		for (int r = 1; r < c->nprocs; r++) CK(MPI_Send(&go, 0, MPI_BYTE, r, FLAG_TAG, c->comm));
		sk_spin(c->hold_spin);
		*marker = 0;
		CK(MPI_Win_unlock(0, c->win));
		for (int r = 1; r < c->nprocs; r++) CK(MPI_Recv(&go, 0, MPI_BYTE, r, FLAG_TAG, c->comm, MPI_STATUS_IGNORE));
		return MPI_SUCCESS;
	}
	CK(MPI_Recv(&go, 0, MPI_BYTE, 0, FLAG_TAG, c->comm, MPI_STATUS_IGNORE));
	int64_t seen = -1;
	double t0 = sk_now();
	CK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, c->win));
	CK(touch(c, &seen));
	c->result += sk_now() - t0;
	CK(MPI_Win_unlock(0, c->win));
	if (seen != 0) LK(c)->violations++;
	return MPI_Send(&go, 0, MPI_BYTE, 0, FLAG_TAG, c->comm);
}

/* after_lock_held: after a run, every rank learns whether any waiter saw the lock
 * shared, so all of them fail the point together (one failing alone would leave the
 * others waiting in the next collective call). */
static int after_lock_held(sk_ctx *c, long long iters) {
	(void)iters;
	long long all = LK(c)->violations;
	CK(sk_agree_sum(c, &all));
	if (!all) return MPI_SUCCESS;
	snprintf(sk_failure, SK_FAILURE_LEN, "%lld time(s) a waiter held the exclusive lock while its holder still had it", all);
	return SK_ERR_FAILED;
}

/* A shared counter at rank 0, incremented by every rank: by MPI_Fetch_and_op under
 * lock_all, or by lock, get, flush, put, unlock. After each run rank 0 checks it holds
 * exactly the increments made (after_counter). */
static int step_counter_fetch_and_op(sk_ctx *c) {
	int64_t one = 1, old;
	CK(MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, base_of(c, 0), MPI_SUM, c->win));
	return MPI_Win_flush(0, c->win);
}

static int step_counter_lock_get_put(sk_ctx *c) {
	int64_t v = 0;
	CK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, c->win));
	CK(touch(c, &v));
	v++;
	CK(MPI_Put(&v, 1, MPI_INT64_T, 0, base_of(c, 0), 1, MPI_INT64_T, c->win));
	return MPI_Win_unlock(0, c->win);
}

/* after_counter: after a run of iters steps on every rank, the counter at rank 0
 * must hold every increment (a lost one is a broken atomic or lock). Rank 0's verdict
 * is broadcast, so every rank fails the point together. */
static int after_counter(sk_ctx *c, long long iters) {
	CK(MPI_Barrier(c->comm));
	long long expected = LK(c)->counter_expected += iters * (long long)c->nprocs;
	long long v = 0;
	if (c->rank == 0) {
		int64_t got = 0;
		if (c->locked_all) { /* already in a passive epoch on every rank */
			CK(MPI_Get(&got, 1, MPI_INT64_T, 0, base_of(c, 0), 1, MPI_INT64_T, c->win));
			CK(MPI_Win_flush(0, c->win));
		} else {
			CK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, c->win));
			CK(MPI_Get(&got, 1, MPI_INT64_T, 0, base_of(c, 0), 1, MPI_INT64_T, c->win));
			CK(MPI_Win_unlock(0, c->win));
		}
		v = got;
	}
	CK(MPI_Bcast(&v, 1, MPI_LONG_LONG, 0, c->comm));
	if (v == expected) return MPI_SUCCESS;
	snprintf(sk_failure, SK_FAILURE_LEN, "the shared counter holds %lld after %lld increments: updates were lost", v, expected);
	return SK_ERR_FAILED;
}

/* The kernels of this file (kernels.go hands the table to the engine), on a window of
 * every process prepared by the engine. */
#define LOCK(name_, step_, flags_, mode_, after_)                                                               \
	{.name = (name_), .step = (step_), .prepare = prepare_locks, .flags = (flags_), .close = sk_close_rma, \
	 .mode = (mode_), .after = (after_), .release = release_locks}
static const sk_kernel kernels[] = {
	/* methods exclusive and shared */
	LOCK("lock_contention", step_lock_contention, SK_K_COLLECTIVE, "exclusive", NULL),
	LOCK("lock_held", step_lock_held, SK_K_COLLECTIVE | SK_K_OWN_RESULT | SK_K_UNIFIED, NULL, after_lock_held),
	LOCK("counter_fetch_and_op", step_counter_fetch_and_op, SK_K_COLLECTIVE, "lock_all_flush", after_counter),
	LOCK("counter_lock_get_put", step_counter_lock_get_put, SK_K_COLLECTIVE, NULL, after_counter),
};
static const sk_table table = SK_TABLE(kernels);
static const sk_table *const tables[] = {&table};
const sk_table *const *sk_locks_tables(int *n) {
	*n = 1;
	return tables;
}
