//go:build mpi

/* One-sided communication (tables.c joins the tables). A kernel is an RMA operation under a
 * synchronisation mode (the operation's timing methods): one step is one access epoch
 * of `window` operations to the peer, completed inside the timing (the method paper:
 * a put is done when its completion call returns, not when MPI_Put does). The window
 * is the engine's, created once per point (sk_prepare_rma, ops/mpi/window.c) from
 * MPI_Win_allocate, MPI_Win_create or MPI_Win_create_dynamic, and freed collectively by
 * sk_close_rma.
 *
 * The modes, with the method names the catalogue gives them: where OSU's one-sided
 * latency tests (osu_put_latency, osu_get_latency, osu_acc_latency, -s MODE) have a
 * sequence, the method has OSU's name and does OSU's sequence:
 *   flush        MPI_Win_lock(MPI_LOCK_SHARED, peer) held through the point; per step
 *                the operations, MPI_Win_flush                      SK_SYNC_SHARED_FLUSH
 *   flush_local  the same, MPI_Win_flush_local                      SK_SYNC_SHARED_FLUSH_LOCAL
 *   lock         per step MPI_Win_lock(SHARED), operations, unlock  SK_SYNC_LOCK_SHARED
 *   lock_all     per step MPI_Win_lock_all, operations, unlock_all  SK_SYNC_LOCK_ALL_EPOCH
 *   fence        a ping-pong: the origin fences, operates, fences, fences; the target
 *                fences, fences, operates on the origin, fences; the time is halved
 *                                                                   SK_SYNC_FENCE_PINGPONG
 *   pscw         a ping-pong: the origin starts, operates, completes, posts, waits;
 *                the target posts, waits, starts, operates, completes; halved
 *                                                                   SK_SYNC_PSCW_PINGPONG
 * and skampi's own sequences under their own names:
 *   lock_exclusive        per step MPI_Win_lock(EXCLUSIVE), operations, unlock
 *   lock_all_flush        MPI_Win_lock_all held through the point; operations, flush
 *   lock_all_flush_local  the same, MPI_Win_flush_local
 *   fence_epoch           operations, one MPI_Win_fence (which opens the next epoch)
 *   pscw_epoch            MPI_Win_start, operations, MPI_Win_complete; the target
 *                         MPI_Win_post, MPI_Win_wait
 * The ping-pong modes set calls_per_step = 2: the time is per one-way epoch. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "layout.h"
#include "sk_common.h"

static int origin(const sk_ctx *c) { return c->a.role == SK_ROLE_INITIATOR; }

#define base_of sk_rma_base_of

/* Where operation i of an epoch lands in the target's window: its slot, or the one
 * slot the window shares (recv_slots), from the target's base (dynamic windows). */
static MPI_Aint disp(const sk_ctx *c, int i) { return c->rma_base + (MPI_Aint)i * (MPI_Aint)c->a.slot_stride; }

/* Where the result of operation i goes: results never share a buffer. A message spans
 * c->span bytes (msg_bytes unless a data layout strides it). */
static char *result(const sk_ctx *c, int i) { return c->result_buf + (size_t)i * (size_t)c->span; }

/* An RMA operation: call number i of an epoch, origin data from sbuf, results (get,
 * fetch) into c->result_buf; req is its request (request-based operations). Each is
 * inlined, with the mode a constant, into one step per mode (SK_RMA_OP below), so the
 * timed loop of a put under lock_all is MPI_Put and MPI_Win_flush and nothing else: a
 * C loop's, as bench/ref_rma.c checks. */
typedef int (*rma_call)(sk_ctx *c, int i, MPI_Request *req);
#define ALWAYS static inline __attribute__((always_inline))

/* The window operations of one epoch; local: request-based, completed locally by
 * MPI_Waitall inside the epoch (part of the operation). */
ALWAYS int ops(sk_ctx *c, const rma_call call, const int local) {
	int w = c->a.window > 0 ? c->a.window : 1;
	for (int i = 0; i < w; i++) CK(call(c, i, &c->req[i]));
	if (local) CK(MPI_Waitall(w, c->req, MPI_STATUSES_IGNORE));
	return MPI_SUCCESS;
}

