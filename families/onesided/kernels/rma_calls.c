//go:build mpi

/* One-sided kernels beside the operations under a mode (rma.c, whose window they run
 * on): the one-sided ping-pong, the synchronisation calls alone. */
#include "kernels.h"
#include "sk_common.h"

#define base_of sk_rma_base_of

static int origin(const sk_ctx *c) { return c->a.role == SK_ROLE_INITIATOR; }

/* The one-sided ping-pong: the origin puts, the target sees it and puts back.
 * fence_epoch: put, fence; the target's put, fence (both take part in both fences).
 * lock_all_flush: MPI_Win_lock_all held through the point; the data, a flush, then a
 * flag put and flushed; the other side spins on its flag in its own window memory
 * (MPI_Win_sync, the unified model), then replies the same way. */
static volatile char *flag_of(sk_ctx *c) { return (volatile char *)(c->wbase + c->flag_off); }

static int put_flagged(sk_ctx *c) {
	int peer = c->rma_peer;
	CK(MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, peer, c->rma_base, c->a.bytes, MPI_BYTE, c->win));
	CK(MPI_Win_flush(peer, c->win));
	c->flag_value++;
	CK(MPI_Put(&c->flag_value, 1, MPI_BYTE, peer, c->rma_base + c->flag_off, 1, MPI_BYTE, c->win));
	return MPI_Win_flush(peer, c->win);
}

static int wait_flag(sk_ctx *c) {
	char want = (char)(c->flag_seen + 1);
	int any;
	/* MPI_Win_sync makes the memory current; it need not progress the library, and
	 * puts into a created or dynamic window here arrive only when something does (a
	 * spin on MPI_Win_sync alone never ends): MPI_Iprobe drives the progress engine,
	 * every 64th poll, so where the data lands directly the spin stays cheap. */
	for (unsigned n = 1; *flag_of(c) != want; n++) {
		CK(MPI_Win_sync(c->win));
		if (n % 64 == 0) CK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c->comm, &any, MPI_STATUS_IGNORE));
	}
	c->flag_seen = want;
	return MPI_SUCCESS;
}

static int sk_step_put_pingpong(sk_ctx *c) {
	int peer = c->rma_peer;
	if (c->mode == SK_SYNC_FENCE_EPOCH) {
		if (origin(c)) CK(MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, peer, c->rma_base, c->a.bytes, MPI_BYTE, c->win));
		CK(MPI_Win_fence(0, c->win));
		if (!origin(c)) CK(MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, peer, c->rma_base, c->a.bytes, MPI_BYTE, c->win));
		return MPI_Win_fence(0, c->win);
	}
	if (origin(c)) {
		CK(put_flagged(c));
		return wait_flag(c);
	}
	CK(wait_flag(c));
	return put_flagged(c);
}

/* The synchronisation calls alone. An empty epoch is what a lazy MPI may skip: MPICH
 * asks for a lock only with the epoch's first operation, and an origin's empty
 * MPI_Win_start ... MPI_Win_complete need not wait for the target's post. The forms with
 * one 1-byte MPI_Get inside cannot be skipped: its data comes back from the target,
 * under the lock or after the post. */
static int sk_step_win_fence(sk_ctx *c) { return MPI_Win_fence(0, c->win); }

static int get1(sk_ctx *c) {
	return MPI_Get(c->result_buf, 1, MPI_BYTE, c->rma_peer, c->rma_base, 1, MPI_BYTE, c->win);
}

static int pscw(sk_ctx *c, int get) {
	if (origin(c)) {
		CK(MPI_Win_start(c->peer_group, 0, c->win));
		if (get) CK(get1(c));
		return MPI_Win_complete(c->win);
	}
	CK(MPI_Win_post(c->peer_group, 0, c->win));
	return MPI_Win_wait(c->win);
}
static int sk_step_win_pscw(sk_ctx *c) { return pscw(c, 0); }
static int sk_step_win_pscw_get(sk_ctx *c) { return pscw(c, 1); }

static int lock_type(const sk_ctx *c) { return c->mode == SK_SYNC_LOCK_SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE; }

