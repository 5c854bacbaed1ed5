//go:build mpi

/* The engine's window service: a point's RMA window, created once per point
 * (sk_prepare_rma) from MPI_Win_allocate, MPI_Win_create or MPI_Win_create_dynamic (the
 * request's kind of window), its groups and base addresses, the synchronisation mode's
 * opening call, a busy target's wrapping (rma_busy.c), and its collective freeing
 * (sk_close_rma). The one-sided operations (families/onesided/kernels), the locks and
 * counters (families/locks/kernels), the halo exchange and the data layouts all work on
 * it, as every kernel works on the engine's message buffers. */
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "sk_common.h"

static int origin(const sk_ctx *c) { return c->a.role == SK_ROLE_INITIATOR; }

MPI_Aint sk_rma_base_of(const sk_ctx *c, int r) { return c->rma_bases ? c->rma_bases[r] : 0; }
#define base_of sk_rma_base_of

/* Window creation, collective, of size bytes per process. Errors on the window are
 * returned, as on skampi's communicators, not fatal: a point that fails is a fault. */
int sk_create_window(sk_ctx *c, int kind, MPI_Aint size, MPI_Win *win, char **base) {
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
		/* Rounded up to 64 bytes: MPICH 4.0's shared-memory MPI_Win_allocate puts a
		 * target's data at another place than the target's base when the size is not a
		 * multiple of 16 (docs/robustness.md); the extra bytes are never accessed. */
		CK(MPI_Win_allocate((size + 63) & ~(MPI_Aint)63, 1, MPI_INFO_NULL, c->comm, base, win));
	}
	return MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN);
}

int sk_free_window(int kind, MPI_Win *win, char *base) {
	if (kind == SK_WIN_DYNAMIC) CK(MPI_Win_detach(*win, base));
	return MPI_Win_free(win);
}

/* Preparation: the window, its groups and base addresses, the mode's opening call. */
int sk_prepare_rma(sk_ctx *c) {
	const sk_args *a = &c->a;
	int w = a->window > 0 ? a->window : 1;
	size_t slots = a->slot_stride > 0 ? (size_t)w : 1;
	int transposes = c->k->flags & SK_K_PER_PROCESS_WINDOW;
	size_t per_process = transposes ? (size_t)c->nprocs : 1;
	/* The data, and 64 bytes past it for a flag (the ping-pong's, in the last byte). */
	c->win_bytes = (long long)((size_t)c->span * slots * per_process) + SK_RMA_SPARE;
	c->flag_off = c->win_bytes - 1;
	c->rma_peer = c->nprocs == 2 ? 1 - c->rank : 0;
	if (!(c->result_buf = calloc(1, (size_t)c->span * (size_t)w + 64))) return SK_ERR_NOMEM;
	if (!(c->compare_buf = calloc(1, 64))) return SK_ERR_NOMEM;
	if (c->k->flags & SK_K_OWN_WINDOW) return MPI_SUCCESS; /* creates its own */
	int kind = c->win_kind;
	CK(sk_create_window(c, kind, (MPI_Aint)c->win_bytes, &c->win, &c->wbase));
	c->have_win = 1;
	/* Polls or stores into window memory directly (Put_Pingpong only when not fenced). */
	if ((c->k->flags & SK_K_UNIFIED) && c->mode != SK_SYNC_FENCE_EPOCH) {
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
	switch (c->mode) {
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
	return sk_rma_busy_prepare(c);
}

/* sk_close_rma ends the open epoch and frees the window, collectively. */
int sk_close_rma(sk_ctx *c) {
	int rc = sk_rma_busy_close(c);
	if (c->locked_all) {
		int urc = MPI_Win_unlock_all(c->win);
		if (rc == MPI_SUCCESS) rc = urc;
		c->locked_all = 0;
	}
	if (c->locked_peer) {
		int urc = MPI_Win_unlock(c->rma_peer, c->win);
		if (rc == MPI_SUCCESS) rc = urc;
		c->locked_peer = 0;
	}
	int fenced = c->mode == SK_SYNC_FENCE_EPOCH || c->mode == SK_SYNC_FENCE_PINGPONG;
	if (c->have_win) {
		if (fenced && rc == MPI_SUCCESS) rc = MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win);
		int frc = sk_free_window(c->win_kind, &c->win, c->wbase);
		if (rc == MPI_SUCCESS) rc = frc;
		c->have_win = 0;
	}
	if (c->have_group) {
		MPI_Group_free(&c->peer_group);
		c->have_group = 0;
	}
	return rc;
}
