//go:build mpi

/* One-sided communication (named in kernels.c). A kernel is an RMA operation under a
 * synchronisation mode (the operation's timing methods): one step is one access epoch
 * of `window` operations to the peer, completed inside the timing (the method paper:
 * a put is done when its completion call returns, not when MPI_Put does). The window
 * is created once per point (sk_prepare_rma) from MPI_Win_allocate, MPI_Win_create or
 * MPI_Win_create_dynamic, and freed collectively by sk_close_rma.
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
#include "sk_common.h"

static int origin(const sk_ctx *c) { return c->a.role == SK_ROLE_INITIATOR; }

MPI_Aint sk_rma_base_of(const sk_ctx *c, int r) { return c->rma_bases ? c->rma_bases[r] : 0; }
#define base_of sk_rma_base_of

/* Where operation i of an epoch lands in the target's window: its slot, or the one
 * slot the window shares (recv_slots), from the target's base (dynamic windows). */
static MPI_Aint disp(const sk_ctx *c, int i) { return c->rma_base + (MPI_Aint)i * (MPI_Aint)c->a.slot_stride; }

/* The operations: origin data from sbuf, results (get, fetch) into c->result_buf.
 * Inlined with constant op and mode into one step function per pair (epochs[][] below),
 * so the timed loop of a put under lock_all is MPI_Put and MPI_Win_flush and nothing
 * else: a C loop's, as bench/ref_rma.c checks. */
static inline __attribute__((always_inline)) int rma_op(sk_ctx *c, const int op, int i, MPI_Request *req) {
	const sk_args *a = &c->a;
	int n = a->bytes, peer = c->rma_peer;
	char *res = c->result_buf + (size_t)i * (size_t)n; /* results never share a buffer */
	switch (op) {
	case SK_RMA_PUT:
	case SK_RMA_PUT_PINGPONG:
		return MPI_Put(a->sbuf, n, MPI_BYTE, peer, disp(c, i), n, MPI_BYTE, c->win);
	case SK_RMA_GET:
		return MPI_Get(res, n, MPI_BYTE, peer, disp(c, i), n, MPI_BYTE, c->win);
	case SK_RMA_ACC:
		return MPI_Accumulate(a->sbuf, c->count, c->dt, peer, disp(c, i), c->count, c->dt, c->op, c->win);
	case SK_RMA_GET_ACC:
		return MPI_Get_accumulate(a->sbuf, c->count, c->dt, res, c->count, c->dt, peer, disp(c, i), c->count, c->dt,
		                          c->op, c->win);
	case SK_RMA_FOP:
		return MPI_Fetch_and_op(a->sbuf, res, c->dt, peer, disp(c, i), c->op, c->win);
	case SK_RMA_CAS: /* compare with what is there (0 at first), swap in ours */
		return MPI_Compare_and_swap(a->sbuf, c->compare_buf, res, c->dt, peer, disp(c, i), c->win);
	case SK_RMA_RPUT:
		return MPI_Rput(a->sbuf, n, MPI_BYTE, peer, disp(c, i), n, MPI_BYTE, c->win, req);
	case SK_RMA_RGET:
		return MPI_Rget(res, n, MPI_BYTE, peer, disp(c, i), n, MPI_BYTE, c->win, req);
	}
	return SK_ERR_KERNEL;
}

static inline __attribute__((always_inline)) int ops(sk_ctx *c, const int op) {
	int w = c->a.window > 0 ? c->a.window : 1;
	for (int i = 0; i < w; i++) CK(rma_op(c, op, i, &c->req[i]));
	if (op == SK_RMA_RPUT || op == SK_RMA_RGET) /* local completion: part of the operation */
		CK(MPI_Waitall(w, c->req, MPI_STATUSES_IGNORE));
	return MPI_SUCCESS;
}

