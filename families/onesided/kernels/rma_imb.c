//go:build mpi

/* One-sided kernels of IMB-RMA's patterns that rma.c's one origin and one target do not
 * make: one origin to every other process (One_put_all, Put_all_local and their gets),
 * every process with both ring neighbours (Exchange_put, Exchange_get), and both of a
 * pair origins at once (Bidir_put, Bidir_get; under pscw_epoch, osu_put_bibw). The
 * window is rma.c's (sk_prepare_rma); the one-to-all and ring kernels run under
 * lock_all_flush, MPI_Win_lock_all held through the point as IMB holds its passive
 * epoch, and complete inside each step. */
#include "kernels.h"
#include "sk_common.h"

#define base_of sk_rma_base_of
#define ALWAYS static inline __attribute__((always_inline))

static int window(const sk_ctx *c) { return c->a.window > 0 ? c->a.window : 1; }

/* Block k of target's window (blocks of msg_bytes). */
static MPI_Aint block(const sk_ctx *c, int target, int k) {
	return base_of(c, target) + (MPI_Aint)k * (MPI_Aint)c->a.bytes;
}

/* Our block k of the send buffer (a block per process): where a get lands, so no two
 * gets of a step share an origin buffer. */
static char *mine(const sk_ctx *c, int k) { return c->a.sbuf + (size_t)k * (size_t)c->a.bytes; }

/* One origin (rank 0) puts or gets msg_bytes to or from every other process, then
 * completes them all with MPI_Win_flush_all (remote) or MPI_Win_flush_local_all (at
 * the origin only); the others are passive targets. */
ALWAYS int one_to_all(sk_ctx *c, const int get, const int local) {
	if (c->rank != 0) return MPI_SUCCESS;
	int n = (int)c->a.bytes;
	for (int t = 1; t < c->nprocs; t++) {
		if (get) CK(MPI_Get(mine(c, t), n, MPI_BYTE, t, block(c, t, 0), n, MPI_BYTE, c->win));
		else CK(MPI_Put(c->a.sbuf, n, MPI_BYTE, t, block(c, t, 0), n, MPI_BYTE, c->win));
	}
	return local ? MPI_Win_flush_local_all(c->win) : MPI_Win_flush_all(c->win);
}
/* After the timed loop, outside the time: the targets wait in MPI_Barrier until the
 * origin's loop is done, as IMB's do, so a library whose completion needs the target
 * to progress (MPICH's MPI_Win_flush_all) finds it inside MPI, not back in skampi. */
static int meet(sk_ctx *c) {
	if (c->a.role == SK_ROLE_IDLE || c->comm == MPI_COMM_NULL) return MPI_SUCCESS;
	return MPI_Barrier(c->comm);
}
static int step_put_one_to_all(sk_ctx *c) { return one_to_all(c, 0, 0); }
static int step_put_one_to_all_local(sk_ctx *c) { return one_to_all(c, 0, 1); }
static int step_get_one_to_all(sk_ctx *c) { return one_to_all(c, 1, 0); }
static int step_get_one_to_all_local(sk_ctx *c) { return one_to_all(c, 1, 1); }

/* Every process puts (gets) msg_bytes to (from) the next process of the ring, into its
 * block 0, and to (from) the previous one, into its block 1, then MPI_Win_flush to
 * each: IMB's (2 MPI_Put)/(2 MPI_Win_flush). Two processes: both to the one peer. */
ALWAYS int exchange_ring(sk_ctx *c, const int get) {
	int n = (int)c->a.bytes, next = (c->rank + 1) % c->nprocs, prev = (c->rank + c->nprocs - 1) % c->nprocs;
	if (get) {
		CK(MPI_Get(mine(c, 0), n, MPI_BYTE, next, block(c, next, 1), n, MPI_BYTE, c->win));
		CK(MPI_Get(mine(c, 1), n, MPI_BYTE, prev, block(c, prev, 0), n, MPI_BYTE, c->win));
	} else {
		CK(MPI_Put(c->a.sbuf, n, MPI_BYTE, next, block(c, next, 0), n, MPI_BYTE, c->win));
		CK(MPI_Put(c->a.sbuf, n, MPI_BYTE, prev, block(c, prev, 1), n, MPI_BYTE, c->win));
	}
	CK(MPI_Win_flush(next, c->win));
	return MPI_Win_flush(prev, c->win);
}
static int step_put_exchange_ring(sk_ctx *c) { return exchange_ring(c, 0); }
static int step_get_exchange_ring(sk_ctx *c) { return exchange_ring(c, 1); }

/* Both of a pair are origins at once: each opens its epoch on the other, puts (gets) a
 * window of msg_bytes, and closes it, under the mode. pscw_epoch is osu_put_bibw's
 * epoch: each posts, starts, operates, completes, waits. The ping-pong modes have no
 * meaning here (both already go at once). */