static int sk_step_win_lock_unlock(sk_ctx *c) {
	if (!origin(c)) return MPI_SUCCESS;
	CK(MPI_Win_lock(lock_type(c), c->rma_peer, 0, c->win));
	return MPI_Win_unlock(c->rma_peer, c->win);
}

static int sk_step_win_lock_get_unlock(sk_ctx *c) {
	if (!origin(c)) return MPI_SUCCESS;
	CK(MPI_Win_lock(lock_type(c), c->rma_peer, 0, c->win));
	CK(get1(c));
	return MPI_Win_unlock(c->rma_peer, c->win);
}

/* MPI_Win_lock and MPI_Win_unlock each timed alone (SK_K_OWN_RESULT: one timer pair
 * around the one call, the rest of the step untimed), in an epoch with a 1-byte get
 * and a flush, so the lock is really taken before the unlock. A lazy MPI's
 * MPI_Win_lock returns at once and takes the lock with the get, outside the time. */
static int sk_step_win_lock(sk_ctx *c) {
	if (!origin(c)) return MPI_SUCCESS;
	double t0 = sk_now();
	CK(MPI_Win_lock(lock_type(c), c->rma_peer, 0, c->win));
	c->result += sk_now() - t0;
	CK(get1(c));
	CK(MPI_Win_flush(c->rma_peer, c->win));
	return MPI_Win_unlock(c->rma_peer, c->win);
}

static int sk_step_win_unlock(sk_ctx *c) {
	if (!origin(c)) return MPI_SUCCESS;
	CK(MPI_Win_lock(lock_type(c), c->rma_peer, 0, c->win));
	CK(get1(c));
	CK(MPI_Win_flush(c->rma_peer, c->win));
	double t0 = sk_now();
	int rc = MPI_Win_unlock(c->rma_peer, c->win);
	c->result += sk_now() - t0;
	return rc;
}

static int sk_step_win_flush(sk_ctx *c) { return origin(c) ? MPI_Win_flush(c->rma_peer, c->win) : MPI_SUCCESS; }
static int sk_step_win_flush_all(sk_ctx *c) { return origin(c) ? MPI_Win_flush_all(c->win) : MPI_SUCCESS; }

/* The communication of a block-row distributed transpose: block j of every rank goes
 * to rank j, as block i there (the local transposition of each block is not timed).
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
static int sk_step_transpose_put(sk_ctx *c) { return transpose(c, 0); }
static int sk_step_transpose_get(sk_ctx *c) { return transpose(c, 1); }

/* The kernels of this file (tables.c joins the tables), each on a window prepared by
 * rma.c; the mode named is the kernel's when its method names none. */
static const sk_kernel kernels[] = {
	/* methods fence_epoch and lock_all_flush; lock_all_flush polls window memory */
	RMA("put_pingpong", sk_step_put_pingpong, SK_K_UNIFIED, "lock_all_flush"),
	RMA("win_fence", sk_step_win_fence, COLL, NULL),
	RMA("win_pscw", sk_step_win_pscw, 0, NULL),
	RMA("win_pscw_get", sk_step_win_pscw_get, 0, NULL),
	/* methods exclusive and shared */
	RMA("win_lock_unlock", sk_step_win_lock_unlock, 0, "exclusive"),
	RMA("win_lock_get_unlock", sk_step_win_lock_get_unlock, 0, "exclusive"),
	RMA("win_lock", sk_step_win_lock, SK_K_OWN_RESULT, "exclusive"),
	RMA("win_unlock", sk_step_win_unlock, SK_K_OWN_RESULT, "exclusive"),
	RMA("win_flush", sk_step_win_flush, 0, "lock_all_flush"),
	RMA("win_flush_all", sk_step_win_flush_all, 0, "lock_all_flush"),
	RMA("transpose_put", sk_step_transpose_put, COLL | SK_K_PER_PROCESS_WINDOW, "fence_epoch"),
	RMA("transpose_get", sk_step_transpose_get, COLL | SK_K_PER_PROCESS_WINDOW, "fence_epoch"),
};
const sk_table sk_rma_calls_table = SK_TABLE(kernels);
