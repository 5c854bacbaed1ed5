//go:build mpi && shmem

/* The GROMACS pattern (the seed's shmem_void_sendrecv): a send-receive made of a lock
 * on the destination's buffer, a put, a "post" flag, the receiver's copy out of its
 * symmetric buffer, and a "done" flag back, over a shift: every PE sends to the next
 * and receives from the previous (2 PEs: an exchange). Every PE of the job takes part,
 * PE numbers being world ranks. Beside it, MPI_Sendrecv over the same shift
 * (Sendrecv_Shift, ops/mpi/pt2pt.c). */
#include <sched.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include "skampi.h"
#include "shmem_kernels.h"
#include "sk_common.h"

/* Every flag here is a step number that only grows: written by one partner only (a
 * put), waited for with SHMEM_CMP_GE, never cleared by a local store. Open MPI 4.1.4's
 * OpenSHMEM over UCX lost flags cleared locally: in about one run in five a PE saw a
 * flag its partner had not yet set in that step (the previous step's value, back after
 * the clear) and the partner then waited for ever in the last step of a repetition
 * (README, "OpenSHMEM": where both PEs were). A flag that only grows needs no clear, and
 * a late or repeated write of an older step's number satisfies no newer wait. The step
 * number is the process's, never restarted: advanced by every PE in every step of both
 * kernels (every PE of the job takes part in each), so the PEs agree on it, and a late
 * write from an earlier point (its buffer freed, a new one zeroed, often at the same
 * address) carries a smaller number than any wait of a later point. */
static long steps;

/* One PE late (the setting delay; GROMACS's imbalance, seed 000): the last PE of the
 * communicator busy-waits on the clock for the delay from the start of its step before
 * it sends, as ops/mpi's delayed collectives do; the others start at once and wait for
 * it inside the exchange. delay 0: nobody is late. */
static void arrive_late(const sk_ctx *c) {
	if (c->rank != c->nprocs - 1 || !(c->delay > 0)) return;
	for (double until = sk_now() + c->delay; sk_now() < until;)
		;
}

/* The symmetric layout: the data (rounded to 64 bytes), the post and done flags a cache
 * line each, then one lock per PE (lock i guards PE i's buffer). */
static size_t data_bytes(const sk_ctx *c) { return ((size_t)c->a.bytes + 63) & ~(size_t)63; }
static long *post_flag(sk_ctx *c) { return (long *)(c->sym + data_bytes(c)); }
static long *done_flag(sk_ctx *c) { return (long *)(c->sym + data_bytes(c) + 64); }
static long *lock_for(sk_ctx *c, int pe) { return (long *)(c->sym + data_bytes(c) + 128 + 64 * (size_t)pe); }

int sk_shmem_prepare_sendrecv(sk_ctx *c) {
	CK(sk_shmem_alloc(c, (long long)(((size_t)c->a.bytes + 63) & ~(size_t)63) + 128 + 64LL * c->a.nprocs));
	shmem_barrier_all();
	return MPI_SUCCESS;
}

int sk_shmem_sendrecv_shift(sk_ctx *c) {
	int n = c->nprocs, me = c->rank, to = (me + 1) % n, from = (me - 1 + n) % n;
	size_t bytes = (size_t)c->a.bytes;
	long step = ++steps;
	arrive_late(c);
	shmem_set_lock(lock_for(c, to)); /* the destination's buffer is ours to fill */
	if (bytes) shmem_putmem(c->sym, c->a.sbuf, bytes, to);
	shmem_fence(); /* the data before the flag */
	shmem_long_p(post_flag(c), step, to);
	shmem_long_wait_until(post_flag(c), SHMEM_CMP_GE, step); /* our sender's data is here */
	if (bytes) memcpy(c->a.rbuf, c->sym, bytes);
	shmem_long_p(done_flag(c), step, from); /* copied: the sender may go on */
	shmem_long_wait_until(done_flag(c), SHMEM_CMP_GE, step); /* our receiver has copied */
	shmem_clear_lock(lock_for(c, to));
	/* Our flags to the others delivered before we go on: a PE that goes into the
	 * engine's MPI barrier next does not drive OpenSHMEM's progress, and a flag still
	 * queued there would leave its neighbour waiting (8 PEs on 2 cores hung so). */
	shmem_quiet();
	return MPI_SUCCESS;
}

