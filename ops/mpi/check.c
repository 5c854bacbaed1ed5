//go:build mpi

/* check_data: every send buffer carries a pattern that depends on the sender's rank,
 * the message size, the repetition and the byte's offset; after each repetition,
 * outside the timed interval, receivers compare what they received with what was sent
 * and keep the first difference. The pattern moves by an odd step from one repetition
 * to the next, so a message not received at all (last repetition's bytes) differs in
 * every byte. Reductions are left out: their result depends on the operator and, for
 * floating point, on the library's order of operations. */
#include "kernels.h"

unsigned char sk_pattern_byte(int rank, long long bytes, long long rep, long long offset) {
	unsigned x = (unsigned)offset * 0x9E3779B1u + (unsigned)rank * 0x85EBCA77u + (unsigned)bytes * 0xC2B2AE3Du;
	x ^= x >> 15;
	x *= 0x2C1B3C6Du;
	x ^= x >> 12;
	return (unsigned char)(x + (unsigned)rep * 0x9Du);
}

void sk_pattern_fill(char *buf, long long len, int rank, long long bytes, long long rep, long long base) {
	for (long long i = 0; i < len; i++) buf[i] = (char)sk_pattern_byte(rank, bytes, rep, base + i);
}

long long sk_pattern_find(const char *buf, long long len, int rank, long long bytes, long long rep, long long base) {
	for (long long i = 0; i < len; i++)
		if ((unsigned char)buf[i] != sk_pattern_byte(rank, bytes, rep, base + i)) return i;
	return -1;
}

/* sk_check_mark compares the first len bytes of one received message (or block) and
 * keeps the first difference; verify, the whole message. */
void sk_check_mark(sk_ctx *c, const char *buf, long long len, int from, int slot, long long base) {
	if (c->bad) return;
	long long n = c->a.bytes;
	long long i = sk_pattern_find(buf, len, from, n, c->rep, base);
	if (i < 0) return;
	c->bad = 1;
	c->bad_from = from;
	c->bad_slot = slot;
	c->bad_offset = i;
	c->bad_expected = sk_pattern_byte(from, n, c->rep, base + i);
	c->bad_actual = (unsigned char)buf[i];
	c->bad_rep = c->rep;
}

static void verify(sk_ctx *c, const char *buf, int from, int slot, long long base) {
	sk_check_mark(c, buf, c->a.bytes, from, slot, base);
}

static int per_process_send(int kind) {
	return kind == SK_CHECK_SCATTER || kind == SK_CHECK_ALLTOALL;
}

/* sk_check_fill writes this repetition's pattern into what this rank sends (and what a
 * broadcast overwrites). */
void sk_check_fill(sk_ctx *c) {
	int kind = c->k->check;
	if (!c->a.check || kind == SK_CHECK_NONE || c->a.role == SK_ROLE_IDLE) return;
	long long n = c->a.bytes, len = per_process_send(kind) ? n * c->nprocs : n;
	if (kind == SK_CHECK_OWN) {
		c->k->fill(c);
		return;
	}
	char *buf = kind == SK_CHECK_REPLACE ? c->a.rbuf : c->a.sbuf;
	sk_pattern_fill(buf, len, c->rank, n, c->rep, 0);
}

/* sk_check_verify checks what this rank received in a repetition of iters steps. */
void sk_check_verify(sk_ctx *c, long long iters) {
	const sk_args *a = &c->a;
	int kind = c->k->check, p = c->nprocs;
	if (!a->check || kind == SK_CHECK_NONE || a->role == SK_ROLE_IDLE) return;
	long long n = a->bytes;
	int slots = a->window > 0 && a->slot_stride > 0 ? a->window : 1;
	switch (kind) {
	case SK_CHECK_RESPONDER:
	case SK_CHECK_INITIATOR:
		if (a->role != (kind == SK_CHECK_RESPONDER ? SK_ROLE_RESPONDER : SK_ROLE_INITIATOR)) break;
		/* fall through */
	case SK_CHECK_PEER:
		for (int s = 0; s < slots; s++) verify(c, a->rbuf + (size_t)s * (size_t)a->slot_stride, a->peer, s, 0);
		break;
	case SK_CHECK_REPLACE: { /* the buffer crosses over at every exchange of it */
		/* With cold caches the last step's region was exchanged only by every
		 * cold_regions-th step, not by all of them. */
		long long uses = a->cold_regions > 1 ? (iters - 1) / a->cold_regions + 1 : iters;
		verify(c, a->rbuf, uses % 2 ? a->peer : c->rank, 0, 0);
		break;
	}
	case SK_CHECK_BCAST:
		verify(c, a->sbuf, a->root, 0, 0);
		break;
	case SK_CHECK_BCAST_FIRST:
		verify(c, a->sbuf, 0, 0, 0);
		break;
	case SK_CHECK_GATHER:
	case SK_CHECK_GATHER_OTHERS: /* the baseline does not copy the root's own block */
		if (c->rank != a->root) break;
		/* fall through */
	case SK_CHECK_ALLGATHER:
		for (int i = 0; i < p; i++)
			if (kind != SK_CHECK_GATHER_OTHERS || i != a->root) verify(c, a->rbuf + (size_t)i * (size_t)n, i, i, 0);
		break;
	case SK_CHECK_SCATTER:
		verify(c, a->rbuf, a->root, c->rank, (long long)c->rank * n);
		break;
	case SK_CHECK_ALLTOALL:
		for (int i = 0; i < p; i++) verify(c, a->rbuf + (size_t)i * (size_t)n, i, i, (long long)c->rank * n);
		break;
	case SK_CHECK_OWN:
		c->k->verify(c, iters);
		break;
	}
}