/* The origin's step: open, the operations, close. */
static inline __attribute__((always_inline)) int origin_epoch(sk_ctx *c, const int op, const int sync) {
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
	CK(ops(c, op));
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
static inline __attribute__((always_inline)) int target_epoch(sk_ctx *c, const int op, const int sync) {
	switch (sync) {
	case SK_SYNC_FENCE_EPOCH:
		return MPI_Win_fence(0, c->win);
	case SK_SYNC_PSCW_EPOCH:
		CK(MPI_Win_post(c->peer_group, 0, c->win));
		return MPI_Win_wait(c->win);
	case SK_SYNC_FENCE_PINGPONG:
		CK(MPI_Win_fence(0, c->win));
		CK(MPI_Win_fence(0, c->win));
		CK(ops(c, op));
		return MPI_Win_fence(0, c->win);
	case SK_SYNC_PSCW_PINGPONG:
		CK(MPI_Win_post(c->peer_group, 0, c->win));
		CK(MPI_Win_wait(c->win));
		CK(MPI_Win_start(c->peer_group, 0, c->win));
		CK(ops(c, op));
		return MPI_Win_complete(c->win);
	}
	return MPI_SUCCESS;
}

/* One step function per operation and mode, the switches folded away. */
#define EPOCH(OP, SYNC) \
	static int epoch_##OP##_##SYNC(sk_ctx *c) { return origin(c) ? origin_epoch(c, OP, SYNC) : target_epoch(c, OP, SYNC); }
#define EPOCHS(OP)                                                                                                \
	EPOCH(OP, SK_SYNC_FENCE_EPOCH)                                                                                \
	EPOCH(OP, SK_SYNC_PSCW_EPOCH)                                                                                 \
	EPOCH(OP, SK_SYNC_LOCK_EXCLUSIVE)                                                                             \
	EPOCH(OP, SK_SYNC_LOCK_SHARED)                                                                                \
	EPOCH(OP, SK_SYNC_LOCK_ALL_FLUSH)                                                                             \
	EPOCH(OP, SK_SYNC_LOCK_ALL_FLUSH_LOCAL)                                                                       \
	EPOCH(OP, SK_SYNC_SHARED_FLUSH)                                                                               \
	EPOCH(OP, SK_SYNC_SHARED_FLUSH_LOCAL)                                                                         \
	EPOCH(OP, SK_SYNC_LOCK_ALL_EPOCH) EPOCH(OP, SK_SYNC_FENCE_PINGPONG) EPOCH(OP, SK_SYNC_PSCW_PINGPONG)
EPOCHS(SK_RMA_PUT)
EPOCHS(SK_RMA_GET)
EPOCHS(SK_RMA_ACC)
EPOCHS(SK_RMA_GET_ACC)
EPOCHS(SK_RMA_FOP)
EPOCHS(SK_RMA_CAS)
EPOCHS(SK_RMA_RPUT)
EPOCHS(SK_RMA_RGET)
#define CELL(OP, SYNC) [SYNC] = epoch_##OP##_##SYNC
#define ROW(OP)                                                                                                   \
	[OP] = {CELL(OP, SK_SYNC_FENCE_EPOCH),          CELL(OP, SK_SYNC_PSCW_EPOCH),        CELL(OP, SK_SYNC_LOCK_EXCLUSIVE), \
	        CELL(OP, SK_SYNC_LOCK_SHARED),          CELL(OP, SK_SYNC_LOCK_ALL_FLUSH),    CELL(OP, SK_SYNC_LOCK_ALL_FLUSH_LOCAL), \
	        CELL(OP, SK_SYNC_SHARED_FLUSH),         CELL(OP, SK_SYNC_SHARED_FLUSH_LOCAL), CELL(OP, SK_SYNC_LOCK_ALL_EPOCH), \
	        CELL(OP, SK_SYNC_FENCE_PINGPONG),       CELL(OP, SK_SYNC_PSCW_PINGPONG)}
static const sk_step epochs[SK_RMA_PUT_PINGPONG][SK_SYNC_COUNT] = {
	ROW(SK_RMA_PUT), ROW(SK_RMA_GET), ROW(SK_RMA_ACC), ROW(SK_RMA_GET_ACC),
	ROW(SK_RMA_FOP), ROW(SK_RMA_CAS), ROW(SK_RMA_RPUT), ROW(SK_RMA_RGET),
};

/* The table's step for an operation under a mode: what sk_prepare_rma specialises. */
int sk_step_rma(sk_ctx *c) { return epochs[c->k->rma_op][c->k->rma_mode](c); }

/* Window creation, collective, of size bytes per process. Errors on the window are
 * returned, as on skampi's communicators, not fatal: a point that fails is a fault. */
static int create_window(sk_ctx *c, int kind, MPI_Aint size, MPI_Win *win, char **base) {
	switch (kind) {
	case SK_WIN_CREATE:
		*base = c->a.rbuf;
		CK(MPI_Win_create(c->a.rbuf, size, 1, MPI_INFO_NULL, c->comm, win));
		break;
	case SK_WIN_DYNAMIC:
		*base = c->a.rbuf;
		CK(MPI_Win_create_dynamic(MPI_INFO_NULL, c->comm, win));
		CK(MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN));
		return MPI_Win_attach(*win, c->a.rbuf, size > 0 ? size : 1);
	default:
		CK(MPI_Win_allocate(size, 1, MPI_INFO_NULL, c->comm, base, win));
	}
	return MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN);
}

