//go:build mpi && shmem

/* Rings, every PE busy at once (the method paper's Figs. 6-7, SKaMPI's *_Round and
 * *_Full): every PE of the communicator puts to, or gets from, the next one (the
 * communicator's ranks are world ranks in order from target_pe), so each PE is
 * origin and target together. And compare-and-swap that succeeds against one that
 * fails, on the initiator's own element of its pair's target.
 *
 * With check_data, each PE fills its send buffer (puts) or its symmetric buffer (gets)
 * with its pattern once per point, and after every run checks what it received from
 * its neighbour (ring_check, the kernels' quiesce). */
#include <shmem.h>
#include "skampi.h"
#include "shmem_kernels.h"
#include "sk_common.h"

static int next_pe(const sk_ctx *c) { return TARGET_PE(c) + (c->rank + 1) % c->nprocs; }
static int prev_rank(const sk_ctx *c) { return (c->rank - 1 + c->nprocs) % c->nprocs; }
static int next_rank(const sk_ctx *c) { return (c->rank + 1) % c->nprocs; }
/* A get's source: the first half of the symmetric buffer (the strided get reads every
 * other element of twice the data, which fits it). */
static char *src(sk_ctx *c) { return c->sym; }

/* Checked: check_data asked, a member, and the one send buffer the fill wrote (cold
 * caches move it from step to step). */
#define CHECKING(c) ((c)->a.check && (c)->a.role != SK_ROLE_IDLE && (c)->a.cold_regions <= 1)

/* Idle ranks (outside the communicator) take no part. */
#define ACTIVE(c) \
	if ((c)->a.role == SK_ROLE_IDLE) return MPI_SUCCESS

/* Puts complete with shmem_quiet, as SKaMPI's rounds do. */
#define RING_PUT(name, call)                 \
	static int ring_##name(sk_ctx *c) {      \
		ACTIVE(c);                           \
		int n = c->a.bytes, pe = next_pe(c); \
		(void)n;                             \
		call;                                \
		shmem_quiet();                       \
		return MPI_SUCCESS;                  \
	}
RING_PUT(putmem, shmem_putmem(c->sym, c->a.sbuf, (size_t)n, pe))
RING_PUT(putmem_nbi, shmem_putmem_nbi(c->sym, c->a.sbuf, (size_t)n, pe))
RING_PUT(iput64, shmem_iput64(c->sym, c->a.sbuf, 2, 1, (size_t)n / 8, pe))
RING_PUT(long_p, shmem_long_p((long *)c->sym, 42, pe))

/* Blocking gets return with their data; the _nbi one completes with shmem_quiet. */
#define RING_GET(name, call, done)           \
	static int ring_##name(sk_ctx *c) {      \
		ACTIVE(c);                           \
		int n = c->a.bytes, pe = next_pe(c); \
		(void)n;                             \
		call;                                \
		if (done) shmem_quiet();             \
		return MPI_SUCCESS;                  \
	}
RING_GET(getmem, shmem_getmem(c->a.rbuf, src(c), (size_t)n, pe), 0)
RING_GET(getmem_nbi, shmem_getmem_nbi(c->a.rbuf, src(c), (size_t)n, pe), 1)
RING_GET(iget64, shmem_iget64(c->a.rbuf, src(c), 1, 2, (size_t)n / 8, pe), 0)
RING_GET(long_g, ((volatile long *)c->a.rbuf)[0] = shmem_long_g((long *)src(c), pe), 0)

/* The _nbi rings break down as non-blocking operations (SKaMPI's
 * Shmem_{Put,Get}_Nonblocking_{Post,Quiet,Overlap}): the post is the _nbi call, the
 * completion shmem_quiet, the fused full the ring's step above. */
static int post_ring_putmem_nbi(sk_ctx *c) {
	ACTIVE(c);
	shmem_putmem_nbi(c->sym, c->a.sbuf, (size_t)c->a.bytes, next_pe(c));
	return MPI_SUCCESS;
}
static int post_ring_getmem_nbi(sk_ctx *c) {
	ACTIVE(c);
	shmem_getmem_nbi(c->a.rbuf, src(c), (size_t)c->a.bytes, next_pe(c));
	return MPI_SUCCESS;
}
static int ring_quiet(sk_ctx *c) {
	(void)c;
	shmem_quiet();
	return MPI_SUCCESS;
}