/* The origin's step: open, the operations, close. */
ALWAYS int origin_epoch(sk_ctx *c, const rma_call call, const int local, const int sync) {
	int peer = c->rma_peer;
	switch (sync) {
	case SK_SYNC_PSCW_EPOCH:
	case SK_SYNC_PSCW_PINGPONG:
		CK(MPI_Win_start(c->peer_group, 0, c->win));
		break;
	case SK_SYNC_LOCK_EXCLUSIVE:
	case SK_SYNC_LOCK_SHARED:
		CK(MPI_Win_lock(sync == SK_SYNC_LOCK_EXCLUSIVE ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, peer, 0, c->win));
		break;
	case SK_SYNC_LOCK_ALL_EPOCH:
		CK(MPI_Win_lock_all(0, c->win));
		break;
	case SK_SYNC_FENCE_PINGPONG:
		CK(MPI_Win_fence(0, c->win));
		break;
	}
	CK(ops(c, call, local));
	switch (sync) {
	case SK_SYNC_FENCE_EPOCH:
		return MPI_Win_fence(0, c->win);
	case SK_SYNC_FENCE_PINGPONG: /* ours closed, then the peer's epoch */
		CK(MPI_Win_fence(0, c->win));
		return MPI_Win_fence(0, c->win);
	case SK_SYNC_PSCW_EPOCH:
		return MPI_Win_complete(c->win);
	case SK_SYNC_PSCW_PINGPONG:
		CK(MPI_Win_complete(c->win));
		CK(MPI_Win_post(c->peer_group, 0, c->win));
		return MPI_Win_wait(c->win);
	case SK_SYNC_LOCK_EXCLUSIVE:
	case SK_SYNC_LOCK_SHARED:
		return MPI_Win_unlock(peer, c->win);
	case SK_SYNC_LOCK_ALL_EPOCH:
		return MPI_Win_unlock_all(c->win);
	case SK_SYNC_LOCK_ALL_FLUSH:
	case SK_SYNC_SHARED_FLUSH:
		return MPI_Win_flush(peer, c->win);
	case SK_SYNC_LOCK_ALL_FLUSH_LOCAL:
	case SK_SYNC_SHARED_FLUSH_LOCAL:
		return MPI_Win_flush_local(peer, c->win);
	}
	return SK_ERR_KERNEL;
}

/* The target's step: the active modes need it (in the ping-pongs it operates on the
 * origin's window in turn), the passive ones do not. */
ALWAYS int target_epoch(sk_ctx *c, const rma_call call, const int local, const int sync) {
	switch (sync) {
	case SK_SYNC_FENCE_EPOCH:
		return MPI_Win_fence(0, c->win);
	case SK_SYNC_PSCW_EPOCH:
		CK(MPI_Win_post(c->peer_group, 0, c->win));
		return MPI_Win_wait(c->win);
	case SK_SYNC_FENCE_PINGPONG:
		CK(MPI_Win_fence(0, c->win));
		CK(MPI_Win_fence(0, c->win));
		CK(ops(c, call, local));
		return MPI_Win_fence(0, c->win);
	case SK_SYNC_PSCW_PINGPONG:
		CK(MPI_Win_post(c->peer_group, 0, c->win));
		CK(MPI_Win_wait(c->win));
		CK(MPI_Win_start(c->peer_group, 0, c->win));
		CK(ops(c, call, local));
		return MPI_Win_complete(c->win);
	}
	return MPI_SUCCESS;
}

/* SK_RMA_OP(name, local) makes an operation's step under every mode, the switches
 * folded away, and its table of them (sk_kernel.by_mode): rma_<name>_modes. The modes
 * are listed once, here. */