static int free_window(int kind, MPI_Win *win, char *base) {
	if (kind == SK_WIN_DYNAMIC) CK(MPI_Win_detach(*win, base));
	return MPI_Win_free(win);
}

/* A window of exactly msg_bytes per process, created and freed. */
int sk_step_win_create_free(sk_ctx *c) {
	MPI_Win w;
	char *base;
	int kind = c->k->rma_mode; /* for these kernels: the kind of window */
	CK(create_window(c, kind, (MPI_Aint)c->a.bytes, &w, &base));
	return free_window(kind, &w, base);
}

/* Preparation: the window, its groups and base addresses, the mode's opening call. */
int sk_prepare_rma(sk_ctx *c) {
	const sk_args *a = &c->a;
	int w = a->window > 0 ? a->window : 1;
	size_t slots = a->slot_stride > 0 ? (size_t)w : 1;
	int transposes = c->k->step == sk_step_transpose_put || c->k->step == sk_step_transpose_get;
	size_t per_process = transposes ? (size_t)c->nprocs : 1;
	/* The data, and 64 bytes past it for a flag (the ping-pong's, in the last byte). */
	c->win_bytes = (long long)((size_t)a->bytes * slots * per_process) + SK_RMA_SPARE;
	c->flag_off = c->win_bytes - 1;
	c->rma_peer = c->nprocs == 2 ? 1 - c->rank : 0;
	if (!(c->result_buf = calloc(1, (size_t)a->bytes * (size_t)w + 64))) return SK_ERR_NOMEM;
	if (!(c->compare_buf = calloc(1, 64))) return SK_ERR_NOMEM;
	if (c->k->step == sk_step_rma) c->step = epochs[c->k->rma_op][c->k->rma_mode];
	if (c->k->step == sk_step_win_create_free) return MPI_SUCCESS; /* creates its own */
	int kind = a->rma_window;
	CK(create_window(c, kind, (MPI_Aint)c->win_bytes, &c->win, &c->wbase));
	c->have_win = 1;
	if (c->k->flags & SK_K_UNIFIED) { /* polls or stores into window memory directly */
		int *model, found = 0;
		CK(MPI_Win_get_attr(c->win, MPI_WIN_MODEL, &model, &found));
		if (!found || *model != MPI_WIN_UNIFIED) return SK_ERR_MODEL;
	}
	memset(c->wbase, 0, (size_t)c->win_bytes);
	if (kind == SK_WIN_DYNAMIC) { /* the others' base addresses, for their displacements */
		MPI_Aint mine;
		if (!(c->rma_bases = malloc(sizeof(MPI_Aint) * (size_t)c->nprocs))) return SK_ERR_NOMEM;
		CK(MPI_Get_address(c->wbase, &mine));
		CK(MPI_Allgather(&mine, 1, MPI_AINT, c->rma_bases, 1, MPI_AINT, c->comm));
	}
	c->rma_base = base_of(c, c->rma_peer);
	MPI_Group g;
	CK(MPI_Comm_group(c->comm, &g));
	int peer = c->rma_peer;
	int rc = MPI_Group_incl(g, 1, &peer, &c->peer_group);
	MPI_Group_free(&g);
	CK(rc);
	c->have_group = 1;
	/* Everyone's window is zeroed before anyone accesses it. */
	CK(MPI_Barrier(c->comm));
	switch (c->k->rma_mode) {
	case SK_SYNC_FENCE_EPOCH:
		CK(MPI_Win_fence(0, c->win)); /* opens the first epoch */
		break;
	case SK_SYNC_LOCK_ALL_FLUSH:
	case SK_SYNC_LOCK_ALL_FLUSH_LOCAL:
		CK(MPI_Win_lock_all(0, c->win));
		c->locked_all = 1;
		break;
	case SK_SYNC_SHARED_FLUSH:
	case SK_SYNC_SHARED_FLUSH_LOCAL: /* OSU's flush: a shared lock on the target, held */
		if (origin(c)) {
			CK(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, c->win));
			c->locked_peer = 1;
		}
		break;
	case SK_SYNC_FENCE_PINGPONG:
	case SK_SYNC_PSCW_PINGPONG: /* a step is an epoch each way: time per epoch, as OSU halves */
		c->calls_per_step = 2;
		break;
	}
	return MPI_SUCCESS;
}

