//go:build mpi && shmem

/* A busy passive target for OpenSHMEM puts, gets and atomics (the settings target_busy,
 * progress and poll = "quiet"; the MPI side is ops/mpi/rma_busy.c): does a one-sided
 * operation complete while its target computes, or only when the target next calls
 * OpenSHMEM?
 *
 * Every step: the PEs of the operation meet (a counter barrier on the target, below);
 * the origin(s) time the whole operation (a put and its shmem_quiet, a blocking get, an
 * atomic), one timer pair; the target computes busy_spin iterations of the calibrated
 * spin, calling shmem_quiet every progress_every of them (0: never); they meet again,
 * so a step ends with the target in OpenSHMEM and the next starts afresh. The meeting
 * is OpenSHMEM's own (atomic increments and shmem_long_wait_until), not MPI_Barrier:
 * over a transport whose puts need the target's progress (UCX over TCP) a target
 * waiting in MPI would never complete the origin's quiet, and the two would wait for
 * each other for ever. Both meetings are outside the timed interval. */
#include <shmem.h>
#include <stdlib.h>
#include "skampi.h"
#include "shmem_kernels.h"
#include "sk_common.h"

/* The counters of the meeting, in the flag line past the data (sk_shmem_prepare's
 * last 64 bytes; the ping-pong's flag is its first long, never busy). */
static long *arrived(sk_ctx *c) { return (long *)(c->sym + c->sym_bytes - 64) + 2; }
static long *released(sk_ctx *c) { return (long *)(c->sym + c->sym_bytes - 64) + 3; }

/* meet: every origin tells the target it is here; the target, once all are, releases
 * them. Waiting in shmem_long_wait_until drives OpenSHMEM on every PE. Before the
 * computation (opening) the release is a shmem_long_p and nothing after it: the p
 * returns once its value is on its way (local completion, as the MPI target's empty
 * send), so the target is computing, out of OpenSHMEM, when the origin starts its
 * timer; with a shmem_quiet after it the target could still be inside the quiet,
 * progressing, while a small operation of the origin completed. A release the
 * transport holds back until the target next calls OpenSHMEM arrives in the target's
 * closing meet at the latest (its wait drives progress): late, never lost. The closing
 * release is completed (shmem_quiet) before the target leaves the step, where the
 * engine's checks may wait in MPI. */
static void meet(sk_ctx *c, int opening) {
	long seq = ++c->busy_seq;
	if (c->busy_is_target) {
		shmem_long_wait_until(arrived(c), SHMEM_CMP_GE, seq * c->busy_npes);
		for (int i = 0; i < c->busy_npes; i++) shmem_long_p(released(c), seq, c->busy_pes[i]);
		if (!opening) shmem_quiet();
	} else {
		shmem_long_atomic_inc(arrived(c), c->busy_pes[0]);
		shmem_long_wait_until(released(c), SHMEM_CMP_GE, seq);
	}
}

static int poll_quiet(sk_ctx *c) {
	(void)c;
	shmem_quiet();
	return MPI_SUCCESS;
}

/* A non-blocking kernel's whole operation: its fused loop, or post then completion. */
static int whole_nbi(sk_ctx *c) {
	if (c->k->full) return c->k->full(c);
	CK(c->k->post(c));
	return c->k->complete(c);
}

static int busy_step(sk_ctx *c) {
	meet(c, 1);
	if (c->busy_is_target) {
		CK(sk_busy_compute(c, poll_quiet));
	} else {
		double t0 = sk_now();
		int rc = c->busy_inner(c);
		c->result += sk_now() - t0;
		CK(rc);
	}
	meet(c, 0);
	return MPI_SUCCESS;
}

/* The PEs the target releases: a pair's origin (its peer), or every PE of the
 * communicator but the first (an atomic's origins; the first is its target). */
static int busy_pes(sk_ctx *c) {
	int collective = (c->k->flags & SK_K_COLLECTIVE) != 0;
	c->busy_is_target = collective ? c->rank == 0 : c->a.role == SK_ROLE_RESPONDER;
	c->busy_npes = c->busy_is_target ? (collective ? c->nprocs - 1 : 1) : 1;
	if (c->busy_npes < 1) return SK_ERR_ARGS;
	if (!(c->busy_pes = malloc(sizeof(int) * (size_t)c->busy_npes))) return SK_ERR_NOMEM;
	if (!c->busy_is_target || !collective) { /* the one partner: the target, or the origin */
		c->busy_pes[0] = TARGET_PE(c);
		return MPI_SUCCESS;
	}
	MPI_Group world, mine;
	int *ranks = malloc(sizeof(int) * (size_t)c->busy_npes);
	if (!ranks) return SK_ERR_NOMEM;
	for (int i = 0; i < c->busy_npes; i++) ranks[i] = i + 1;
	int rc = MPI_Comm_group(MPI_Comm_f2c(c->a.world), &world);
	if (rc == MPI_SUCCESS) rc = MPI_Comm_group(c->comm, &mine);
	if (rc == MPI_SUCCESS) {
		rc = MPI_Group_translate_ranks(mine, c->busy_npes, ranks, world, c->busy_pes);
		MPI_Group_free(&mine);
		MPI_Group_free(&world);
	}
	free(ranks);
	return rc;
}

int sk_shmem_busy_prepare(sk_ctx *c) {
	if (c->busy_spin <= 0 || c->a.role == SK_ROLE_IDLE) return MPI_SUCCESS;
	if (c->poll != SK_POLL_DEFAULT && c->poll != SK_POLL_QUIET) return SK_ERR_POLL;
	CK(busy_pes(c));
	c->poll = SK_POLL_QUIET;
	c->busy_inner = (c->k->flags & SK_K_NONBLOCKING) ? whole_nbi : c->step;
	c->step = busy_step;
	c->own_result = 1;
	return MPI_SUCCESS;
}

void sk_shmem_busy_close(sk_ctx *c) {
	free(c->busy_pes);
	c->busy_pes = NULL;
}
