//go:build mpi && shmem

/* OpenSHMEM kernels, run by ops/mpi's engine (registered with sk_register_kernels):
 * its repetitions, barrier synchronisation, timers and non-blocking breakdown.
 *
 * Point-to-point operations are non-blocking kernels in the engine's sense: the post
 * is the put or get (blocking or _nbi), the completion shmem_quiet (the method paper:
 * a put is done when the quiet after it returns), so every point breaks down into
 * full (put + quiet), post (the time inside the put call), wait (quiet after a put,
 * by subtraction) and overlap. A PE's target is a world rank: OpenSHMEM's PE numbers
 * are MPI_COMM_WORLD's ranks in Open MPI (sk_shmem_init checks it). Every kernel has a
 * symmetric buffer of its own per point (shmem_malloc, on every PE, idle or not). */
#include <shmem.h>
#include <stdint.h>
#include <string.h>
#include "skampi.h"
#include "shmem_kernels.h"
#include "sk_common.h"

/* Where operation i of an epoch lands in the target's symmetric buffer. */
static char *dst(sk_ctx *c, int i) { return c->sym + (size_t)i * (size_t)c->a.slot_stride; }
static int window(const sk_ctx *c) { return c->a.window > 0 ? c->a.window : 1; }
/* Where get i of an epoch lands here: its receive slot (recv_slots), like the target's. */
static char *res(sk_ctx *c, int i) { return c->a.rbuf + (size_t)i * (size_t)c->a.slot_stride; }
/* The flag of the ping-pong, past the data, 64-byte aligned (a symmetric long must be
 * naturally aligned; the data may be 1 byte). */
static long *flag(sk_ctx *c) { return (long *)(c->sym + c->sym_bytes - 64); }

static int quiet(sk_ctx *c) {
	(void)c;
	shmem_quiet();
	return MPI_SUCCESS;
}

static int fence(sk_ctx *c) {
	(void)c;
	shmem_fence();
	return MPI_SUCCESS;
}

/* The posts: `window` operations to the target (the initiator of the pair); and the
 * post with its shmem_quiet in one function, for the full measurement's loop. */
#define POSTS(name, call)                                  \
	static int post_##name(sk_ctx *c) {                    \
		int n = c->a.bytes, pe = c->a.target_pe;           \
		(void)n;                                           \
		(void)pe;                                          \
		for (int i = 0; i < window(c); i++) call;          \
		return MPI_SUCCESS;                                \
	}                                                      \
	static int full_##name(sk_ctx *c) {                    \
		int n = c->a.bytes, pe = c->a.target_pe, w = window(c); \
		(void)n;                                           \
		(void)pe;                                          \
		if (w == 1) { /* latency: no loop, i a constant */ \
			const int i = 0;                               \
			call;                                          \
		} else {                                           \
			for (int i = 0; i < w; i++) call;              \
		}                                                  \
		shmem_quiet();                                     \
		return MPI_SUCCESS;                                \
	}
POSTS(putmem, shmem_putmem(dst(c, i), c->a.sbuf, (size_t)n, pe))
POSTS(putmem_nbi, shmem_putmem_nbi(dst(c, i), c->a.sbuf, (size_t)n, pe))
POSTS(getmem_nbi, shmem_getmem_nbi(res(c, i), dst(c, i), (size_t)n, pe))
POSTS(put8, shmem_put8(dst(c, i), c->a.sbuf, (size_t)n, pe))
POSTS(put16, shmem_put16(dst(c, i), c->a.sbuf, (size_t)n / 2, pe))
POSTS(put32, shmem_put32(dst(c, i), c->a.sbuf, (size_t)n / 4, pe))
POSTS(put64, shmem_put64(dst(c, i), c->a.sbuf, (size_t)n / 8, pe))
/* Strided: every other 64-bit element of the target (its buffer is twice the data). */
POSTS(iput64, shmem_iput64(dst(c, i), c->a.sbuf, 2, 1, (size_t)n / 8, pe))
POSTS(long_p, shmem_long_p((long *)dst(c, i), 42, pe))

/* Blocking gets: the call returns with the data, so nothing completes them (a
 * shmem_quiet after one would time an empty quiet, ~20 ns here: osu_oshm_get times the
 * get alone too). The initiator gets `window` times; the target is passive. */