/* sk_close_rma ends the open epoch and frees the window, collectively. */
int sk_close_rma(sk_ctx *c) {
	int rc = MPI_SUCCESS;
	if (c->locked_all) {
		rc = MPI_Win_unlock_all(c->win);
		c->locked_all = 0;
	}
	if (c->locked_peer) {
		rc = MPI_Win_unlock(c->rma_peer, c->win);
		c->locked_peer = 0;
	}
	int fenced = c->k->rma_mode == SK_SYNC_FENCE_EPOCH || c->k->rma_mode == SK_SYNC_FENCE_PINGPONG;
	if (c->have_win) {
		if (fenced && rc == MPI_SUCCESS) rc = MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win);
		int frc = free_window(c->a.rma_window, &c->win, c->wbase);
		if (rc == MPI_SUCCESS) rc = frc;
		c->have_win = 0;
	}
	if (c->have_group) {
		MPI_Group_free(&c->peer_group);
		c->have_group = 0;
	}
	return rc;
}

/* The communication of a block-row distributed transpose: block j of every rank goes
 * to rank j, as block i there (the local transposition of each block is not timed).
 * In this file, not rma_calls.c, because sk_prepare_rma names them to give their
 * windows a block per process: rma_calls.c depends on rma.c, never the reverse.
 * put: each rank puts its blocks into the others' windows; get: each gets its blocks
 * from the others' windows. A fence closes the step. */
static int transpose(sk_ctx *c, int get) {
	size_t b = (size_t)c->a.bytes;
	for (int k = 1; k < c->nprocs; k++) {
		int j = (c->rank + k) % c->nprocs; /* staggered, so no target gets everyone at once */
		if (get)
			CK(MPI_Get(c->a.sbuf + (size_t)j * b, (int)b, MPI_BYTE, j, base_of(c, j) + (MPI_Aint)((size_t)c->rank * b),
			           (int)b, MPI_BYTE, c->win));
		else
			CK(MPI_Put(c->a.sbuf + (size_t)j * b, (int)b, MPI_BYTE, j, base_of(c, j) + (MPI_Aint)((size_t)c->rank * b),
			           (int)b, MPI_BYTE, c->win));
	}
	return MPI_Win_fence(0, c->win);
}
int sk_step_transpose_put(sk_ctx *c) { return transpose(c, 0); }
int sk_step_transpose_get(sk_ctx *c) { return transpose(c, 1); }
