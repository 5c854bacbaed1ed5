//go:build mpi

/* A busy passive target (the settings target_busy, progress and poll; SKaMPI's
 * *_activewait_* measurements, seed 001's question): does one-sided communication
 * progress while the target computes, or only when it calls the library?
 *
 * An operation under a passive mode (lock, lock_exclusive, lock_all, flush, ...) is
 * wrapped step by step: the target sends the origin an empty message and begins
 * computing; the origin, once it has it, times its epoch (the operations and their
 * completion, one timer pair). An empty send completes locally, so the target is out of
 * the library when the origin starts: a barrier there let the origin leave first and
 * its small operations complete while the target was still inside MPI_Barrier,
 * progressing them, which understated the wait. The target computes
 * busy_spin iterations of the calibrated spin (spin.c), making the poll call every
 * progress_every of them (0: never); both meet again in MPI_Barrier, so a step ends
 * with the target in the library and the next starts afresh. An MPI that progresses
 * passive targets only inside their calls completes the origin's epoch when the
 * target next polls or reaches the closing barrier: the time climbs with target_busy.
 * The start message and the barrier are outside the timed interval. */
#include <string.h>
#include "kernels.h"
#include "sk_common.h"

int sk_find_poll(const char *name) {
	if (!name || !*name) return SK_POLL_DEFAULT;
	if (!strcmp(name, "iprobe")) return SK_POLL_IPROBE;
	if (!strcmp(name, "flush")) return SK_POLL_FLUSH;
	if (!strcmp(name, "quiet")) return SK_POLL_QUIET;
	return -1;
}

int sk_busy_compute(sk_ctx *c, int (*poll)(sk_ctx *c)) {
	long long left = c->busy_spin, every = c->a.progress_every;
	if (every <= 0 || every >= left) { /* no poll inside the computation */
		sk_spin(left);
		return MPI_SUCCESS;
	}
	while (left > 0) {
		long long n = left < every ? left : every;
		sk_spin(n);
		left -= n;
		if (left > 0) CK(poll(c));
	}
	return MPI_SUCCESS;
}

static int mpi_poll(sk_ctx *c) {
	if (c->poll == SK_POLL_FLUSH) return MPI_Win_flush(c->rank, c->win);
	int flag = 0; /* probes match nothing of ours: the call is the point */
	return MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c->comm, &flag, MPI_STATUS_IGNORE);
}

#define BUSY_TAG 9

/* The start: on a pair, the target's empty message; on a larger communicator (where
 * the pair's ranks are not known here), a barrier. */
static int busy_start(sk_ctx *c) {
	char none = 0;
	if (c->nprocs != 2) return MPI_Barrier(c->comm);
	if (c->a.role == SK_ROLE_INITIATOR) return MPI_Recv(&none, 0, MPI_BYTE, c->rma_peer, BUSY_TAG, c->comm, MPI_STATUS_IGNORE);
	return MPI_Send(&none, 0, MPI_BYTE, c->rma_peer, BUSY_TAG, c->comm);
}

static int busy_step(sk_ctx *c) {
	CK(busy_start(c));
	if (c->a.role == SK_ROLE_INITIATOR) {
		double t0 = sk_now();
		int rc = c->busy_inner(c);
		c->result += sk_now() - t0;
		CK(rc);
	} else {
		CK(sk_busy_compute(c, mpi_poll));
	}
	return MPI_Barrier(c->comm);
}

static int passive(int mode) {
	switch (mode) {
	case SK_SYNC_LOCK_EXCLUSIVE:
	case SK_SYNC_LOCK_SHARED:
	case SK_SYNC_LOCK_ALL_EPOCH:
	case SK_SYNC_LOCK_ALL_FLUSH:
	case SK_SYNC_LOCK_ALL_FLUSH_LOCAL:
	case SK_SYNC_SHARED_FLUSH:
	case SK_SYNC_SHARED_FLUSH_LOCAL:
		return 1;
	}
	return 0;
}

int sk_rma_busy_prepare(sk_ctx *c) {
	if (c->busy_spin <= 0 || !c->k->by_mode || !passive(c->mode)) return MPI_SUCCESS;
	int poll = c->poll == SK_POLL_DEFAULT ? SK_POLL_IPROBE : c->poll;
	if (poll == SK_POLL_QUIET) return SK_ERR_POLL;
	/* MPI_Win_flush of its own window needs an epoch on it: the held lock_all, or a
	 * shared lock of its own, which an exclusive lock from the origin could never get. */
	if (poll == SK_POLL_FLUSH && c->a.progress_every > 0 && c->a.role != SK_ROLE_INITIATOR && !c->locked_all) {
		if (c->mode == SK_SYNC_LOCK_EXCLUSIVE) return SK_ERR_POLL;
		CK(MPI_Win_lock(MPI_LOCK_SHARED, c->rank, 0, c->win));
		c->poll_locked = 1;
	}
	c->poll = poll;
	c->busy_inner = c->step;
	c->step = busy_step;
	c->own_result = 1;
	return MPI_SUCCESS;
}

int sk_rma_busy_close(sk_ctx *c) {
	if (!c->poll_locked) return MPI_SUCCESS;
	c->poll_locked = 0;
	return MPI_Win_unlock(c->rank, c->win);
}