/* The offset exchange (the seed's "offset swap") as its lower bound: the receiver
 * chooses where the data lands in its symmetric memory, here alternately the first and
 * the second half of its receive area, as a receiver filling an array piece by piece
 * would, and puts that choice on its sender, with the step number: (step << 1) | half;
 * the sender waits for it, puts the data there, then the post flag (the step number).
 * The data is received in place: no copy out, no lock, no done flag, the next offset
 * being the receiver's "ready". What the seed's final version adds is left out (no
 * call counter, no size exchange) and nobody reads the data: see the seed's form
 * below. */
static long *offset_post(sk_ctx *c) { return (long *)(c->sym + 2 * data_bytes(c)); }
static long *offset_slot(sk_ctx *c) { return (long *)(c->sym + 2 * data_bytes(c) + 64); }

int sk_shmem_prepare_sendrecv_offset(sk_ctx *c) {
	CK(sk_shmem_alloc(c, (long long)(2 * data_bytes(c) + 128)));
	shmem_barrier_all();
	return MPI_SUCCESS;
}

int sk_shmem_sendrecv_shift_offset(sk_ctx *c) {
	int n = c->nprocs, me = c->rank, to = (me + 1) % n, from = (me - 1 + n) % n;
	size_t bytes = (size_t)c->a.bytes;
	long step = ++steps, half = step & 1;
	arrive_late(c);
	shmem_long_p(offset_slot(c), (step << 1) | half, from); /* where our sender is to put */
	shmem_long_wait_until(offset_slot(c), SHMEM_CMP_GE, step << 1); /* where our receiver wants it */
	size_t off = (size_t)(*offset_slot(c) & 1) * data_bytes(c);
	if (bytes) shmem_putmem(c->sym + off, c->a.sbuf, bytes, to);
	shmem_fence(); /* the data before the flag */
	shmem_long_p(offset_post(c), step, to);
	shmem_long_wait_until(offset_post(c), SHMEM_CMP_GE, step); /* ours is in place */
	shmem_quiet();
	return MPI_SUCCESS;
}

/* The seed's final send-receive (its sections 3.3.2-3.3.4: dd_move_x with
 * shmem_wait_for_previous_call, the offset and size swap, the in-place put), as the
 * seed ran it, every flag a step number:
 *  1. the call counter: wait, polling with shmem_long_g and sched_yield() between
 *     polls as the seed's shmem_wait_for_previous_call does, until the partners' (the
 *     PE we send to and the one we receive from) have finished the previous call;
 *  2. the receiver puts on its sender the size it expects, then (shmem_fence between:
 *     the size before the flag) the offset where the data is to land with the step
 *     number, (step << 1) | half;
 *  3. the sender waits for that offset, reads the size (it must be msg_bytes, and the
 *     offset this step's: anything else is a lost or late write, counted, and the
 *     point fails after the run on every PE: SK_ERR_FAILED), puts that many bytes
 *     there, shmem_fence, the post flag (the step number);
 *  4. the receiver waits for its post and reads every byte received (a sum of them,
 *     as the computation that uses the data would), then marks the call finished in
 *     its counter (a local store others only read with shmem_long_g: no put ever
 *     writes it).
 * Layout: two halves of data, then a cache line each for the counter, the size, the
 * offset and the post flag. */
static long *seed_counter(sk_ctx *c) { return (long *)(c->sym + 2 * data_bytes(c)); }
static long *seed_size(sk_ctx *c) { return (long *)(c->sym + 2 * data_bytes(c) + 64); }
static long *seed_offset(sk_ctx *c) { return (long *)(c->sym + 2 * data_bytes(c) + 128); }
static long *seed_post(sk_ctx *c) { return (long *)(c->sym + 2 * data_bytes(c) + 192); }

int sk_shmem_prepare_sendrecv_seed(sk_ctx *c) {
	CK(sk_shmem_alloc(c, (long long)(2 * data_bytes(c) + 256)));
	/* The previous call, for the first step's wait: every PE's step number is the same
	 * (every PE of the job takes part in every step). */
	*seed_counter(c) = steps;
	shmem_barrier_all();
	return MPI_SUCCESS;
}

/* shmem_wait_for_previous_call, the seed's way: a get, a yield, until the partner's
 * counter has reached ours. */
