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
#include <stdio.h>
#include "skampi.h"
#include "shmem_kernels.h"
#include "sk_common.h"

#define SYNC_LONGS 64 /* per pSync array: more than every *_SYNC_SIZE, a cache line apart */
/* The "consecutive" method's calls per step: each its own pSync (and pWrk), so none is
 * reused before the engine's barrier that ends the run. */
#define CONSECUTIVE 8

/* The symmetric layout: target (nprocs blocks), source (nprocs blocks), pSync arrays
 * (one per root or per consecutive call, and one for the barrier method's barrier),
 * CONSECUTIVE pWrk arrays, the acknowledgement counter. */
static size_t up64(size_t n) { return (n + 63) & ~(size_t)63; }
static size_t block_area(const sk_ctx *c) { return up64((size_t)c->a.bytes * (size_t)c->a.nprocs); }
static char *target(sk_ctx *c) { return c->sym; }
static char *source(sk_ctx *c) { return c->sym + block_area(c); }
static int nsync(const sk_ctx *c) { return (c->a.nprocs > CONSECUTIVE ? c->a.nprocs : CONSECUTIVE) + 1; }
static long *psync(sk_ctx *c, int i) { return (long *)(c->sym + 2 * block_area(c)) + (size_t)i * SYNC_LONGS; }
static long *barrier_psync(sk_ctx *c) { return psync(c, nsync(c) - 1); }
static size_t wrk_bytes(const sk_ctx *c) {
	size_t n = (size_t)c->a.bytes / 8 / 2 + 1;
	return up64((n < SHMEM_REDUCE_MIN_WRKDATA_SIZE ? SHMEM_REDUCE_MIN_WRKDATA_SIZE : n) * 8);
}
static void *pwrk(sk_ctx *c, int i) { return (char *)psync(c, nsync(c)) + (size_t)i * wrk_bytes(c); }
static long *ack_counter(sk_ctx *c) { return (long *)((char *)pwrk(c, CONSECUTIVE)); }

int sk_shmem_prepare_coll(sk_ctx *c) {
	size_t psyncs = (size_t)nsync(c) * SYNC_LONGS * sizeof(long);
	CK(sk_shmem_alloc(c, (long long)(2 * block_area(c) + psyncs + CONSECUTIVE * wrk_bytes(c) + 128)));
	for (int i = 0; i < nsync(c); i++)
		for (int j = 0; j < SYNC_LONGS; j++) psync(c, i)[j] = SHMEM_SYNC_VALUE;
	shmem_barrier_all(); /* every PE's arrays ready before anyone uses them */
	return MPI_SUCCESS;
}

int sk_shmem_prepare_coll_consecutive(sk_ctx *c) {
	c->calls_per_step = CONSECUTIVE;
	return sk_shmem_prepare_coll(c);
}

#define START TARGET_PE(c), 0, c->a.nprocs
static size_t nlong(const sk_ctx *c) { return (size_t)c->a.bytes / 8; }

int sk_shmem_broadcast(sk_ctx *c) {
	shmem_broadcast64(target(c), source(c), nlong(c), c->a.root, START, psync(c, 0));
	return MPI_SUCCESS;
}

/* Alg. 1: the broadcast, then a barrier of the active set (a barrier measured on its
 * own is subtracted: Shmem_Barrier). */
int sk_shmem_broadcast_barrier(sk_ctx *c) {
	shmem_broadcast64(target(c), source(c), nlong(c), c->a.root, START, psync(c, 0));
	shmem_barrier(START, barrier_psync(c));
	return MPI_SUCCESS;
}

/* Alg. 3: a broadcast from every PE of the set in turn, each with its own pSync. */
int sk_shmem_broadcast_rounds(sk_ctx *c) {
	for (int r = 0; r < c->nprocs; r++) shmem_broadcast64(target(c), source(c), nlong(c), r, START, psync(c, r));
	return MPI_SUCCESS;
}

/* Alg. 4-5, one-sided: broadcasts, each acknowledged by the measured task with an
 * atomic fetch-and-increment on the root's counter, which the root waits for
 * (shmem_long_wait_until) before the next; the root keeps the time less the
 * acknowledgements' own (measured in prepare). One task at a time (the runner's per-task method): the point's time is
 * the slowest task's mean. */
#define ORDER_TAG 9

