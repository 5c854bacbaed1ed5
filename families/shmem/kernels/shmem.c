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

const char *const sk_shmem_params[] = {"target_pe", NULL};

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
		int n = c->a.bytes, pe = TARGET_PE(c);           \
		(void)n;                                           \
		(void)pe;                                          \
		for (int i = 0; i < window(c); i++) call;          \
		return MPI_SUCCESS;                                \
	}                                                      \
	static int full_##name(sk_ctx *c) {                    \
		int n = c->a.bytes, pe = TARGET_PE(c), w = window(c); \
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
		int n = c->a.bytes, pe = TARGET_PE(c), w = window(c); \
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

/* Many pairs at once (osu_oshm_put_mr, put_mr_nb, get_mr_nb): every PE of the first
 * half puts (gets) a window of messages to (from) its partner in the second half, then
 * one shmem_quiet; the second half is passive. */
#define MULTIPAIR(name, call)                                   \
	static int multipair_##name(sk_ctx *c) {                    \
		if (c->a.role != SK_ROLE_INITIATOR) return MPI_SUCCESS; \
		int n = c->a.bytes, pe = TARGET_PE(c), w = window(c); \
		for (int i = 0; i < w; i++) call;                       \
		shmem_quiet();                                          \
		return MPI_SUCCESS;                                     \
	}
MULTIPAIR(putmem, shmem_putmem(dst(c, i), c->a.sbuf, (size_t)n, pe))
MULTIPAIR(putmem_nbi, shmem_putmem_nbi(dst(c, i), c->a.sbuf, (size_t)n, pe))
MULTIPAIR(getmem_nbi, shmem_getmem_nbi(res(c, i), dst(c, i), (size_t)n, pe))

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
	int pe = TARGET_PE(c);
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
		int pe = TARGET_PE(c);                          \
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

/* The kernels of this file: puts, gets, atomics (ops/mpi joins the tables). */
static const sk_kernel kernels[] = {
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
	STEP("shmem_multipair_putmem", multipair_putmem, 0),
	STEP("shmem_multipair_putmem_nbi", multipair_putmem_nbi, 0),
	STEP("shmem_multipair_getmem_nbi", multipair_getmem_nbi, 0),
	STEP("shmem_atomic_fetch_int", atomic_fetch_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_set_int", atomic_set_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_inc_int", atomic_inc_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_inc_int", atomic_fetch_inc_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_add_int", atomic_add_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_add_int", atomic_fetch_add_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_swap_int", atomic_swap_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_compare_swap_int", atomic_compare_swap_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_and_int", atomic_and_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_or_int", atomic_or_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_xor_int", atomic_xor_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_and_int", atomic_fetch_and_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_or_int", atomic_fetch_or_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_xor_int", atomic_fetch_xor_int, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_long", atomic_fetch_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_set_long", atomic_set_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_inc_long", atomic_inc_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_inc_long", atomic_fetch_inc_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_add_long", atomic_add_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_add_long", atomic_fetch_add_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_swap_long", atomic_swap_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_compare_swap_long", atomic_compare_swap_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_and_long", atomic_and_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_or_long", atomic_or_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_xor_long", atomic_xor_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_and_long", atomic_fetch_and_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_or_long", atomic_fetch_or_long, SK_K_COLLECTIVE),
	STEP("shmem_atomic_fetch_xor_long", atomic_fetch_xor_long, SK_K_COLLECTIVE),
};
const sk_table sk_shmem_rma_table = SK_TABLE(kernels);


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
