//go:build mpi && shmem

/* OpenSHMEM collectives (named in shmem.c's table) on the active set of the point's
 * communicator: PE_start its first PE (target_pe), stride 1, PE_size its size, as the
 * block layout makes communicators. msg_bytes is one PE's data, moved as 64-bit
 * elements. Each call has its own pSync array, initialised to SHMEM_SYNC_VALUE when the
 * point starts; the engine runs one call per repetition after a barrier, which is what
 * lets a pSync array be used again (OpenSHMEM 1.4: a pSync array may be reused once
 * every PE of the active set is done with it). The broadcast "rounds" method uses one
 * array per root, the others one. */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "skampi.h"
#include "shmem_kernels.h"

#define SYNC_LONGS 64 /* per pSync array: more than every *_SYNC_SIZE, a cache line apart */

/* The symmetric layout: target (nprocs blocks), source (nprocs blocks), pSync arrays
 * (nprocs + 1), pWrk, the acknowledgement counter. */
static size_t up64(size_t n) { return (n + 63) & ~(size_t)63; }
static size_t block_area(const sk_ctx *c) { return up64((size_t)c->a.bytes * (size_t)c->a.nprocs); }
static char *target(sk_ctx *c) { return c->sym; }
static char *source(sk_ctx *c) { return c->sym + block_area(c); }
static long *psync(sk_ctx *c, int i) { return (long *)(c->sym + 2 * block_area(c)) + (size_t)i * SYNC_LONGS; }
static size_t wrk_longs(const sk_ctx *c) {
	size_t n = (size_t)c->a.bytes / 8 / 2 + 1;
	return n < SHMEM_REDUCE_MIN_WRKDATA_SIZE ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : n;
}
static void *pwrk(sk_ctx *c) { return (char *)psync(c, c->a.nprocs + 1); }
static long *ack_counter(sk_ctx *c) { return (long *)((char *)pwrk(c) + up64(wrk_longs(c) * 8)); }

int sk_shmem_prepare_coll(sk_ctx *c) {
	size_t psyncs = ((size_t)c->a.nprocs + 1) * SYNC_LONGS * sizeof(long);
	c->sym_bytes = (long long)(2 * block_area(c) + psyncs + up64(wrk_longs(c) * 8) + 64);
	c->sym = shmem_malloc((size_t)c->sym_bytes);
	if (!c->sym) return SK_ERR_NOMEM;
	memset(c->sym, 0, (size_t)c->sym_bytes);
	for (int i = 0; i <= c->a.nprocs; i++)
		for (int j = 0; j < SYNC_LONGS; j++) psync(c, i)[j] = SHMEM_SYNC_VALUE;
	shmem_barrier_all(); /* every PE's arrays ready before anyone uses them */
	return MPI_SUCCESS;
}

#define START c->a.target_pe, 0, c->a.nprocs
static size_t nlong(const sk_ctx *c) { return (size_t)c->a.bytes / 8; }

int sk_shmem_broadcast(sk_ctx *c) {
	shmem_broadcast64(target(c), source(c), nlong(c), c->a.root, START, psync(c, 0));
	return MPI_SUCCESS;
}

/* Alg. 1: the broadcast, then a barrier of the active set (a barrier measured on its
 * own is subtracted: Shmem_Barrier). */
int sk_shmem_broadcast_barrier(sk_ctx *c) {
	shmem_broadcast64(target(c), source(c), nlong(c), c->a.root, START, psync(c, 0));
	shmem_barrier(START, psync(c, 1));
	return MPI_SUCCESS;
}

/* Alg. 3: a broadcast from every PE of the set in turn, each with its own pSync. */
int sk_shmem_broadcast_rounds(sk_ctx *c) {
	for (int r = 0; r < c->nprocs; r++) shmem_broadcast64(target(c), source(c), nlong(c), r, START, psync(c, r));
	return MPI_SUCCESS;
}

/* Alg. 4-5, one-sided: a broadcast, then the measured task acknowledges it with an
 * atomic fetch-and-increment on the root's counter; the root waits for the counter
 * (shmem_long_wait_until) and keeps the time less the acknowledgement's own (measured
 * in prepare). One task at a time (the runner's per-task method): the point's time is
 * the slowest task's mean. */
int sk_shmem_broadcast_ack(sk_ctx *c) {
	int root = c->a.root, task = c->a.task, root_pe = c->a.target_pe + root;
	double t0 = sk_now();
	shmem_broadcast64(target(c), source(c), nlong(c), root, START, psync(c, 0));
	c->seq++;
	if (c->rank == task) {
		shmem_long_atomic_fetch_inc(ack_counter(c), root_pe);
	} else if (c->rank == root) {
		shmem_long_wait_until(ack_counter(c), SHMEM_CMP_GE, c->seq);
		c->result += sk_now() - t0 - c->ack_s[task];
	}
	return MPI_SUCCESS;
}