/* SKaMPI's Shmem_Quiet_Put: every PE puts msg_bytes to the next (untimed), then its
 * shmem_quiet is timed alone (SK_K_OWN_RESULT): what completing a put costs while
 * every PE's own puts are in flight. */
static int quiet_after_put(sk_ctx *c) {
	ACTIVE(c);
	shmem_putmem(c->sym, c->a.sbuf, (size_t)c->a.bytes, next_pe(c));
	double t0 = sk_now();
	shmem_quiet();
	c->result += sk_now() - t0;
	return MPI_SUCCESS;
}

/* The pattern a PE sends: its rank's, repetition 0 (one per point: a ring's data
 * is not refilled between repetitions). */
static void fill(sk_ctx *c, char *buf, int stride) {
	long long n = c->a.bytes, e = stride > 1 ? 8 : n;
	for (long long off = 0; off + e <= n; off += e)
		sk_pattern_fill(buf + off * stride, e, c->rank, n, 0, off);
}

/* The first difference between what arrived (every stride-th element of 8 bytes, or
 * the whole message) and what `from` sent, kept as the engine's check keeps it. */
static void verify(sk_ctx *c, const char *buf, int from, int stride) {
	long long n = c->a.bytes, e = stride > 1 ? 8 : n;
	for (long long off = 0; off + e <= n && !c->bad; off += e) {
		long long i = sk_pattern_find(buf + off * stride, e, from, n, 0, off);
		if (i < 0) continue;
		c->bad = 1;
		c->bad_from = from;
		c->bad_slot = 0;
		c->bad_offset = off * stride + i;
		c->bad_expected = sk_pattern_byte(from, n, 0, off + i);
		c->bad_actual = (unsigned char)buf[off * stride + i];
		c->bad_rep = c->rep;
	}
}

static int prepare_ring_put(sk_ctx *c) {
	CK(sk_shmem_prepare(c));
	if (CHECKING(c)) fill(c, c->a.sbuf, 1);
	return MPI_SUCCESS;
}

static int prepare_ring_get(sk_ctx *c) {
	CK(sk_shmem_prepare(c));
	if (CHECKING(c)) fill(c, c->sym, 1);
	shmem_barrier_all(); /* every source in place before anyone gets */
	return MPI_SUCCESS;
}

/* The strided get reads every other element of the source. */
static int prepare_ring_iget(sk_ctx *c) {
	CK(sk_shmem_prepare(c));
	if (CHECKING(c)) fill(c, c->sym, 2);
	shmem_barrier_all();
	return MPI_SUCCESS;
}

/* After every run, on every PE: every put arrived, then each checks its neighbour's. */
static int check_put(sk_ctx *c, int stride) {
	shmem_barrier_all();
	if (CHECKING(c) && c->a.bytes > 0) verify(c, c->sym, prev_rank(c), stride);
	return MPI_SUCCESS;
}
static int quiesce_put(sk_ctx *c) { return check_put(c, 1); }
static int quiesce_iput(sk_ctx *c) { return check_put(c, 2); }

static int quiesce_get(sk_ctx *c) {
	shmem_barrier_all();
	if (CHECKING(c) && c->a.bytes > 0) verify(c, c->a.rbuf, next_rank(c), 1);
	return MPI_SUCCESS;
}

/* The single-element forms put and get one long: 42, checked as such. */
static int quiesce_p(sk_ctx *c) {
	shmem_barrier_all();
	if (CHECKING(c) && *(volatile long *)c->sym != 42) {
		c->bad = 1;
		c->bad_from = prev_rank(c);
		c->bad_expected = 42;
		c->bad_actual = (int)(*(volatile long *)c->sym & 0xff);
		c->bad_rep = c->rep;
	}
	return MPI_SUCCESS;
}
static int prepare_g(sk_ctx *c) {
	CK(sk_shmem_prepare(c));
	*(long *)c->sym = 42;
	shmem_barrier_all();
	return MPI_SUCCESS;
}
static int quiesce_g(sk_ctx *c) {
	shmem_barrier_all();
	if (CHECKING(c) && ((volatile long *)c->a.rbuf)[0] != 42) {
		c->bad = 1;
		c->bad_from = next_rank(c);
		c->bad_expected = 42;
		c->bad_actual = (int)(((volatile long *)c->a.rbuf)[0] & 0xff);
		c->bad_rep = c->rep;
	}
	return MPI_SUCCESS;
}

