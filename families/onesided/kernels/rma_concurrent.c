//go:build mpi

/* One-sided kernels with many origins at once (NWChem's and Global Arrays' pattern:
 * every process puts or accumulates into the others' windows), the one-sided shift and
 * exchange beside Sendrecv_Shift and Transpose_Put, and the one-sided round trip by
 * gets. Each runs on a window rma.c prepares (a block per process where they need
 * one); the fence kernels' mode fence_epoch opens the first epoch there, and each step
 * ends with the fence that closes its epoch and opens the next. */
#include "kernels.h"
#include "sk_common.h"

#define base_of sk_rma_base_of

static int origin(const sk_ctx *c) { return c->a.role == SK_ROLE_INITIATOR; }

/* Block k of target's window (blocks of msg_bytes). */
static MPI_Aint block(const sk_ctx *c, int target, int k) {
	return base_of(c, target) + (MPI_Aint)k * (MPI_Aint)c->a.bytes;
}

/* Put_passive_concurrent (SKaMPI's): every process at once locks rank 0's window
 * (method exclusive or shared), puts msg_bytes into its own block there, unlocks. */
static int step_put_passive_concurrent(sk_ctx *c) {
	int type = c->mode == SK_SYNC_LOCK_SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
	CK(MPI_Win_lock(type, 0, 0, c->win));
	CK(MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, 0, block(c, 0, c->rank), c->a.bytes, MPI_BYTE, c->win));
	return MPI_Win_unlock(0, c->win);
}

/* Accumulate_concurrent (SKaMPI's): rank 0 exposes its window to all the others
 * (MPI_Win_post, MPI_Win_wait); each of them MPI_Win_start, one MPI_Accumulate into
 * rank 0 (all into block 0, or disjoint: each into its own block), MPI_Win_complete.
 * rma.c's group is the peer alone; rank 0's must be every other rank. */
static int prepare_accumulate_concurrent(sk_ctx *c) {
	CK(sk_prepare_rma(c));
	if (c->rank != 0 || c->nprocs <= 2) return MPI_SUCCESS;
	MPI_Group all;
	int zero = 0;
	CK(MPI_Comm_group(c->comm, &all));
	MPI_Group_free(&c->peer_group);
	int rc = MPI_Group_excl(all, 1, &zero, &c->peer_group);
	MPI_Group_free(&all);
	return rc;
}

static inline int accumulate_concurrent(sk_ctx *c, int disjoint) {
	if (c->rank == 0) {
		CK(MPI_Win_post(c->peer_group, 0, c->win));
		return MPI_Win_wait(c->win);
	}
	CK(MPI_Win_start(c->peer_group, 0, c->win));
	CK(MPI_Accumulate(c->a.sbuf, c->count, c->dt, 0, block(c, 0, disjoint ? c->rank - 1 : 0), c->count, c->dt,
	                  c->op, c->win));
	return MPI_Win_complete(c->win);
}
static int step_accumulate_concurrent(sk_ctx *c) { return accumulate_concurrent(c, 0); }
static int step_accumulate_concurrent_disjoint(sk_ctx *c) { return accumulate_concurrent(c, 1); }

/* Accumulate_concurrent_multi (SKaMPI's, msg_count = nprocs): in one fence epoch every
 * process accumulates into every process, itself last (rank + 1, rank + 2, ...): all
 * into block 0, or disjoint: the k-th into block k, so no two origins share one. */
static inline int accumulate_multi(sk_ctx *c, int disjoint) {
	for (int k = 1; k <= c->nprocs; k++) {
		int t = (c->rank + k) % c->nprocs;
		CK(MPI_Accumulate(c->a.sbuf, c->count, c->dt, t, block(c, t, disjoint ? k - 1 : 0), c->count, c->dt, c->op,
		                  c->win));
	}
	return MPI_Win_fence(0, c->win);
}
static int step_accumulate_concurrent_multi(sk_ctx *c) { return accumulate_multi(c, 0); }
static int step_accumulate_concurrent_multi_disjoint(sk_ctx *c) { return accumulate_multi(c, 1); }

