//go:build mpi

/* The synchronisation calls timed apart, some with a late partner, and the RMA calls
 * alone (SKaMPI's Win_fence_open, Win_start_delayed_post, Win_wait_early_complete,
 * Put, Get_callduration, ...). Each step times one call (SK_K_OWN_RESULT: a timer pair
 * around it, the rest of the epoch untimed), on the window rma.c prepares. The late
 * partner computes c->late_spin iterations of the calibrated spin (spin.c; the setting
 * delay) before its call. A step's epoch is complete when it returns, so the next
 * step's late partner is late by the delay again. */
#include "kernels.h"
#include "sk_common.h"

static int origin(const sk_ctx *c) { return c->a.role == SK_ROLE_INITIATOR; }

/* Adds the time of one call to the step's result. */
#define TIMED(c, call)                                  \
	do {                                                \
		double t0_ = sk_now();                          \
		int rc_ = (call);                               \
		(c)->result += sk_now() - t0_;                  \
		if (rc_ != MPI_SUCCESS) return rc_;             \
	} while (0)

static void late(sk_ctx *c) {
	if (c->late_spin > 0) sk_spin(c->late_spin);
}

/* msg_bytes to the next rank's window (a ring, so no two ranks write one place). */
static int put_next(sk_ctx *c) {
	int to = (c->rank + 1) % c->nprocs;
	return MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, to, sk_rma_base_of(c, to), c->a.bytes, MPI_BYTE, c->win);
}

/* Fence: every rank. open: the opening fence (MPI_MODE_NOPRECEDE) of an empty epoch.
 * close: a put to the next rank, then the closing fence (MPI_MODE_NOSUCCEED).
 * close_delayed: the same with every rank computing for delay between its put and the
 * close, as SKaMPI's Win_fence_close_delayed: whether the puts progressed meanwhile. */
static int fence(sk_ctx *c, int timed_open, int delayed) {
	if (timed_open)
		TIMED(c, MPI_Win_fence(MPI_MODE_NOPRECEDE, c->win));
	else
		CK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->win));
	if (timed_open) return MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win);
	CK(put_next(c));
	if (delayed) late(c);
	TIMED(c, MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win));
	return MPI_SUCCESS;
}
static int sk_step_win_fence_open(sk_ctx *c) { return fence(c, 1, 0); }
static int sk_step_win_fence_close(sk_ctx *c) { return fence(c, 0, 0); }
static int sk_step_win_fence_close_delayed(sk_ctx *c) { return fence(c, 0, 1); }

/* Fence_close_collective: every rank but 0 puts msg_bytes into its own block of rank
 * 0's window (SK_K_PER_PROCESS_WINDOW), then the closing fence timed on every process:
 * the fence when all the data converges on one process, as SKaMPI's
 * Win_fence_close_collective. */
static int sk_step_win_fence_close_collective(sk_ctx *c) {
	CK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->win));
	if (c->rank != 0) {
		MPI_Aint at = sk_rma_base_of(c, 0) + (MPI_Aint)c->rank * (MPI_Aint)c->a.bytes;
		CK(MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, 0, at, c->a.bytes, MPI_BYTE, c->win));
	}
	TIMED(c, MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win));
	return MPI_SUCCESS;
}

/* Caching: rank 0 puts msg_bytes to every other rank, computes for delay, then its
 * closing fence is timed (the others' fences untimed, as SKaMPI returns rank 0's): a
 * fence that costs less than the puts' transfer time after a delay shows the puts
 * progressed meanwhile; one that still pays for them shows the MPI deferred them. */
static int sk_step_caching(sk_ctx *c) {
	CK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->win));
	if (c->rank != 0) return MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win);
	for (int r = 1; r < c->nprocs; r++)
		CK(MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, r, sk_rma_base_of(c, r), c->a.bytes, MPI_BYTE, c->win));
	late(c);
	TIMED(c, MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win));
	return MPI_SUCCESS;
}

/* `window` puts of msg_bytes to rank to, each into its own slot when recv_slots is
 * per-message, else into the one slot they share (as Put's window). */