#define SK_RMA_MODES(X, NAME, LOCAL)                                                                              \
	X(NAME, LOCAL, SK_SYNC_FENCE_EPOCH)                                                                           \
	X(NAME, LOCAL, SK_SYNC_PSCW_EPOCH)                                                                            \
	X(NAME, LOCAL, SK_SYNC_LOCK_EXCLUSIVE)                                                                        \
	X(NAME, LOCAL, SK_SYNC_LOCK_SHARED)                                                                           \
	X(NAME, LOCAL, SK_SYNC_LOCK_ALL_FLUSH)                                                                        \
	X(NAME, LOCAL, SK_SYNC_LOCK_ALL_FLUSH_LOCAL)                                                                  \
	X(NAME, LOCAL, SK_SYNC_SHARED_FLUSH)                                                                          \
	X(NAME, LOCAL, SK_SYNC_SHARED_FLUSH_LOCAL)                                                                    \
	X(NAME, LOCAL, SK_SYNC_LOCK_ALL_EPOCH)                                                                        \
	X(NAME, LOCAL, SK_SYNC_FENCE_PINGPONG)                                                                        \
	X(NAME, LOCAL, SK_SYNC_PSCW_PINGPONG)
#define SK_RMA_EPOCH(NAME, LOCAL, SYNC)                                                                           \
	static int rma_##NAME##_##SYNC(sk_ctx *c) {                                                               \
		return origin(c) ? origin_epoch(c, call_##NAME, LOCAL, SYNC) : target_epoch(c, call_##NAME, LOCAL, SYNC); \
	}
#define SK_RMA_CELL(NAME, LOCAL, SYNC) [SYNC] = rma_##NAME##_##SYNC,
#define SK_RMA_OP(NAME, LOCAL)                                                                                    \
	SK_RMA_MODES(SK_RMA_EPOCH, NAME, LOCAL)                                                                       \
	static const sk_step rma_##NAME##_modes[SK_SYNC_COUNT] = {SK_RMA_MODES(SK_RMA_CELL, NAME, LOCAL)};

/* The operations. */
/* Under a data layout (layout.h) put, get and accumulate move its wire form: one
 * derived datatype at both ends, or the packed copy. */
ALWAYS int call_put(sk_ctx *c, int i, MPI_Request *req) {
	(void)req;
	const struct sk_layout *l = c->lay;
	if (l) return MPI_Put(sk_lay_origin(l, c->a.sbuf, i), l->count, l->dt, c->rma_peer, disp(c, i), l->count, l->dt, c->win);
	return MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, c->rma_peer, disp(c, i), c->a.bytes, MPI_BYTE, c->win);
}
SK_RMA_OP(put, 0)

ALWAYS int call_get(sk_ctx *c, int i, MPI_Request *req) {
	(void)req;
	const struct sk_layout *l = c->lay;
	if (l) return MPI_Get(sk_lay_origin(l, result(c, i), i), l->count, l->dt, c->rma_peer, disp(c, i), l->count, l->dt, c->win);
	return MPI_Get(result(c, i), c->a.bytes, MPI_BYTE, c->rma_peer, disp(c, i), c->a.bytes, MPI_BYTE, c->win);
}
SK_RMA_OP(get, 0)

ALWAYS int call_accumulate(sk_ctx *c, int i, MPI_Request *req) {
	(void)req;
	const struct sk_layout *l = c->lay;
	if (l)
		return MPI_Accumulate(sk_lay_origin(l, c->a.sbuf, i), l->count, l->dt, c->rma_peer, disp(c, i), l->count, l->dt,
		                      c->op, c->win);
	return MPI_Accumulate(c->a.sbuf, c->count, c->dt, c->rma_peer, disp(c, i), c->count, c->dt, c->op, c->win);
}
SK_RMA_OP(accumulate, 0)

ALWAYS int call_get_accumulate(sk_ctx *c, int i, MPI_Request *req) {
	(void)req;
	return MPI_Get_accumulate(c->a.sbuf, c->count, c->dt, result(c, i), c->count, c->dt, c->rma_peer, disp(c, i),
	                          c->count, c->dt, c->op, c->win);
}
SK_RMA_OP(get_accumulate, 0)

ALWAYS int call_fetch_and_op(sk_ctx *c, int i, MPI_Request *req) {
	(void)req;
	return MPI_Fetch_and_op(c->a.sbuf, result(c, i), c->dt, c->rma_peer, disp(c, i), c->op, c->win);
}
SK_RMA_OP(fetch_and_op, 0)