/* Put_Shift (SKaMPI's, distance 1): every process puts msg_bytes to the next one, then
 * a fence: the one-sided Sendrecv_Shift. */
static int step_put_shift(sk_ctx *c) {
	int t = (c->rank + 1) % c->nprocs;
	CK(MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, t, block(c, t, 0), c->a.bytes, MPI_BYTE, c->win));
	return MPI_Win_fence(0, c->win);
}

/* Put_Exchange_passive (SKaMPI's, msg_count = nprocs - 1): Transpose_Put's exchange,
 * block j of every process into process j's window, each put in an epoch of its own
 * (MPI_Win_lock shared, MPI_Put, MPI_Win_unlock), staggered; no fence. */
static int step_put_exchange_passive(sk_ctx *c) {
	size_t b = (size_t)c->a.bytes;
	for (int k = 1; k < c->nprocs; k++) {
		int j = (c->rank + k) % c->nprocs;
		CK(MPI_Win_lock(MPI_LOCK_SHARED, j, 0, c->win));
		CK(MPI_Put(c->a.sbuf + (size_t)j * b, (int)b, MPI_BYTE, j, block(c, j, c->rank), (int)b, MPI_BYTE, c->win));
		CK(MPI_Win_unlock(j, c->win));
	}
	return MPI_SUCCESS;
}

/* Get_Pingpong (SKaMPI's): the origin gets msg_bytes from the target, a fence, the
 * target gets from the origin, a fence: a round trip by gets. */
static int step_get_pingpong(sk_ctx *c) {
	int peer = c->rma_peer;
	if (origin(c)) CK(MPI_Get(c->result_buf, c->a.bytes, MPI_BYTE, peer, c->rma_base, c->a.bytes, MPI_BYTE, c->win));
	CK(MPI_Win_fence(0, c->win));
	if (!origin(c)) CK(MPI_Get(c->result_buf, c->a.bytes, MPI_BYTE, peer, c->rma_base, c->a.bytes, MPI_BYTE, c->win));
	return MPI_Win_fence(0, c->win);
}

/* Put_fence_bidirectional (SKaMPI's): both of the pair put msg_bytes to each other in
 * one epoch, then the fence. */
static int step_put_fence_bidirectional(sk_ctx *c) {
	CK(MPI_Put(c->a.sbuf, c->a.bytes, MPI_BYTE, c->rma_peer, c->rma_base, c->a.bytes, MPI_BYTE, c->win));
	return MPI_Win_fence(0, c->win);
}

#define PER_PROCESS (COLL | SK_K_PER_PROCESS_WINDOW)
#define RMA_PREP(name_, step_, prep_, flags_, mode_)                                                         \
	{.name = (name_), .step = (step_), .prepare = (prep_), .flags = (flags_), .close = sk_close_rma, \
	 .mode = (mode_)}

/* The kernels of this file (tables.c joins the tables); the mode named is the
 * kernel's when its method names none. */
static const sk_kernel kernels[] = {
	/* methods exclusive and shared */
	RMA("put_passive_concurrent", step_put_passive_concurrent, PER_PROCESS, "exclusive"),
	RMA_PREP("accumulate_concurrent", step_accumulate_concurrent, prepare_accumulate_concurrent, PER_PROCESS, NULL),
	RMA_PREP("accumulate_concurrent_disjoint", step_accumulate_concurrent_disjoint, prepare_accumulate_concurrent,
	         PER_PROCESS, NULL),
	RMA("accumulate_concurrent_multi", step_accumulate_concurrent_multi, PER_PROCESS, "fence_epoch"),
	RMA("accumulate_concurrent_multi_disjoint", step_accumulate_concurrent_multi_disjoint, PER_PROCESS, "fence_epoch"),
	RMA("put_shift", step_put_shift, COLL, "fence_epoch"),
	RMA("put_exchange_passive", step_put_exchange_passive, PER_PROCESS, NULL),
	RMA("get_pingpong", step_get_pingpong, 0, "fence_epoch"),
	RMA("put_fence_bidirectional", step_put_fence_bidirectional, 0, "fence_epoch"),
};
const sk_table sk_rma_concurrent_table = SK_TABLE(kernels);