static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The acknowledgement's one-way time, task to root: half the mean of the fastest
 * quarter of 33 rounds of (the root sets the task's flag; the task, seeing it,
 * fetch-increments the root's counter; the root waits for it), after 8 untimed ones, as
 * ops/mpi's two-sided acknowledgement is measured. The counter is zeroed again, on
 * every PE, before the point. */
int sk_shmem_prepare_broadcast_ack(sk_ctx *c) {
	enum { WARMUP = 8, ROUNDS = 33, FASTEST = ROUNDS / 4 };
	int rc = sk_shmem_prepare_coll(c);
	if (rc != MPI_SUCCESS || c->a.role == SK_ROLE_IDLE) return rc;
	int root = c->a.root, task = c->a.task, root_pe = c->a.target_pe + root, task_pe = c->a.target_pe + task;
	if (task < 0 || task >= c->nprocs || task == root) return SK_ERR_ARGS;
	if (!(c->ack_s = calloc((size_t)c->nprocs, sizeof(double)))) return SK_ERR_NOMEM;
	long *flag = ack_counter(c) + 1; /* the task's "go", beside the counter */
	double rtt[ROUNDS];
	for (int i = -WARMUP; i < ROUNDS; i++) {
		if (c->rank == root) {
			double t0 = sk_now();
			shmem_long_p(flag, i + WARMUP + 1, task_pe);
			shmem_long_wait_until(ack_counter(c), SHMEM_CMP_GE, i + WARMUP + 1);
			if (i >= 0) rtt[i] = sk_now() - t0;
		} else if (c->rank == task) {
			shmem_long_wait_until(flag, SHMEM_CMP_GE, i + WARMUP + 1);
			shmem_long_atomic_fetch_inc(ack_counter(c), root_pe);
		}
	}
	if (c->rank == root) {
		qsort(rtt, ROUNDS, sizeof rtt[0], cmp_double);
		double sum = 0;
		for (int i = 0; i < FASTEST; i++) sum += rtt[i];
		c->ack_s[task] = sum / FASTEST / 2;
	}
	/* Back to zero on every member before the point (the counter counts steps). */
	rc = MPI_Barrier(c->comm);
	*ack_counter(c) = 0;
	*flag = 0;
	if (rc == MPI_SUCCESS) rc = MPI_Barrier(c->comm);
	return rc;
}

int sk_shmem_barrier(sk_ctx *c) {
	shmem_barrier(START, psync(c, 0));
	return MPI_SUCCESS;
}

int sk_shmem_barrier_all(sk_ctx *c) {
	(void)c;
	shmem_barrier_all();
	return MPI_SUCCESS;
}

int sk_shmem_sync_all(sk_ctx *c) {
	(void)c;
	shmem_sync_all();
	return MPI_SUCCESS;
}

#define REDUCE(name, T, call)                                                                              \
	int sk_shmem_##name(sk_ctx *c) {                                                                       \
		int n = (int)((size_t)c->a.bytes / sizeof(T));                                                     \
		call((T *)target(c), (T *)source(c), n, START, (T *)pwrk(c), psync(c, 0));                         \
		return MPI_SUCCESS;                                                                                \
	}
REDUCE(long_sum_to_all, long, shmem_long_sum_to_all)
REDUCE(long_max_to_all, long, shmem_long_max_to_all)
REDUCE(int_sum_to_all, int, shmem_int_sum_to_all)
REDUCE(double_sum_to_all, double, shmem_double_sum_to_all)

int sk_shmem_collect(sk_ctx *c) {
	shmem_collect64(target(c), source(c), nlong(c), START, psync(c, 0));
	return MPI_SUCCESS;
}

int sk_shmem_fcollect(sk_ctx *c) {
	shmem_fcollect64(target(c), source(c), nlong(c), START, psync(c, 0));
	return MPI_SUCCESS;
}

int sk_shmem_alltoall(sk_ctx *c) {
	shmem_alltoall64(target(c), source(c), nlong(c), START, psync(c, 0));
	return MPI_SUCCESS;
}

int sk_shmem_alltoalls(sk_ctx *c) {
	shmem_alltoalls64(target(c), source(c), 1, 1, nlong(c), START, psync(c, 0));
	return MPI_SUCCESS;
}