#define GETS(name, call)                                   \
	static int get_##name(sk_ctx *c) {                     \
		if (c->a.role != SK_ROLE_INITIATOR) return MPI_SUCCESS; \
		int n = c->a.bytes, pe = c->a.target_pe, w = window(c); \
		(void)n;                                           \
		if (w == 1) {                                      \
			const int i = 0;                               \
			call;                                          \
		} else {                                           \
			for (int i = 0; i < w; i++) call;              \
		}                                                  \
		return MPI_SUCCESS;                                \
	}
GETS(getmem, shmem_getmem(res(c, i), dst(c, i), (size_t)n, pe))
/* Into the initiator's own symmetric buffer (its second half), as osu_oshm_get does. */
GETS(getmem_symmetric, shmem_getmem(c->sym + (c->sym_bytes - 64) / 2 + (size_t)i * (size_t)c->a.slot_stride, dst(c, i), (size_t)n, pe))
GETS(get8, shmem_get8(res(c, i), dst(c, i), (size_t)n, pe))
GETS(get16, shmem_get16(res(c, i), dst(c, i), (size_t)n / 2, pe))
GETS(get32, shmem_get32(res(c, i), dst(c, i), (size_t)n / 4, pe))
GETS(get64, shmem_get64(res(c, i), dst(c, i), (size_t)n / 8, pe))
GETS(iget64, shmem_iget64(res(c, i), dst(c, i), 1, 2, (size_t)n / 8, pe))
GETS(long_g, ((volatile long *)c->a.rbuf)[0] = shmem_long_g((long *)dst(c, i), pe))

/* The completion calls with nothing to complete, on every PE of the communicator: what
 * an empty shmem_quiet (or shmem_fence) costs, the method paper's Fig. 1(c) without its
 * put, subtracted from put + quiet and from non-fetching atomics (quiet_subtracted). */
static int empty_quiet(sk_ctx *c) {
	(void)c;
	shmem_quiet();
	return MPI_SUCCESS;
}
static int empty_fence(sk_ctx *c) {
	(void)c;
	shmem_fence();
	return MPI_SUCCESS;
}

/* The partner of a point-to-point operation is passive: nothing to do per step. */
static int passive(sk_ctx *c) {
	(void)c;
	return MPI_SUCCESS;
}

/* The put ping-pong: the data, a fence (ordering it before the flag), the flag; the
 * other PE waits for the flag with shmem_long_wait_until and answers the same way. */
static int put_flagged(sk_ctx *c, int pe) {
	shmem_putmem(c->sym, c->a.sbuf, (size_t)c->a.bytes, pe);
	shmem_fence();
	shmem_long_p(flag(c), c->seq, pe);
	shmem_quiet();
	return MPI_SUCCESS;
}

static int put_pingpong(sk_ctx *c) {
	c->seq++;
	int pe = c->a.target_pe;
	if (c->a.role == SK_ROLE_INITIATOR) {
		put_flagged(c, pe);
		shmem_long_wait_until(flag(c), SHMEM_CMP_EQ, c->seq);
		return MPI_SUCCESS;
	}
	shmem_long_wait_until(flag(c), SHMEM_CMP_EQ, c->seq);
	return put_flagged(c, pe);
}

/* Atomics: every PE of the communicator but the target hits the target's element at
 * once (two PEs: uncontended). Non-fetching ones complete with shmem_quiet. */
#define ATOMIC(name, T, stmt, done)                       \
	static int atomic_##name(sk_ctx *c) {                 \
		if (c->rank == 0) return MPI_SUCCESS;             \
		T *x = (T *)c->sym;                               \
		int pe = c->a.target_pe;                          \
		volatile T r = 0;                                   \
		(void)x;                                          \
		(void)r;                                          \
		stmt;                                             \
		if (done) shmem_quiet();                          \
		return MPI_SUCCESS;                               \
	}