ALWAYS int bidirectional(sk_ctx *c, const int get, const int sync) {
	int peer = c->rma_peer, n = (int)c->a.bytes, w = window(c);
	switch (sync) {
	case SK_SYNC_PSCW_EPOCH:
		CK(MPI_Win_post(c->peer_group, 0, c->win));
		CK(MPI_Win_start(c->peer_group, 0, c->win));
		break;
	case SK_SYNC_LOCK_EXCLUSIVE:
	case SK_SYNC_LOCK_SHARED:
		CK(MPI_Win_lock(sync == SK_SYNC_LOCK_EXCLUSIVE ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, peer, 0, c->win));
		break;
	case SK_SYNC_LOCK_ALL_EPOCH:
		CK(MPI_Win_lock_all(0, c->win));
		break;
	}
	for (int i = 0; i < w; i++) {
		MPI_Aint d = c->rma_base + (MPI_Aint)i * (MPI_Aint)c->a.slot_stride;
		if (get) CK(MPI_Get(c->result_buf + (size_t)i * (size_t)c->span, n, MPI_BYTE, peer, d, n, MPI_BYTE, c->win));
		else CK(MPI_Put(c->a.sbuf, n, MPI_BYTE, peer, d, n, MPI_BYTE, c->win));
	}
	switch (sync) {
	case SK_SYNC_FENCE_EPOCH:
		return MPI_Win_fence(0, c->win);
	case SK_SYNC_PSCW_EPOCH:
		CK(MPI_Win_complete(c->win));
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

/* The modes a bidirectional kernel has (families/onesided/ops_imb.go offers the same). */
#define BIDIR_MODES(X, NAME, GET)                                                                                 \
	X(NAME, GET, SK_SYNC_FENCE_EPOCH)                                                                             \
	X(NAME, GET, SK_SYNC_PSCW_EPOCH)                                                                              \
	X(NAME, GET, SK_SYNC_LOCK_EXCLUSIVE)                                                                          \
	X(NAME, GET, SK_SYNC_LOCK_SHARED)                                                                             \
	X(NAME, GET, SK_SYNC_LOCK_ALL_FLUSH)                                                                          \
	X(NAME, GET, SK_SYNC_LOCK_ALL_FLUSH_LOCAL)                                                                    \
	X(NAME, GET, SK_SYNC_SHARED_FLUSH)                                                                            \
	X(NAME, GET, SK_SYNC_SHARED_FLUSH_LOCAL)                                                                      \
	X(NAME, GET, SK_SYNC_LOCK_ALL_EPOCH)
#define BIDIR_STEP(NAME, GET, SYNC) \
	static int bidir_##NAME##_##SYNC(sk_ctx *c) { return bidirectional(c, GET, SYNC); }
#define BIDIR_CELL(NAME, GET, SYNC) [SYNC] = bidir_##NAME##_##SYNC,
#define BIDIR_OP(NAME, GET)              \
	BIDIR_MODES(BIDIR_STEP, NAME, GET) \
	static const sk_step bidir_##NAME##_modes[SK_SYNC_COUNT] = {BIDIR_MODES(BIDIR_CELL, NAME, GET)};
BIDIR_OP(put, 0)
BIDIR_OP(get, 1)

/* rma.c holds OSU's flush lock (shared, on the peer, through the point) on the origin
 * only: here both are origins. */
static int prepare_bidirectional(sk_ctx *c) {
	CK(sk_prepare_rma(c));
	if ((c->mode == SK_SYNC_SHARED_FLUSH || c->mode == SK_SYNC_SHARED_FLUSH_LOCAL) && !c->locked_peer) {
		CK(MPI_Win_lock(MPI_LOCK_SHARED, c->rma_peer, 0, c->win));
		c->locked_peer = 1;
	}
	return MPI_SUCCESS;
}

#define PER_PROCESS (COLL | SK_K_PER_PROCESS_WINDOW)
#define BIDIR(name_, NAME)                                                                                    \
	{.name = (name_), .prepare = prepare_bidirectional, .flags = 0, .close = sk_close_rma, .mode = "flush", \
	 .by_mode = bidir_##NAME##_modes}

#define ONE_TO_ALL(name_, step_)                                                                 \
	{.name = (name_), .step = (step_), .prepare = sk_prepare_rma, .flags = COLL, .close = sk_close_rma, \
	 .quiesce = meet, .mode = "lock_all_flush"}

/* The kernels of this file (tables.c joins the tables). */
static const sk_kernel kernels[] = {
	ONE_TO_ALL("put_one_to_all", step_put_one_to_all),
	ONE_TO_ALL("put_one_to_all_local", step_put_one_to_all_local),
	ONE_TO_ALL("get_one_to_all", step_get_one_to_all),
	ONE_TO_ALL("get_one_to_all_local", step_get_one_to_all_local),
	RMA("put_exchange_ring", step_put_exchange_ring, PER_PROCESS, "lock_all_flush"),
	RMA("get_exchange_ring", step_get_exchange_ring, PER_PROCESS, "lock_all_flush"),
	BIDIR("put_bidirectional", put),
	BIDIR("get_bidirectional", get),
};
const sk_table sk_rma_imb_table = SK_TABLE(kernels);