/* Compare-and-swap on a long only the initiator of the pair writes: succeeding, the
 * condition is the value it wrote last (the element starts at 0); failing, a value
 * the element never holds (-1), so nothing is written. A result other than the
 * expected old value is a data error. */
static int cswap(sk_ctx *c, int succeed) {
	if (c->a.role != SK_ROLE_INITIATOR) return MPI_SUCCESS;
	long *x = (long *)c->sym, want = succeed ? c->seq : 0;
	long cond = succeed ? c->seq : -1;
	long old = shmem_long_atomic_compare_swap(x, cond, c->seq + 1, TARGET_PE(c));
	if (succeed) c->seq++;
	if (old != want && !c->bad) {
		c->bad = 1;
		c->bad_from = c->a.peer;
		c->bad_expected = (int)(want & 0xff);
		c->bad_actual = (int)(old & 0xff);
		c->bad_rep = c->rep;
	}
	return MPI_SUCCESS;
}
static int cswap_yes(sk_ctx *c) { return cswap(c, 1); }
static int cswap_no(sk_ctx *c) { return cswap(c, 0); }
static int prepare_cswap(sk_ctx *c) {
	c->seq = 0;
	return sk_shmem_prepare(c);
}

#define RING(name_, step_, prepare_, quiesce_)                                                                   \
	{.params = sk_shmem_params, .name = (name_), .step = (step_), .prepare = (prepare_), .flags = ALL | SK_K_COLLECTIVE, .close = sk_shmem_close, \
	 .quiesce = (quiesce_)}

/* A ring broken down (SK_K_NONBLOCKING): every member posts, none is passive. */
#define RING_NB(name_, post_, full_, prepare_, quiesce_)                                                        \
	{.params = sk_shmem_params, .name = (name_), .step = (full_), .prepare = (prepare_), .flags = ALL | SK_K_COLLECTIVE | SK_K_NONBLOCKING, \
	 .post = (post_), .complete = ring_quiet, .full = (full_), .close = sk_shmem_close, .quiesce = (quiesce_)}

/* The kernels of this file (tables.c joins the tables). */
static const sk_kernel kernels[] = {
	RING("shmem_ring_putmem", ring_putmem, prepare_ring_put, quiesce_put),
	RING_NB("shmem_ring_putmem_nbi", post_ring_putmem_nbi, ring_putmem_nbi, prepare_ring_put, quiesce_put),
	{.params = sk_shmem_params, .name = "shmem_quiet_put", .step = quiet_after_put, .prepare = prepare_ring_put,
	 .flags = ALL | SK_K_COLLECTIVE | SK_K_OWN_RESULT, .close = sk_shmem_close, .quiesce = quiesce_put},
	RING("shmem_ring_iput64", ring_iput64, prepare_ring_put, quiesce_iput),
	RING("shmem_ring_long_p", ring_long_p, sk_shmem_prepare, quiesce_p),
	RING("shmem_ring_getmem", ring_getmem, prepare_ring_get, quiesce_get),
	RING_NB("shmem_ring_getmem_nbi", post_ring_getmem_nbi, ring_getmem_nbi, prepare_ring_get, quiesce_get),
	RING("shmem_ring_iget64", ring_iget64, prepare_ring_iget, quiesce_get),
	RING("shmem_ring_long_g", ring_long_g, prepare_g, quiesce_g),
	SHMEM_KERNEL("shmem_compare_swap_yes", cswap_yes, prepare_cswap, 0),
	SHMEM_KERNEL("shmem_compare_swap_no", cswap_no, prepare_cswap, 0),
};
const sk_table sk_shmem_ring_table = SK_TABLE(kernels);