#define ATOMICS(W, T, UT)                                                                           \
	ATOMIC(fetch_##W, T, r = shmem_##W##_atomic_fetch(x, pe), 0)                                    \
	ATOMIC(set_##W, T, shmem_##W##_atomic_set(x, 1, pe), 1)                                         \
	ATOMIC(inc_##W, T, shmem_##W##_atomic_inc(x, pe), 1)                                            \
	ATOMIC(fetch_inc_##W, T, r = shmem_##W##_atomic_fetch_inc(x, pe), 0)                            \
	ATOMIC(add_##W, T, shmem_##W##_atomic_add(x, 1, pe), 1)                                         \
	ATOMIC(fetch_add_##W, T, r = shmem_##W##_atomic_fetch_add(x, 1, pe), 0)                         \
	ATOMIC(swap_##W, T, r = shmem_##W##_atomic_swap(x, 1, pe), 0)                                   \
	ATOMIC(compare_swap_##W, T, r = shmem_##W##_atomic_compare_swap(x, 0, 1, pe), 0)                \
	ATOMIC(and_##W, UT, shmem_u##W##_atomic_and((UT *)x, 1, pe), 1)                                 \
	ATOMIC(or_##W, UT, shmem_u##W##_atomic_or((UT *)x, 1, pe), 1)                                   \
	ATOMIC(xor_##W, UT, shmem_u##W##_atomic_xor((UT *)x, 1, pe), 1)                                 \
	ATOMIC(fetch_and_##W, UT, r = shmem_u##W##_atomic_fetch_and((UT *)x, 1, pe), 0)                 \
	ATOMIC(fetch_or_##W, UT, r = shmem_u##W##_atomic_fetch_or((UT *)x, 1, pe), 0)                   \
	ATOMIC(fetch_xor_##W, UT, r = shmem_u##W##_atomic_fetch_xor((UT *)x, 1, pe), 0)
ATOMICS(int, int, unsigned int)
ATOMICS(long, long, unsigned long)

#define ALL SK_K_ALL_RANKS

/* After every run, on every PE: nothing of OpenSHMEM's left for another PE to drive
 * while this one is in the engine's MPI calls (ops/mpi: sk_kernel.quiesce). */
static int quiesce(sk_ctx *c) {
	(void)c;
	shmem_barrier_all();
	return MPI_SUCCESS;
}
/* A collective on the active set, with its pSync arrays (coll.c). */
#define COLLK(name, step, flags) \
	{name, step, sk_shmem_prepare_coll, ALL | SK_K_COLLECTIVE | (flags), SK_CHECK_NONE, NULL, sk_shmem_close, 0, 0, NULL, NULL, quiesce}
/* A collective three ways: one call, the call and a barrier, consecutive calls (coll.c). */
#define COLL3(name, fn)                                                                                             \
	COLLK(name, sk_shmem_##fn, 0), COLLK(name "_barrier", sk_shmem_##fn##_barrier, 0),                              \
	    {name "_consecutive", sk_shmem_##fn##_consecutive, sk_shmem_prepare_coll_consecutive, ALL | SK_K_COLLECTIVE, \
	     SK_CHECK_NONE, NULL, sk_shmem_close, 0, 0, NULL, NULL, quiesce}
/* A non-blocking kernel: post, completion by shmem_quiet (or shmem_fence). */
#define NBI(name, post, done, full) {name, passive, sk_shmem_prepare, ALL | SK_K_NONBLOCKING, SK_CHECK_NONE, post, sk_shmem_close, 0, 0, done, full, quiesce}
/* A lock kernel: its prepare places the lock (locks.c). */
#define LOCK(name, step, prepare, flags) \
	{name, step, prepare, ALL | SK_K_COLLECTIVE | (flags), SK_CHECK_NONE, NULL, sk_shmem_close, 0, 0, NULL, NULL, quiesce}
#define STEP(name, step, flags) {name, step, sk_shmem_prepare, ALL | (flags), SK_CHECK_NONE, NULL, sk_shmem_close, 0, 0, NULL, NULL, quiesce}
#define ATOMIC_KERNELS(W)                                                                                           \
	STEP("shmem_atomic_fetch_" #W, atomic_fetch_##W, SK_K_COLLECTIVE),                                              \
	    STEP("shmem_atomic_set_" #W, atomic_set_##W, SK_K_COLLECTIVE),                                              \
	    STEP("shmem_atomic_inc_" #W, atomic_inc_##W, SK_K_COLLECTIVE),                                              \
	    STEP("shmem_atomic_fetch_inc_" #W, atomic_fetch_inc_##W, SK_K_COLLECTIVE),                                  \
	    STEP("shmem_atomic_add_" #W, atomic_add_##W, SK_K_COLLECTIVE),                                              \
	    STEP("shmem_atomic_fetch_add_" #W, atomic_fetch_add_##W, SK_K_COLLECTIVE),                                  \
	    STEP("shmem_atomic_swap_" #W, atomic_swap_##W, SK_K_COLLECTIVE),                                            \
	    STEP("shmem_atomic_compare_swap_" #W, atomic_compare_swap_##W, SK_K_COLLECTIVE),                            \
	    STEP("shmem_atomic_and_" #W, atomic_and_##W, SK_K_COLLECTIVE),                                              \
	    STEP("shmem_atomic_or_" #W, atomic_or_##W, SK_K_COLLECTIVE),                                                \
	    STEP("shmem_atomic_xor_" #W, atomic_xor_##W, SK_K_COLLECTIVE),                                              \
	    STEP("shmem_atomic_fetch_and_" #W, atomic_fetch_and_##W, SK_K_COLLECTIVE),                                  \
	    STEP("shmem_atomic_fetch_or_" #W, atomic_fetch_or_##W, SK_K_COLLECTIVE),                                    \
	    STEP("shmem_atomic_fetch_xor_" #W, atomic_fetch_xor_##W, SK_K_COLLECTIVE)

static const sk_kernel table[] = {
	NBI("shmem_putmem", post_putmem, quiet, full_putmem),
	NBI("shmem_putmem_nbi", post_putmem_nbi, quiet, full_putmem_nbi),
	STEP("shmem_getmem", get_getmem, 0),
	STEP("shmem_getmem_symmetric", get_getmem_symmetric, 0),
	NBI("shmem_getmem_nbi", post_getmem_nbi, quiet, full_getmem_nbi),
	NBI("shmem_put8", post_put8, quiet, full_put8),
	NBI("shmem_put16", post_put16, quiet, full_put16),
	NBI("shmem_put32", post_put32, quiet, full_put32),
	NBI("shmem_put64", post_put64, quiet, full_put64),
	STEP("shmem_get8", get_get8, 0),
	STEP("shmem_get16", get_get16, 0),
	STEP("shmem_get32", get_get32, 0),
	STEP("shmem_get64", get_get64, 0),
	NBI("shmem_iput64", post_iput64, quiet, full_iput64),
	STEP("shmem_iget64", get_iget64, 0),
	NBI("shmem_long_p", post_long_p, quiet, full_long_p),
	STEP("shmem_long_g", get_long_g, 0),
	STEP("shmem_quiet", empty_quiet, SK_K_COLLECTIVE),
	STEP("shmem_fence", empty_fence, SK_K_COLLECTIVE),
	NBI("shmem_putmem_fence", post_putmem, fence, NULL),
	STEP("shmem_put_pingpong", put_pingpong, 0),
	ATOMIC_KERNELS(int),
	ATOMIC_KERNELS(long),
	/* locks.c: the lock served by the communicator's first PE, or (_remote) the next */
	LOCK("shmem_lock_contention", sk_shmem_lock_contention, sk_shmem_prepare_lock, 0),
	LOCK("shmem_lock_contention_remote", sk_shmem_lock_contention, sk_shmem_prepare_lock_remote, 0),
	LOCK("shmem_set_lock", sk_shmem_set_lock, sk_shmem_prepare_lock, SK_K_OWN_RESULT),
	LOCK("shmem_set_lock_remote", sk_shmem_set_lock, sk_shmem_prepare_lock_remote, SK_K_OWN_RESULT),
	LOCK("shmem_clear_lock", sk_shmem_clear_lock, sk_shmem_prepare_lock, SK_K_OWN_RESULT),
	LOCK("shmem_clear_lock_remote", sk_shmem_clear_lock, sk_shmem_prepare_lock_remote, SK_K_OWN_RESULT),
	LOCK("shmem_test_lock_spin", sk_shmem_test_lock_spin, sk_shmem_prepare_lock, 0),
	LOCK("shmem_test_lock_spin_remote", sk_shmem_test_lock_spin, sk_shmem_prepare_lock_remote, 0),
	LOCK("shmem_test_lock", sk_shmem_test_lock_held, sk_shmem_prepare_lock, SK_K_OWN_RESULT | SK_K_LOCK_CHECK),
	LOCK("shmem_lock_held", sk_shmem_lock_held, sk_shmem_prepare_lock, SK_K_OWN_RESULT | SK_K_LOCK_CHECK),
	/* memory.c */
	STEP("shmem_ctx_create_destroy", sk_shmem_ctx_create_destroy, 0),
	{"shmem_ctx_putmem", passive, sk_shmem_prepare_ctx, ALL | SK_K_NONBLOCKING, SK_CHECK_NONE, sk_shmem_post_ctx_putmem,
	 sk_shmem_close_ctx, 0, 0, sk_shmem_ctx_quiet, sk_shmem_full_ctx_putmem, quiesce},
	STEP("shmem_malloc_free", sk_shmem_malloc_free, SK_K_COLLECTIVE),
	STEP("shmem_malloc", sk_shmem_malloc, SK_K_COLLECTIVE | SK_K_OWN_RESULT),
	STEP("shmem_free", sk_shmem_free, SK_K_COLLECTIVE | SK_K_OWN_RESULT),
	STEP("shmem_realloc", sk_shmem_realloc, SK_K_COLLECTIVE | SK_K_OWN_RESULT),
	STEP("shmem_align_free", sk_shmem_align_free, SK_K_COLLECTIVE),
	STEP("shmem_puts_fence", sk_shmem_puts_fence, SK_K_COLLECTIVE),
	STEP("shmem_puts_quiet", sk_shmem_puts_quiet, SK_K_COLLECTIVE),
	/* coll.c */
	COLLK("shmem_broadcast", sk_shmem_broadcast, 0),
	COLLK("shmem_broadcast_barrier", sk_shmem_broadcast_barrier, 0),
	COLLK("shmem_broadcast_rounds", sk_shmem_broadcast_rounds, SK_K_PER_PROCESS_STEP),
	{"shmem_broadcast_ack", sk_shmem_broadcast_ack, sk_shmem_prepare_broadcast_ack,
	 ALL | SK_K_COLLECTIVE | SK_K_OWN_RESULT | SK_K_ORDER_CHECK, SK_CHECK_NONE, NULL, sk_shmem_close, 0, 0, NULL, NULL, quiesce},
	{"shmem_broadcast_noack", sk_shmem_broadcast_noack, sk_shmem_prepare_broadcast_ack,
	 ALL | SK_K_COLLECTIVE | SK_K_OWN_RESULT | SK_K_ORDER_CHECK, SK_CHECK_NONE, NULL, sk_shmem_close, 0, 0, NULL, NULL, quiesce},
	COLLK("shmem_barrier", sk_shmem_barrier, 0),
	COLLK("shmem_sync", sk_shmem_sync, 0),
	COLLK("shmem_barrier_all", sk_shmem_barrier_all, 0),
	COLLK("shmem_sync_all", sk_shmem_sync_all, 0),
	COLL3("shmem_long_sum_to_all", long_sum_to_all),
	COLL3("shmem_long_max_to_all", long_max_to_all),
	COLL3("shmem_int_sum_to_all", int_sum_to_all),
	COLL3("shmem_double_sum_to_all", double_sum_to_all),
	COLL3("shmem_collect", collect),
	COLL3("shmem_fcollect", fcollect),
	COLL3("shmem_alltoall", alltoall),
	COLL3("shmem_alltoalls", alltoalls),
	/* sendrecv.c */
	{"shmem_sendrecv_shift", sk_shmem_sendrecv_shift, sk_shmem_prepare_sendrecv, ALL | SK_K_COLLECTIVE, SK_CHECK_NONE,
	 NULL, sk_shmem_close, 0, 0, NULL, NULL, quiesce},
	{"shmem_sendrecv_shift_offset", sk_shmem_sendrecv_shift_offset, sk_shmem_prepare_sendrecv_offset, ALL | SK_K_COLLECTIVE,
	 SK_CHECK_NONE, NULL, sk_shmem_close, 0, 0, NULL, NULL, quiesce},
	{"shmem_sendrecv_shift_seed", sk_shmem_sendrecv_shift_seed, sk_shmem_prepare_sendrecv_seed, ALL | SK_K_COLLECTIVE,
	 SK_CHECK_NONE, NULL, sk_shmem_close, 0, 0, NULL, NULL, sk_shmem_sendrecv_seed_check},
};

const sk_kernel *sk_shmem_kernels(int *n) {
	*n = (int)(sizeof table / sizeof table[0]);
	return table;
}

int sk_shmem_init(int world_rank, int world_size) {
	shmem_init();
	if (shmem_my_pe() != world_rank || shmem_n_pes() != world_size) return SK_ERR_COMM;
	return MPI_SUCCESS;
}

void sk_shmem_finalize(void) { shmem_finalize(); }

void sk_shmem_info(char *name, int len, int *major, int *minor) {
	char buf[SHMEM_MAX_NAME_LEN + 1] = {0};
	shmem_info_get_name(buf);
	strncpy(name, buf, (size_t)len - 1);
	name[len - 1] = 0;
	shmem_info_get_version(major, minor);
}
