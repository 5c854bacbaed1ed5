//go:build mpi

/* Collective steps (named in kernels.c): one step is one collective call (or one
 * hand-made baseline). count is the number of elements of each process's block;
 * buffers hold nprocs blocks for the per-process operations. */
#include <math.h>
#include "kernels.h"
#include "sk_common.h"

#define TAG 4

static int blk(const sk_ctx *c) { return c->a.bytes; } /* bytes per block */

int sk_step_barrier(sk_ctx *c) { return MPI_Barrier(c->comm); }
int sk_step_bcast(sk_ctx *c) { return MPI_Bcast(c->a.sbuf, c->count, c->dt, c->a.root, c->comm); }
int sk_step_reduce(sk_ctx *c) {
	return MPI_Reduce(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->a.root, c->comm);
}
int sk_step_allreduce(sk_ctx *c) { return MPI_Allreduce(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm); }
int sk_step_reduce_scatter(sk_ctx *c) {
	return MPI_Reduce_scatter(c->a.sbuf, c->a.rbuf, c->counts, c->dt, c->op, c->comm);
}
int sk_step_reduce_scatter_block(sk_ctx *c) {
	return MPI_Reduce_scatter_block(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm);
}
int sk_step_alltoall(sk_ctx *c) {
	return MPI_Alltoall(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->comm);
}
int sk_step_alltoallv(sk_ctx *c) {
	return MPI_Alltoallv(c->a.sbuf, c->counts, c->displs, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->comm);
}
int sk_step_gather(sk_ctx *c) {
	return MPI_Gather(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm);
}
int sk_step_gatherv(sk_ctx *c) {
	return MPI_Gatherv(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->a.root, c->comm);
}
int sk_step_allgather(sk_ctx *c) {
	return MPI_Allgather(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->comm);
}
int sk_step_allgatherv(sk_ctx *c) {
	return MPI_Allgatherv(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->comm);
}
int sk_step_scatter(sk_ctx *c) {
	return MPI_Scatter(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm);
}
int sk_step_scatterv(sk_ctx *c) {
	return MPI_Scatterv(c->a.sbuf, c->counts, c->displs, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm);
}
/* IMB's Reduce_local: no communication; sbuf is combined into rbuf, which keeps the
 * result from one call to the next, as IMB's loop does. */
int sk_step_reduce_local(sk_ctx *c) { return MPI_Reduce_local(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op); }
int sk_step_scan(sk_ctx *c) { return MPI_Scan(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm); }
int sk_step_exscan(sk_ctx *c) { return MPI_Exscan(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm); }