/* With check_data, the root notes when it enters each broadcast and the task when it
 * leaves each (clock reads inside the timing, a few ns each); after the timed part the
 * task sends its times to the root, which counts the broadcasts it entered before the
 * task had left the one before: the Lemma 1 of the method paper says there are none
 * when the task acknowledges. Only on one host (one clock: order_clock). */
static int count_interleaved(sk_ctx *c) {
	int root = c->a.root, task = c->a.task;
	double *enter = c->order_t, *left = c->order_t + CONSECUTIVE;
	if (!c->a.check) return MPI_SUCCESS;
	if (c->rank == task) return MPI_Send(left, CONSECUTIVE, MPI_DOUBLE, root, ORDER_TAG, c->comm);
	if (c->rank != root) return MPI_SUCCESS;
	int rc = MPI_Recv(left, CONSECUTIVE, MPI_DOUBLE, task, ORDER_TAG, c->comm, MPI_STATUS_IGNORE);
	if (rc != MPI_SUCCESS || !c->order_clock) return rc;
	for (int k = 0; k + 1 < CONSECUTIVE; k++)
		if (enter[k + 1] < left[k]) c->order_violations++;
	return MPI_SUCCESS;
}

/* CONSECUTIVE broadcasts separated only by the task's acknowledgement (Alg. 5's loop:
 * the barrier before the step starts the first alone), each with its own pSync, so no
 * array is reused before the engine's barrier; acked = 0 leaves the acknowledgement out
 * (Selftest_Broadcast_Noack: what it prevents). */
static int broadcasts(sk_ctx *c, int acked) {
	int root = c->a.root, task = c->a.task, root_pe = TARGET_PE(c) + root, check = c->a.check;
	double *enter = c->order_t, *left = c->order_t + CONSECUTIVE;
	double t0 = sk_now();
	for (int k = 0; k < CONSECUTIVE; k++) {
		if (check && c->rank == root) enter[k] = sk_now();
		shmem_broadcast64(target(c), source(c), nlong(c), root, START, psync(c, k));
		c->seq++;
		if (c->rank == task) {
			if (check) left[k] = sk_now();
			if (acked) shmem_long_atomic_fetch_inc(ack_counter(c), root_pe);
		} else if (c->rank == root && acked) {
			shmem_long_wait_until(ack_counter(c), SHMEM_CMP_GE, c->seq);
		}
	}
	if (c->rank == root) c->result += sk_now() - t0 - (acked ? CONSECUTIVE * c->ack_s[task] : 0);
	return count_interleaved(c);
}

int sk_shmem_broadcast_ack(sk_ctx *c) { return broadcasts(c, 1); }
int sk_shmem_broadcast_noack(sk_ctx *c) { return broadcasts(c, 0); }

/* order_clock: the root and the task share a host, so their clocks compare. */
static int same_host(sk_ctx *c) {
	MPI_Comm host;
	int rc = MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
	if (rc != MPI_SUCCESS) return rc;
	int first = 0;
	rc = MPI_Allreduce(&c->rank, &first, 1, MPI_INT, MPI_MIN, host); /* the host's first rank */
	MPI_Comm_free(&host);
	if (rc != MPI_SUCCESS) return rc;
	int root = c->a.root, task = c->a.task, other = -1;
	if (c->rank == task) return MPI_Send(&first, 1, MPI_INT, root, ORDER_TAG, c->comm);
	if (c->rank != root) return MPI_SUCCESS;
	rc = MPI_Recv(&other, 1, MPI_INT, task, ORDER_TAG, c->comm, MPI_STATUS_IGNORE);
	c->order_clock = rc == MPI_SUCCESS && other == first;
	return rc;
}

/* The acknowledgement's one-way time, task to root, as ops/mpi's two-sided
 * acknowledgement is measured (ops/mpi/ack.c), from round trips of: the root sets the
 * task's flag; the task, seeing it, fetch-increments the root's counter; the root waits
 * for it. The counter is zeroed again, on every PE, before the point. */
