//go:build mpi

/* check_data for data layouts (layout.h): a sender's payload element k, wherever the
 * layout puts it, carries check.c's pattern at the payload offset k * esize (its offset
 * as msg_bytes counts it); the gaps between elements carry GAP_SEND, which must never
 * arrive. A receiver's memory is set to GAP_RECV before every repetition; after it,
 * every element must hold its pattern at its place and every gap still GAP_RECV. A
 * put's target window is never rewritten (its gaps stay the zeros it was created
 * with); a get reads a window filled once, with repetition 0's pattern, and its origin
 * sets its results to GAP_RECV before every repetition, so a stale result differs. A
 * packed one-sided target holds the contiguous, packed form. An accumulate's elements
 * hold sums, so its check is the gaps alone: nothing lands between the elements. */
#include <string.h>
#include "kernels.h"
#include "layout.h"
#include "sk_common.h"

enum { GAP_SEND = 0x5A, GAP_RECV = 0xC3 };

static int strided(const sk_ctx *c) { return c->lay->kind != SK_DL_PACKED; }

/* fill_msg writes one message of rank's pattern (payload offsets from base) at its
 * places in buf, GAP_SEND between them; contiguous: the payload alone, in order. */
static void fill_msg(sk_ctx *c, char *buf, int rank, long long rep, long long base, int places) {
	const struct sk_layout *l = c->lay;
	long long n = c->a.bytes;
	if (!places) {
		sk_pattern_fill(buf, n, rank, n, rep, base);
		return;
	}
	memset(buf, GAP_SEND, (size_t)c->span);
	for (int k = 0; k < l->n; k++)
		sk_pattern_fill(buf + (size_t)k * (size_t)l->stride * (size_t)l->esize, l->esize, rank, n, rep,
		                base + (long long)k * l->esize);
}

static void note(sk_ctx *c, int from, int slot, long long off, int want, int got, long long rep) {
	c->bad = 1;
	c->bad_from = from;
	c->bad_slot = slot;
	c->bad_offset = off;
	c->bad_expected = want;
	c->bad_actual = got;
	c->bad_rep = rep;
}

/* verify_msg checks one received message: the pattern of from at every payload byte's
 * place (places: the layout's; else in order), and gap (< 0: not checked) in between.
 * payload: check the elements (an accumulate's are sums: not). */
static void verify_msg(sk_ctx *c, const char *buf, int from, int slot, long long rep, long long base, int places,
                       int payload, int gap) {
	const struct sk_layout *l = c->lay;
	long long n = c->a.bytes, elem_at = places ? (long long)l->stride * l->esize : l->esize;
	long long end = places ? c->span : n;
	if (c->bad) return;
	for (long long off = 0; off < end; off++) {
		long long k = off / elem_at, in = off % elem_at;
		int got = (unsigned char)buf[off], want;
		if (in < l->esize) {
			if (!payload) continue;
			want = sk_pattern_byte(from, n, rep, base + k * l->esize + in);
		} else {
			if (gap < 0) continue;
			want = gap;
		}
		if (got != want) {
			note(c, from, slot, off, want, got, rep);
			return;
		}
	}
}

/* The one-sided side that receives data: a put's target, a get's origin; both in the
 * ping-pong modes. */
static int receives(const sk_ctx *c, int put) {
	if (c->mode == SK_SYNC_FENCE_PINGPONG || c->mode == SK_SYNC_PSCW_PINGPONG) return 1;
	return (c->a.role == SK_ROLE_INITIATOR) != put;
}

void sk_layout_fill(sk_ctx *c) {
	const sk_args *a = &c->a;
	if (!a->check || !c->lay || a->role == SK_ROLE_IDLE) return;
	switch (c->k->layout) {
	case SK_LAY_PINGPONG:
		fill_msg(c, a->sbuf, c->rank, c->rep, 0, 1);
		memset(a->rbuf, GAP_RECV, (size_t)c->span);
		break;
	case SK_LAY_ALLTOALL:
		for (int i = 0; i < c->nprocs; i++)
			fill_msg(c, a->sbuf + (size_t)i * (size_t)c->span, c->rank, c->rep, (long long)i * a->bytes, 1);
		memset(a->rbuf, GAP_RECV, (size_t)c->span * (size_t)c->nprocs);
		break;
	case SK_LAY_PUT:
	case SK_LAY_ACCUMULATE:
		fill_msg(c, a->sbuf, c->rank, c->rep, 0, 1);
		break;
	case SK_LAY_GET:
		if (c->result_buf) memset(c->result_buf, GAP_RECV, (size_t)c->span * (size_t)(a->window > 1 ? a->window : 1));
		break;
	}
}

/* Window slots a one-sided operation writes (recv_slots per-message: one each). */
static int win_slots(const sk_ctx *c) { return c->a.slot_stride > 0 && c->a.window > 1 ? c->a.window : 1; }

void sk_layout_fill_window(sk_ctx *c) {
	for (int s = 0; s < win_slots(c); s++) fill_msg(c, c->wbase + (size_t)s * (size_t)c->span, c->rank, 0, 0, strided(c));
}

int sk_layout_verify(sk_ctx *c) {
	const sk_args *a = &c->a;
	if (!a->check || !c->lay || a->role == SK_ROLE_IDLE) return MPI_SUCCESS;
	int lay = c->k->layout;
	switch (lay) {
	case SK_LAY_PINGPONG:
		verify_msg(c, a->rbuf, a->peer, 0, c->rep, 0, 1, 1, GAP_RECV);
		break;
	case SK_LAY_ALLTOALL:
		for (int i = 0; i < c->nprocs; i++)
			verify_msg(c, a->rbuf + (size_t)i * (size_t)c->span, i, i, c->rep, (long long)c->rank * a->bytes, 1, 1, GAP_RECV);
		break;
	case SK_LAY_GET:
		if (!receives(c, 0)) break;
		for (int i = 0; i < (a->window > 1 ? a->window : 1); i++)
			verify_msg(c, c->result_buf + (size_t)i * (size_t)c->span, c->rma_peer, i, 0, 0, 1, 1, GAP_RECV);
		break;
	case SK_LAY_PUT:
	case SK_LAY_ACCUMULATE:
		/* The origin's last epoch has ended (a passive one without the target): the
		 * barrier orders the target's reading after it. */
		CK(MPI_Barrier(c->comm));
		if (!receives(c, 1) || !c->lay->unified || !c->wbase) break;
		for (int s = 0; s < win_slots(c); s++)
			verify_msg(c, c->wbase + (size_t)s * (size_t)c->span, c->rma_peer, s, c->rep, 0, strided(c),
			           lay == SK_LAY_PUT, 0);
		break;
	}
	return MPI_SUCCESS;
}