/* SKaMPI's baselines. */
int sk_step_bcast_using_send_recv(sk_ctx *c) {
	int root = c->a.root;
	if (c->rank != root) return MPI_Recv(c->a.sbuf, c->count, c->dt, root, TAG, c->comm, MPI_STATUS_IGNORE);
	for (int i = 0; i < c->nprocs; i++) {
		if (i == root) continue;
		int rc = MPI_Send(c->a.sbuf, c->count, c->dt, i, TAG, c->comm);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_SUCCESS;
}

int sk_step_alltoall_using_isend_irecv(sk_ctx *c) {
	int n = 0, rc;
	for (int i = 0; i < c->nprocs; i++) {
		rc = MPI_Irecv(c->a.rbuf + (size_t)i * blk(c), c->count, c->dt, i, TAG, c->comm, &c->req[n++]);
		if (rc != MPI_SUCCESS) return rc;
	}
	for (int i = 0; i < c->nprocs; i++) {
		rc = MPI_Isend(c->a.sbuf + (size_t)i * blk(c), c->count, c->dt, i, TAG, c->comm, &c->req[n++]);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_Waitall(n, c->req, MPI_STATUSES_IGNORE);
}

int sk_step_gather_using_send_recv(sk_ctx *c) {
	int root = c->a.root;
	if (c->rank != root) return MPI_Send(c->a.sbuf, c->count, c->dt, root, TAG, c->comm);
	for (int i = 0; i < c->nprocs; i++) {
		if (i == root) continue;
		int rc = MPI_Recv(c->a.rbuf + (size_t)i * blk(c), c->count, c->dt, i, TAG, c->comm, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_SUCCESS;
}

/* SKaMPI's gather from non-blocking calls: the root posts an MPI_Irecv for every other
 * rank's block (its own is not copied, as in SKaMPI), then MPI_Waitall; every other rank
 * MPI_Isend + MPI_Wait (the send completes inside the step, so the next may reuse it). */
int sk_step_gather_using_isend_irecv_waitall(sk_ctx *c) {
	int root = c->a.root, n = 0, rc;
	if (c->rank != root) {
		MPI_Request r;
		if ((rc = MPI_Isend(c->a.sbuf, c->count, c->dt, root, TAG, c->comm, &r)) != MPI_SUCCESS) return rc;
		return MPI_Wait(&r, MPI_STATUS_IGNORE);
	}
	for (int i = 0; i < c->nprocs; i++) {
		if (i == root) continue;
		rc = MPI_Irecv(c->a.rbuf + (size_t)i * blk(c), c->count, c->dt, i, TAG, c->comm, &c->req[n++]);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_Waitall(n, c->req, MPI_STATUSES_IGNORE);
}

/* The all-to-all-v baseline places blocks by Alltoallv's counts and displacements (in
 * elements): their extent once per point. */
static int prepare_extent(sk_ctx *c) {
	MPI_Aint lb;
	return MPI_Type_get_extent(c->dt, &lb, &c->extent);
}

int sk_step_alltoallv_using_isend_irecv(sk_ctx *c) {
	int n = 0, rc, p = c->nprocs;
	for (int i = 0; i < p; i++) {
		rc = MPI_Irecv(c->a.rbuf + (size_t)c->displs[i] * (size_t)c->extent, c->counts[i], c->dt, i, TAG, c->comm,
		               &c->req[n++]);
		if (rc != MPI_SUCCESS) return rc;
	}
	for (int i = 0; i < p; i++) {
		rc = MPI_Isend(c->a.sbuf + (size_t)c->displs[i] * (size_t)c->extent, c->counts[i], c->dt, i, TAG, c->comm,
		               &c->req[n++]);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_Waitall(n, c->req, MPI_STATUSES_IGNORE);
}

/* Communicator creation: the step times the call alone (SK_K_OWN_RESULT) and frees the new
 * communicator after its clock read, outside the time, as SKaMPI does. */
int sk_step_comm_dup(sk_ctx *c) {
	MPI_Comm nc;
	double t0 = sk_now();
	int rc = MPI_Comm_dup(c->comm, &nc);
	c->result += sk_now() - t0;
	return rc == MPI_SUCCESS ? MPI_Comm_free(&nc) : rc;
}

/* SKaMPI's split: colour rank % 2 (two halves, interleaved), key the rank (its order kept). */
int sk_step_comm_split(sk_ctx *c) {
	MPI_Comm nc;
	double t0 = sk_now();
	int rc = MPI_Comm_split(c->comm, c->rank % 2, c->rank, &nc);
	c->result += sk_now() - t0;
	return rc == MPI_SUCCESS ? MPI_Comm_free(&nc) : rc;
}

int sk_step_allreduce_using_reduce_bcast(sk_ctx *c) {
	int rc = MPI_Reduce(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, 0, c->comm);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Bcast(c->a.rbuf, c->count, c->dt, 0, c->comm);
}

/* Ordered all-to-all: in phase i every rank exchanges with its i-th neighbours, so no
 * two messages contend for one receiver; large messages get a barrier between phases
 * to keep the phases from overlapping (Kutzner et al.). */
static int phase_barrier(sk_ctx *c) {
	if (c->a.barrier_above >= 0 && c->a.bytes > c->a.barrier_above) return MPI_Barrier(c->comm);
	return MPI_SUCCESS;
}

int sk_step_alltoall_ordered(sk_ctx *c) {
	int p = c->nprocs, me = c->rank, b = blk(c);
	/* Phase 0 is the block to itself, as in the algorithm (and as MPI_Alltoall moves it):
	 * leaving it out would flatter the ordered variant. */
	for (int i = 0; i < p; i++) {
		int to = (me + i) % p, from = (me - i + p) % p;
		int rc = MPI_Sendrecv(c->a.sbuf + (size_t)to * b, c->count, c->dt, to, TAG, c->a.rbuf + (size_t)from * b,
		                      c->count, c->dt, from, TAG, c->comm, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS && i > 0 && i < p - 1) rc = phase_barrier(c); /* not after the self phase */
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_SUCCESS;
}

/* Node-aware: phase j exchanges with every rank of node (mine + j) and (mine - j). */
int sk_step_alltoall_ordered_nodes(sk_ctx *c) {
	const sk_args *a = &c->a;
	int p = c->nprocs, b = blk(c), mine = c->node_of[c->rank];
	for (int j = 0; j < a->nnodes; j++) {
		int to = (mine + j) % a->nnodes, from = (mine - j + a->nnodes) % a->nnodes, n = 0, rc;
		for (int r = 0; r < p; r++) { /* the own block too, in phase 0 */
			if (c->node_of[r] != from) continue;
			rc = MPI_Irecv(a->rbuf + (size_t)r * b, c->count, c->dt, r, TAG, c->comm, &c->req[n++]);
			if (rc != MPI_SUCCESS) return rc;
		}
		for (int r = 0; r < p; r++) {
			if (c->node_of[r] != to) continue;
			rc = MPI_Isend(a->sbuf + (size_t)r * b, c->count, c->dt, r, TAG, c->comm, &c->req[n++]);
			if (rc != MPI_SUCCESS) return rc;
		}
		rc = MPI_Waitall(n, c->req, MPI_STATUSES_IGNORE);
		if (rc == MPI_SUCCESS && j < a->nnodes - 1) rc = phase_barrier(c);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_SUCCESS;
}

/* Broadcast timing methods. */
int sk_step_bcast_barrier(sk_ctx *c) {
	int rc = sk_step_bcast(c);
	return rc == MPI_SUCCESS ? MPI_Barrier(c->comm) : rc;
}

int sk_step_bcast_rounds(sk_ctx *c) {
	for (int r = 0; r < c->nprocs; r++) {
		int rc = MPI_Bcast(c->a.sbuf, c->count, c->dt, r, c->comm);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_SUCCESS;
}

/* One step of the acknowledgement-based broadcast (the method paper's Alg. 4, two-sided):
 * a broadcast, then the measured task acknowledges it to the root; the root keeps the
 * time to the acknowledgement less the acknowledgement's own one-way time. One task is
 * measured at a time, so the point's time can be the slowest task's MEAN (Alg. 4's
 * maximum over tasks of per-task means; a mean of per-broadcast maxima is biased up). */
/* Alg. 5's loop: ACK_BCASTS broadcasts separated only by the task's acknowledgement
 * (the engine's barrier starts the first of a step alone), the root's time less the
 * acknowledgements' one-way time; the step is ACK_BCASTS operations (calls_per_step). */
enum { ACK_BCASTS = 8 };
int sk_step_bcast_ack(sk_ctx *c) {
	int root = c->a.root, task = c->a.task, rc;
	char ack = 0;
	double t0 = sk_now();
	for (int k = 0; k < ACK_BCASTS; k++) {
		if ((rc = sk_step_bcast(c)) != MPI_SUCCESS) return rc;
		if (c->rank == task) {
			if ((rc = MPI_Send(&ack, 1, MPI_BYTE, root, TAG + 1, c->comm)) != MPI_SUCCESS) return rc;
		} else if (c->rank == root) {
			if ((rc = MPI_Recv(&ack, 1, MPI_BYTE, task, TAG + 1, c->comm, MPI_STATUS_IGNORE)) != MPI_SUCCESS) return rc;
		}
	}
	/* may go negative: the subtracted acks can exceed tiny broadcasts (kept, flagged) */
	if (c->rank == root) c->result += sk_now() - t0 - ACK_BCASTS * c->ack_s[task];
	return MPI_SUCCESS;
}

/* The prepare hook of bcast_ack: the one-way time of an acknowledgement from the task to
 * the root, measured once per point and subtracted from every broadcast (ack.c), from
 * MPI_Send/MPI_Recv round trips of 1 byte. */
int sk_prepare_bcast_ack(sk_ctx *c) {
	int root = c->a.root, task = c->a.task, rc;
	char b = 0;
	double rtt[SK_ACK_ROUNDS];
	if ((rc = sk_ack_prepare(c)) != MPI_SUCCESS) return rc;
	c->calls_per_step = ACK_BCASTS;
	if (c->rank != root && c->rank != task) return MPI_SUCCESS;
	for (int i = -SK_ACK_WARMUP; i < SK_ACK_ROUNDS; i++) {
		double t0 = sk_now();
		if (c->rank == root) {
			if ((rc = MPI_Send(&b, 1, MPI_BYTE, task, TAG + 2, c->comm)) != MPI_SUCCESS) return rc;
			rc = MPI_Recv(&b, 1, MPI_BYTE, task, TAG + 2, c->comm, MPI_STATUS_IGNORE);
		} else {
			if ((rc = MPI_Recv(&b, 1, MPI_BYTE, root, TAG + 2, c->comm, MPI_STATUS_IGNORE)) != MPI_SUCCESS) return rc;
			rc = MPI_Send(&b, 1, MPI_BYTE, root, TAG + 2, c->comm);
		}
		if (rc != MPI_SUCCESS) return rc;
		if (i >= 0) rtt[i] = sk_now() - t0;
	}
	c->ack_s[task] = sk_ack_one_way(rtt);
	return MPI_SUCCESS;
}

/* The kernels of this file (kernels.c joins the tables). */
static const sk_kernel kernels[] = {
	KERNEL("barrier", sk_step_barrier, COLL),
	CHECKED("bcast", sk_step_bcast, COLL, SK_CHECK_BCAST),
	KERNEL("reduce", sk_step_reduce, COLL),
	KERNEL("allreduce", sk_step_allreduce, COLL),
	KERNEL("reduce_scatter", sk_step_reduce_scatter, COLL),
	KERNEL("reduce_scatter_block", sk_step_reduce_scatter_block, COLL),
	{.name = "alltoall", .step = sk_step_alltoall, .flags = COLL, .check = SK_CHECK_ALLTOALL, .layout = SK_LAY_ALLTOALL},
	CHECKED("alltoallv", sk_step_alltoallv, COLL, SK_CHECK_ALLTOALL),
	CHECKED("gather", sk_step_gather, COLL, SK_CHECK_GATHER),
	CHECKED("gatherv", sk_step_gatherv, COLL, SK_CHECK_GATHER),
	CHECKED("allgather", sk_step_allgather, COLL, SK_CHECK_ALLGATHER),
	CHECKED("allgatherv", sk_step_allgatherv, COLL, SK_CHECK_ALLGATHER),
	CHECKED("scatter", sk_step_scatter, COLL, SK_CHECK_SCATTER),
	CHECKED("scatterv", sk_step_scatterv, COLL, SK_CHECK_SCATTER),
	KERNEL("reduce_local", sk_step_reduce_local, COLL),
	KERNEL("scan", sk_step_scan, COLL),
	KERNEL("exscan", sk_step_exscan, COLL),
	CHECKED("bcast_using_send_recv", sk_step_bcast_using_send_recv, COLL, SK_CHECK_BCAST),
	CHECKED("alltoall_using_isend_irecv", sk_step_alltoall_using_isend_irecv, COLL, SK_CHECK_ALLTOALL),
	CHECKED("gather_using_send_recv", sk_step_gather_using_send_recv, COLL, SK_CHECK_GATHER_OTHERS),
	CHECKED("gather_using_isend_irecv_waitall", sk_step_gather_using_isend_irecv_waitall, COLL, SK_CHECK_GATHER_OTHERS),
	{.name = "alltoallv_using_isend_irecv", .step = sk_step_alltoallv_using_isend_irecv, .prepare = prepare_extent,
	 .flags = COLL, .check = SK_CHECK_ALLTOALL},
	KERNEL("comm_dup", sk_step_comm_dup, COLL | SK_K_OWN_RESULT),
	KERNEL("comm_split", sk_step_comm_split, COLL | SK_K_OWN_RESULT),
	KERNEL("allreduce_using_reduce_bcast", sk_step_allreduce_using_reduce_bcast, COLL),
	KERNEL("alltoall_ordered", sk_step_alltoall_ordered, COLL),
	KERNEL("alltoall_ordered_nodes", sk_step_alltoall_ordered_nodes, COLL | SK_K_NODE_AWARE),
	/* The broadcast timing methods (the method paper's Alg. 1, 3, 4-5; Alg. 2 is bcast
	 * in a synchronised window). */
	CHECKED("bcast_barrier", sk_step_bcast_barrier, COLL, SK_CHECK_BCAST),
	CHECKED("bcast_rounds", sk_step_bcast_rounds, COLL | SK_K_PER_PROCESS_STEP, SK_CHECK_BCAST_FIRST),
	{.name = "bcast_ack", .step = sk_step_bcast_ack, .prepare = sk_prepare_bcast_ack, .flags = COLL | SK_K_OWN_RESULT},
};
const sk_table sk_coll_table = SK_TABLE(kernels);