int sk_shmem_prepare_broadcast_ack(sk_ctx *c) {
	enum { WARMUP = SK_ACK_WARMUP, ROUNDS = SK_ACK_ROUNDS };
	int rc = sk_shmem_prepare_coll(c);
	if (rc != MPI_SUCCESS || c->a.role == SK_ROLE_IDLE) return rc;
	c->calls_per_step = CONSECUTIVE;
	if (c->a.check && (rc = same_host(c)) != MPI_SUCCESS) return rc;
	int root = c->a.root, task = c->a.task, root_pe = TARGET_PE(c) + root, task_pe = TARGET_PE(c) + task;
	if ((rc = sk_ack_prepare(c)) != MPI_SUCCESS) return rc;
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
	if (c->rank == root) c->ack_s[task] = sk_ack_one_way(rtt);
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

/* OpenSHMEM 1.4's synchronisation of an active set (1.5 has it as team sync): no
 * completion of puts, unlike the barrier. */
int sk_shmem_sync(sk_ctx *c) {
	shmem_sync(START, psync(c, 0));
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

/* Every collective below three ways, as SKaMPI times them: one call (after the
 * engine's barrier, or at an agreed instant: method sync); the call and a barrier of the
 * active set (method barrier, a barrier measured alone subtracted); CONSECUTIVE calls
 * back to back, each with its own pSync and pWrk (method consecutive). */
#define THREE_WAYS(name, CALL)                                                                             \
	int sk_shmem_##name(sk_ctx *c) {                                                                       \
		CALL(0);                                                                                           \
		return MPI_SUCCESS;                                                                                \
	}                                                                                                      \
	int sk_shmem_##name##_barrier(sk_ctx *c) {                                                             \
		CALL(0);                                                                                           \
		shmem_barrier(START, barrier_psync(c));                                                            \
		return MPI_SUCCESS;                                                                                \
	}                                                                                                      \
	int sk_shmem_##name##_consecutive(sk_ctx *c) {                                                         \
		for (int i = 0; i < CONSECUTIVE; i++) CALL(i);                                                     \
		return MPI_SUCCESS;                                                                                \
	}

#define REDUCE_CALL(T, fn, i) fn((T *)target(c), (T *)source(c), (int)((size_t)c->a.bytes / sizeof(T)), START, (T *)pwrk(c, i), psync(c, i))
#define SK_LONG_SUM(i_) REDUCE_CALL(long, shmem_long_sum_to_all, i_)
#define SK_LONG_MAX(i_) REDUCE_CALL(long, shmem_long_max_to_all, i_)
#define SK_INT_SUM(i_) REDUCE_CALL(int, shmem_int_sum_to_all, i_)
#define SK_DOUBLE_SUM(i_) REDUCE_CALL(double, shmem_double_sum_to_all, i_)
#define SK_FLOAT_SUM(i_) REDUCE_CALL(float, shmem_float_sum_to_all, i_)
#define SK_SHORT_AND(i_) REDUCE_CALL(short, shmem_short_and_to_all, i_)
#define SK_COLLECT(i_) shmem_collect64(target(c), source(c), nlong(c), START, psync(c, i_))
#define SK_FCOLLECT(i_) shmem_fcollect64(target(c), source(c), nlong(c), START, psync(c, i_))
#define SK_ALLTOALL(i_) shmem_alltoall64(target(c), source(c), nlong(c), START, psync(c, i_))
#define SK_ALLTOALLS(i_) shmem_alltoalls64(target(c), source(c), 1, 1, nlong(c), START, psync(c, i_))

THREE_WAYS(long_sum_to_all, SK_LONG_SUM)
THREE_WAYS(long_max_to_all, SK_LONG_MAX)
THREE_WAYS(int_sum_to_all, SK_INT_SUM)
THREE_WAYS(double_sum_to_all, SK_DOUBLE_SUM)
THREE_WAYS(float_sum_to_all, SK_FLOAT_SUM)
THREE_WAYS(short_and_to_all, SK_SHORT_AND)
THREE_WAYS(collect, SK_COLLECT)
THREE_WAYS(fcollect, SK_FCOLLECT)
THREE_WAYS(alltoall, SK_ALLTOALL)
THREE_WAYS(alltoalls, SK_ALLTOALLS)

/* sk_shmem_after_order: after a run, every member learns whether any broadcast
 * started before the one before had ended at the measured task, so all fail the point
 * together. */
int sk_shmem_after_order(sk_ctx *c, long long iters) {
	(void)iters;
	long long all = c->order_violations;
	CK(sk_agree_sum(c, &all));
	if (!all) return MPI_SUCCESS;
	snprintf(sk_failure, SK_FAILURE_LEN,
	         "%lld time(s) the root started a broadcast before the measured task had left the one before: consecutive broadcasts interleaved", all);
	return SK_ERR_FAILED;
}