/* Compare with what is there (0 at first), swap in ours. */
ALWAYS int call_compare_and_swap(sk_ctx *c, int i, MPI_Request *req) {
	(void)req;
	return MPI_Compare_and_swap(c->a.sbuf, c->compare_buf, result(c, i), c->dt, c->rma_peer, disp(c, i), c->win);
}
SK_RMA_OP(compare_and_swap, 0)

ALWAYS int call_rput(sk_ctx *c, int i, MPI_Request *req) {
	return MPI_Rput(c->a.sbuf, c->a.bytes, MPI_BYTE, c->rma_peer, disp(c, i), c->a.bytes, MPI_BYTE, c->win, req);
}
SK_RMA_OP(rput, 1)

ALWAYS int call_rget(sk_ctx *c, int i, MPI_Request *req) {
	return MPI_Rget(result(c, i), c->a.bytes, MPI_BYTE, c->rma_peer, disp(c, i), c->a.bytes, MPI_BYTE, c->win, req);
}
SK_RMA_OP(rget, 1)

ALWAYS int call_raccumulate(sk_ctx *c, int i, MPI_Request *req) {
	return MPI_Raccumulate(c->a.sbuf, c->count, c->dt, c->rma_peer, disp(c, i), c->count, c->dt, c->op, c->win, req);
}
SK_RMA_OP(raccumulate, 1)

ALWAYS int call_rget_accumulate(sk_ctx *c, int i, MPI_Request *req) {
	return MPI_Rget_accumulate(c->a.sbuf, c->count, c->dt, result(c, i), c->count, c->dt, c->rma_peer, disp(c, i),
	                           c->count, c->dt, c->op, c->win, req);
}
SK_RMA_OP(rget_accumulate, 1)

/* A window of exactly msg_bytes per process, created and freed. */
static int create_free(sk_ctx *c, int kind) {
	MPI_Win w;
	char *base;
	CK(sk_create_window(c, kind, (MPI_Aint)c->a.bytes, &w, &base));
	return sk_free_window(kind, &w, base);
}
static int win_allocate_free(sk_ctx *c) { return create_free(c, SK_WIN_ALLOCATE); }
static int win_create_free(sk_ctx *c) { return create_free(c, SK_WIN_CREATE); }
static int win_create_dynamic_free(sk_ctx *c) { return create_free(c, SK_WIN_DYNAMIC); }

/* The kernels of this file (kernels.go hands the tables to the engine): an operation under every mode
 * (its methods name the mode; flush, OSU's default, when none), and the windows'
 * creation. Request-based operations exist only in passive modes: their catalogue
 * entries offer no other. */
#define RMA_OP(name_, NAME, flags_) RMA_OP_LAYOUT(name_, NAME, flags_, SK_LAY_NONE)
#define RMA_OP_LAYOUT(name_, NAME, flags_, layout_)                                                            \
	{.name = (name_), .prepare = sk_prepare_rma, .flags = (flags_), .close = sk_close_rma, .mode = "flush", \
	 .by_mode = rma_##NAME##_modes, .layout = (layout_)}
static const sk_kernel kernels[] = {
	RMA_OP_LAYOUT("put", put, 0, SK_LAY_PUT),
	RMA_OP_LAYOUT("get", get, 0, SK_LAY_GET),
	RMA_OP_LAYOUT("accumulate", accumulate, TYPED, SK_LAY_ACCUMULATE),
	RMA_OP("get_accumulate", get_accumulate, TYPED),
	RMA_OP("fetch_and_op", fetch_and_op, TYPED),
	RMA_OP("compare_and_swap", compare_and_swap, TYPED),
	RMA_OP("rput", rput, 0),
	RMA_OP("rget", rget, 0),
	RMA_OP("raccumulate", raccumulate, TYPED),
	RMA_OP("rget_accumulate", rget_accumulate, TYPED),
	RMA("win_allocate_free", win_allocate_free, COLL | SK_K_OWN_WINDOW, NULL),
	RMA("win_create_free", win_create_free, COLL | SK_K_OWN_WINDOW, NULL),
	RMA("win_create_dynamic_free", win_create_dynamic_free, COLL | SK_K_OWN_WINDOW, NULL),
};
const sk_table sk_rma_table = SK_TABLE(kernels);