static int puts_to(sk_ctx *c, int to) {
	int w = c->a.window > 0 ? c->a.window : 1;
	for (int i = 0; i < w; i++) {
		MPI_Aint at = sk_rma_base_of(c, to) + (c->a.slot_stride > 0 ? (MPI_Aint)i * (MPI_Aint)c->a.bytes : 0);
		CK(MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, to, at, c->a.bytes, MPI_BYTE, c->win));
	}
	return MPI_SUCCESS;
}

/* Combining_Put_fence: rank 0 puts `window` messages of msg_bytes to rank 1, then the
 * closing fence, timed on every process: whether the MPI combines many small puts
 * into fewer transfers (the fence of 64 puts of 8 bytes against one put of 512). */
static int sk_step_combining_put_fence(sk_ctx *c) {
	CK(MPI_Win_fence(MPI_MODE_NOPRECEDE, c->win));
	if (c->rank == 0) CK(puts_to(c, 1));
	TIMED(c, MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win));
	return MPI_SUCCESS;
}

/* Post-start-complete-wait on the pair; the origin puts msg_bytes into the target's
 * window. Which call is timed, and who is late, by kernel. */
enum { T_START, T_POST, T_COMPLETE, T_WAIT_LATE, T_WAIT_EARLY, T_TEST, T_COMPLETE_N };

static int put_peer(sk_ctx *c) {
	return MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, c->rma_peer, c->rma_base, c->a.bytes, MPI_BYTE, c->win);
}

static int pscw_origin(sk_ctx *c, int what) {
	if (what == T_START)
		TIMED(c, MPI_Win_start(c->peer_group, 0, c->win));
	else
		CK(MPI_Win_start(c->peer_group, 0, c->win));
	if (what == T_COMPLETE_N)
		CK(puts_to(c, c->rma_peer));
	else
		CK(put_peer(c));
	if (what == T_WAIT_LATE || what == T_TEST || what == T_COMPLETE_N) late(c);
	if (what == T_COMPLETE || what == T_COMPLETE_N)
		TIMED(c, MPI_Win_complete(c->win));
	else
		CK(MPI_Win_complete(c->win));
	return MPI_SUCCESS;
}

static int pscw_target(sk_ctx *c, int what) {
	if (what == T_START) late(c);
	if (what == T_POST)
		TIMED(c, MPI_Win_post(c->peer_group, 0, c->win));
	else
		CK(MPI_Win_post(c->peer_group, 0, c->win));
	if (what == T_COMPLETE || what == T_WAIT_EARLY) late(c);
	if (what == T_TEST) {
		int flag = 0;
		TIMED(c, MPI_Win_test(c->win, &flag));
		return flag ? MPI_SUCCESS : MPI_Win_wait(c->win);
	}
	if (what == T_WAIT_LATE || what == T_WAIT_EARLY)
		TIMED(c, MPI_Win_wait(c->win));
	else
		CK(MPI_Win_wait(c->win));
	return MPI_SUCCESS;
}

static int pscw(sk_ctx *c, int what) { return origin(c) ? pscw_origin(c, what) : pscw_target(c, what); }
static int sk_step_win_start(sk_ctx *c) { return pscw(c, T_START); }
static int sk_step_win_post(sk_ctx *c) { return pscw(c, T_POST); }
static int sk_step_win_complete(sk_ctx *c) { return pscw(c, T_COMPLETE); }
static int sk_step_win_wait_late_complete(sk_ctx *c) { return pscw(c, T_WAIT_LATE); }
static int sk_step_win_wait_early_complete(sk_ctx *c) { return pscw(c, T_WAIT_EARLY); }
static int sk_step_win_test(sk_ctx *c) { return pscw(c, T_TEST); }
static int sk_step_win_complete_n(sk_ctx *c) { return pscw(c, T_COMPLETE_N); }

/* MPI_Win_lock of a target that computes for delay in each step (its own library is
 * not called meanwhile): the origin's lock, timed, then a 1-byte get, a flush and the
 * unlock, untimed, so the lock is really taken. */