/* The kernels of this file (shmem.c joins the tables). */
static const sk_kernel kernels[] = {
	COLLK("shmem_broadcast", sk_shmem_broadcast, 0),
	COLLK("shmem_broadcast_barrier", sk_shmem_broadcast_barrier, 0),
	COLLK("shmem_broadcast_rounds", sk_shmem_broadcast_rounds, SK_K_PER_PROCESS_STEP),
	SHMEM_CHECKED("shmem_broadcast_ack", sk_shmem_broadcast_ack, sk_shmem_prepare_broadcast_ack,
	              SK_K_COLLECTIVE | SK_K_OWN_RESULT, sk_shmem_after_order),
	SHMEM_CHECKED("shmem_broadcast_noack", sk_shmem_broadcast_noack, sk_shmem_prepare_broadcast_ack,
	              SK_K_COLLECTIVE | SK_K_OWN_RESULT, sk_shmem_after_order),
	COLLK("shmem_barrier", sk_shmem_barrier, 0),
	COLLK("shmem_sync", sk_shmem_sync, 0),
	COLLK("shmem_barrier_all", sk_shmem_barrier_all, 0),
	COLLK("shmem_sync_all", sk_shmem_sync_all, 0),
	COLLK("shmem_long_sum_to_all", sk_shmem_long_sum_to_all, 0),
	COLLK("shmem_long_sum_to_all_barrier", sk_shmem_long_sum_to_all_barrier, 0),
	COLL_CONSECUTIVE("shmem_long_sum_to_all_consecutive", sk_shmem_long_sum_to_all_consecutive),
	COLLK("shmem_long_max_to_all", sk_shmem_long_max_to_all, 0),
	COLLK("shmem_long_max_to_all_barrier", sk_shmem_long_max_to_all_barrier, 0),
	COLL_CONSECUTIVE("shmem_long_max_to_all_consecutive", sk_shmem_long_max_to_all_consecutive),
	COLLK("shmem_int_sum_to_all", sk_shmem_int_sum_to_all, 0),
	COLLK("shmem_int_sum_to_all_barrier", sk_shmem_int_sum_to_all_barrier, 0),
	COLL_CONSECUTIVE("shmem_int_sum_to_all_consecutive", sk_shmem_int_sum_to_all_consecutive),
	COLLK("shmem_short_and_to_all", sk_shmem_short_and_to_all, 0),
	COLLK("shmem_short_and_to_all_barrier", sk_shmem_short_and_to_all_barrier, 0),
	COLL_CONSECUTIVE("shmem_short_and_to_all_consecutive", sk_shmem_short_and_to_all_consecutive),
	COLLK("shmem_double_sum_to_all", sk_shmem_double_sum_to_all, 0),
	COLLK("shmem_double_sum_to_all_barrier", sk_shmem_double_sum_to_all_barrier, 0),
	COLL_CONSECUTIVE("shmem_double_sum_to_all_consecutive", sk_shmem_double_sum_to_all_consecutive),
	COLLK("shmem_float_sum_to_all", sk_shmem_float_sum_to_all, 0),
	COLLK("shmem_float_sum_to_all_barrier", sk_shmem_float_sum_to_all_barrier, 0),
	COLL_CONSECUTIVE("shmem_float_sum_to_all_consecutive", sk_shmem_float_sum_to_all_consecutive),
	COLLK("shmem_collect", sk_shmem_collect, 0),
	COLLK("shmem_collect_barrier", sk_shmem_collect_barrier, 0),
	COLL_CONSECUTIVE("shmem_collect_consecutive", sk_shmem_collect_consecutive),
	COLLK("shmem_fcollect", sk_shmem_fcollect, 0),
	COLLK("shmem_fcollect_barrier", sk_shmem_fcollect_barrier, 0),
	COLL_CONSECUTIVE("shmem_fcollect_consecutive", sk_shmem_fcollect_consecutive),
	COLLK("shmem_alltoall", sk_shmem_alltoall, 0),
	COLLK("shmem_alltoall_barrier", sk_shmem_alltoall_barrier, 0),
	COLL_CONSECUTIVE("shmem_alltoall_consecutive", sk_shmem_alltoall_consecutive),
	COLLK("shmem_alltoalls", sk_shmem_alltoalls, 0),
	COLLK("shmem_alltoalls_barrier", sk_shmem_alltoalls_barrier, 0),
	COLL_CONSECUTIVE("shmem_alltoalls_consecutive", sk_shmem_alltoalls_consecutive),
};
const sk_table sk_shmem_coll_table = SK_TABLE(kernels);