static void wait_for_previous_call(sk_ctx *c, long previous, int pe) {
	while (shmem_long_g(seed_counter(c), pe) < previous) sched_yield();
}

/* The received data read, every byte: what a receiver that uses it pays (the lines
 * the sender's put left in its own cache come over). */
static volatile unsigned long seed_sink;
static void read_data(const char *p, size_t bytes) {
	unsigned long sum = 0;
	size_t i = 0;
	for (; i + 8 <= bytes; i += 8) {
		unsigned long w;
		memcpy(&w, p + i, 8);
		sum += w;
	}
	for (; i < bytes; i++) sum += (unsigned char)p[i];
	seed_sink = sum;
}

int sk_shmem_sendrecv_shift_seed(sk_ctx *c) {
	int n = c->nprocs, me = c->rank, to = (me + 1) % n, from = (me - 1 + n) % n;
	size_t bytes = (size_t)c->a.bytes;
	long step = ++steps, half = step & 1;
	arrive_late(c);
	wait_for_previous_call(c, step - 1, to);
	if (from != to) wait_for_previous_call(c, step - 1, from);
	/* receiver: the size we expect, then where it is to land */
	shmem_long_p(seed_size(c), (long)bytes, from);
	shmem_fence();
	shmem_long_p(seed_offset(c), (step << 1) | half, from);
	/* sender: our receiver's offset and size */
	shmem_long_wait_until(seed_offset(c), SHMEM_CMP_GE, step << 1);
	long where = *(volatile long *)seed_offset(c), size = *(volatile long *)seed_size(c);
	if (size != (long)bytes || (where >> 1) != step) {
		/* Counted, and the step goes on as it should have (every PE must finish it):
		 * the point fails after the run (seed_check). */
		c->protocol_errors++;
		size = (long)bytes;
		where = (step << 1) | half;
	}
	if (size) shmem_putmem(c->sym + (size_t)(where & 1) * data_bytes(c), c->a.sbuf, (size_t)size, to);
	shmem_fence(); /* the data before the flag */
	shmem_long_p(seed_post(c), step, to);
	/* receiver: ours is in place; use it */
	shmem_long_wait_until(seed_post(c), SHMEM_CMP_GE, step);
	read_data(c->sym + (size_t)half * data_bytes(c), bytes);
	*(volatile long *)seed_counter(c) = step; /* this call is finished */
	shmem_quiet();
	return MPI_SUCCESS;
}

/* After every run, on every PE (the kernel's quiesce): OpenSHMEM quiet across the job,
 * then every PE learns whether any sender read a size or offset its receiver had not
 * sent, so all fail the point together. */
int sk_shmem_sendrecv_seed_check(sk_ctx *c) {
	shmem_barrier_all();
	if (c->a.role == SK_ROLE_IDLE) return MPI_SUCCESS; /* none: every PE takes part */
	long long all = c->protocol_errors;
	CK(sk_agree_sum(c, &all));
	if (!all) return MPI_SUCCESS;
	snprintf(sk_failure, SK_FAILURE_LEN,
	         "%lld time(s) a sender read a size or offset its receiver had not sent in that step (a write lost or applied late)", all);
	return SK_ERR_FAILED;
}

/* The kernels of this file (shmem.c joins the tables). */
static const sk_kernel kernels[] = {
	SHMEM_KERNEL("shmem_sendrecv_shift", sk_shmem_sendrecv_shift, sk_shmem_prepare_sendrecv, SK_K_COLLECTIVE),
	SHMEM_KERNEL("shmem_sendrecv_shift_offset", sk_shmem_sendrecv_shift_offset, sk_shmem_prepare_sendrecv_offset,
	             SK_K_COLLECTIVE),
	/* its quiesce also checks what was received (SK_ERR_FAILED) */
	{.params = sk_shmem_params, .name = "shmem_sendrecv_shift_seed", .step = sk_shmem_sendrecv_shift_seed, .prepare = sk_shmem_prepare_sendrecv_seed,
	 .flags = ALL | SK_K_COLLECTIVE, .close = sk_shmem_close, .quiesce = sk_shmem_sendrecv_seed_check},
};
const sk_table sk_shmem_sendrecv_table = SK_TABLE(kernels);