static int sk_step_win_lock_desync(sk_ctx *c) {
	if (!origin(c)) {
		late(c);
		return MPI_SUCCESS;
	}
	int type = c->mode == SK_SYNC_LOCK_SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
	TIMED(c, MPI_Win_lock(type, c->rma_peer, 0, c->win));
	CK(MPI_Get(c->result_buf, 1, MPI_BYTE, c->rma_peer, c->rma_base, 1, MPI_BYTE, c->win));
	CK(MPI_Win_flush(c->rma_peer, c->win));
	return MPI_Win_unlock(c->rma_peer, c->win);
}

/* The MPI_Put or MPI_Get call alone, inside a fence epoch (the mode fence_epoch: rma.c
 * opens the first); the fence that completes it, untimed, opens the next. */
static int sk_step_put_callduration(sk_ctx *c) {
	if (origin(c)) TIMED(c, put_peer(c));
	return MPI_Win_fence(0, c->win);
}
static int sk_step_get_callduration(sk_ctx *c) {
	if (origin(c))
		TIMED(c, MPI_Get(c->result_buf, c->a.bytes, MPI_BYTE, c->rma_peer, c->rma_base, c->a.bytes, MPI_BYTE,
		                 c->win));
	return MPI_Win_fence(0, c->win);
}

/* MPI_Win_create over msg_bytes of each process, and MPI_Win_free, each timed apart. */
static int create_free(sk_ctx *c, int timed_create) {
	MPI_Win w;
	if (timed_create)
		TIMED(c, MPI_Win_create(c->a.rbuf, (MPI_Aint)c->a.bytes, 1, MPI_INFO_NULL, c->comm, &w));
	else
		CK(MPI_Win_create(c->a.rbuf, (MPI_Aint)c->a.bytes, 1, MPI_INFO_NULL, c->comm, &w));
	int rc = MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
	if (timed_create) {
		int frc = MPI_Win_free(&w);
		return rc != MPI_SUCCESS ? rc : frc;
	}
	if (rc != MPI_SUCCESS) {
		MPI_Win_free(&w);
		return rc;
	}
	TIMED(c, MPI_Win_free(&w));
	return MPI_SUCCESS;
}
static int sk_step_win_create(sk_ctx *c) { return create_free(c, 1); }
static int sk_step_win_free(sk_ctx *c) { return create_free(c, 0); }

#define OWN SK_K_OWN_RESULT
static const sk_kernel kernels[] = {
	RMA("win_fence_open", sk_step_win_fence_open, COLL | OWN, NULL),
	RMA("win_fence_close", sk_step_win_fence_close, COLL | OWN, NULL),
	RMA("win_fence_close_delayed", sk_step_win_fence_close_delayed, COLL | OWN, NULL),
	RMA("win_fence_close_collective", sk_step_win_fence_close_collective, COLL | OWN | SK_K_PER_PROCESS_WINDOW, NULL),
	RMA("caching", sk_step_caching, COLL | OWN, NULL),
	RMA("combining_put_fence", sk_step_combining_put_fence, COLL | OWN, NULL),
	RMA("win_start", sk_step_win_start, OWN, NULL),
	RMA("win_post", sk_step_win_post, OWN, NULL),
	RMA("win_complete", sk_step_win_complete, OWN, NULL),
	RMA("win_wait_late_complete", sk_step_win_wait_late_complete, OWN, NULL),
	RMA("win_wait_early_complete", sk_step_win_wait_early_complete, OWN, NULL),
	RMA("win_test", sk_step_win_test, OWN, NULL),
	RMA("win_complete_n", sk_step_win_complete_n, OWN, NULL),
	/* methods exclusive and shared */
	RMA("win_lock_desync", sk_step_win_lock_desync, OWN, "exclusive"),
	RMA("put_callduration", sk_step_put_callduration, OWN, "fence_epoch"),
	RMA("get_callduration", sk_step_get_callduration, OWN, "fence_epoch"),
	RMA("win_create", sk_step_win_create, COLL | OWN | SK_K_OWN_WINDOW, NULL),
	RMA("win_free", sk_step_win_free, COLL | OWN | SK_K_OWN_WINDOW, NULL),
};
const sk_table sk_rma_sync_table = SK_TABLE(kernels);
