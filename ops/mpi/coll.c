//go:build mpi

/* Collective kernels: one step is one collective call (or one hand-made baseline).
 * count is the number of elements of each process's block; buffers hold nprocs
 * blocks for the per-process operations. */
#include <math.h>
#include <stdlib.h>
#include "skampi.h"

#define TAG 4

static int blk(const sk_ctx *c) { return c->a->bytes; } /* bytes per block */

static int barrier(sk_ctx *c) { return MPI_Barrier(c->comm); }
static int bcast(sk_ctx *c) { return MPI_Bcast(c->a->sbuf, c->count, c->dt, c->a->root, c->comm); }
static int reduce(sk_ctx *c) {
	return MPI_Reduce(c->a->sbuf, c->a->rbuf, c->count, c->dt, c->op, c->a->root, c->comm);
}
static int allreduce(sk_ctx *c) { return MPI_Allreduce(c->a->sbuf, c->a->rbuf, c->count, c->dt, c->op, c->comm); }
static int reduce_scatter(sk_ctx *c) {
	return MPI_Reduce_scatter(c->a->sbuf, c->a->rbuf, c->counts, c->dt, c->op, c->comm);
}
static int reduce_scatter_block(sk_ctx *c) {
	return MPI_Reduce_scatter_block(c->a->sbuf, c->a->rbuf, c->count, c->dt, c->op, c->comm);
}
static int alltoall(sk_ctx *c) {
	return MPI_Alltoall(c->a->sbuf, c->count, c->dt, c->a->rbuf, c->count, c->dt, c->comm);
}
static int alltoallv(sk_ctx *c) {
	return MPI_Alltoallv(c->a->sbuf, c->counts, c->displs, c->dt, c->a->rbuf, c->counts, c->displs, c->dt, c->comm);
}
static int gather(sk_ctx *c) {
	return MPI_Gather(c->a->sbuf, c->count, c->dt, c->a->rbuf, c->count, c->dt, c->a->root, c->comm);
}
static int gatherv(sk_ctx *c) {
	return MPI_Gatherv(c->a->sbuf, c->count, c->dt, c->a->rbuf, c->counts, c->displs, c->dt, c->a->root, c->comm);
}
static int allgather(sk_ctx *c) {
	return MPI_Allgather(c->a->sbuf, c->count, c->dt, c->a->rbuf, c->count, c->dt, c->comm);
}
static int allgatherv(sk_ctx *c) {
	return MPI_Allgatherv(c->a->sbuf, c->count, c->dt, c->a->rbuf, c->counts, c->displs, c->dt, c->comm);
}
static int scatter(sk_ctx *c) {
	return MPI_Scatter(c->a->sbuf, c->count, c->dt, c->a->rbuf, c->count, c->dt, c->a->root, c->comm);
}
static int scatterv(sk_ctx *c) {
	return MPI_Scatterv(c->a->sbuf, c->counts, c->displs, c->dt, c->a->rbuf, c->count, c->dt, c->a->root, c->comm);
}
static int scan(sk_ctx *c) { return MPI_Scan(c->a->sbuf, c->a->rbuf, c->count, c->dt, c->op, c->comm); }
static int exscan(sk_ctx *c) { return MPI_Exscan(c->a->sbuf, c->a->rbuf, c->count, c->dt, c->op, c->comm); }

/* SKaMPI's baselines. */
static int bcast_send_recv(sk_ctx *c) {
	int root = c->a->root;
	if (c->rank != root) return MPI_Recv(c->a->sbuf, c->count, c->dt, root, TAG, c->comm, MPI_STATUS_IGNORE);
	for (int i = 0; i < c->nprocs; i++) {
		if (i == root) continue;
		int rc = MPI_Send(c->a->sbuf, c->count, c->dt, i, TAG, c->comm);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_SUCCESS;
}

static int alltoall_isend_irecv(sk_ctx *c) {
	int n = 0, rc;
	for (int i = 0; i < c->nprocs; i++) {
		rc = MPI_Irecv(c->a->rbuf + (size_t)i * blk(c), c->count, c->dt, i, TAG, c->comm, &c->req[n++]);
		if (rc != MPI_SUCCESS) return rc;
	}
	for (int i = 0; i < c->nprocs; i++) {
		rc = MPI_Isend(c->a->sbuf + (size_t)i * blk(c), c->count, c->dt, i, TAG, c->comm, &c->req[n++]);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_Waitall(n, c->req, MPI_STATUSES_IGNORE);
}

static int gather_send_recv(sk_ctx *c) {
	int root = c->a->root;
	if (c->rank != root) return MPI_Send(c->a->sbuf, c->count, c->dt, root, TAG, c->comm);
	for (int i = 0; i < c->nprocs; i++) {
		if (i == root) continue;
		int rc = MPI_Recv(c->a->rbuf + (size_t)i * blk(c), c->count, c->dt, i, TAG, c->comm, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_SUCCESS;
}

static int allreduce_reduce_bcast(sk_ctx *c) {
	int rc = MPI_Reduce(c->a->sbuf, c->a->rbuf, c->count, c->dt, c->op, 0, c->comm);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Bcast(c->a->rbuf, c->count, c->dt, 0, c->comm);
}

/* Ordered all-to-all: in phase i every rank exchanges with its i-th neighbours, so no
 * two messages contend for one receiver; large messages get a barrier between phases
 * to keep the phases from overlapping (Kutzner et al.). */
static int phase_barrier(sk_ctx *c) {
	if (c->a->barrier_above >= 0 && c->a->bytes > c->a->barrier_above) return MPI_Barrier(c->comm);
	return MPI_SUCCESS;
}

static int alltoall_ordered(sk_ctx *c) {
	int p = c->nprocs, me = c->rank, b = blk(c);
	for (int i = 1; i < p; i++) {
		int to = (me + i) % p, from = (me - i + p) % p;
		int rc = MPI_Sendrecv(c->a->sbuf + (size_t)to * b, c->count, c->dt, to, TAG, c->a->rbuf + (size_t)from * b,
		                      c->count, c->dt, from, TAG, c->comm, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS && i < p - 1) rc = phase_barrier(c);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_SUCCESS;
}

/* Node-aware: phase j exchanges with every rank of node (mine + j) and (mine - j). */
static int alltoall_ordered_nodes(sk_ctx *c) {
	const sk_args *a = c->a;
	int p = c->nprocs, b = blk(c), mine = a->node_of[c->rank];
	for (int j = 0; j < a->nnodes; j++) {
		int to = (mine + j) % a->nnodes, from = (mine - j + a->nnodes) % a->nnodes, n = 0, rc;
		for (int r = 0; r < p; r++) {
			if (a->node_of[r] != from || r == c->rank) continue;
			rc = MPI_Irecv(a->rbuf + (size_t)r * b, c->count, c->dt, r, TAG, c->comm, &c->req[n++]);
			if (rc != MPI_SUCCESS) return rc;
		}
		for (int r = 0; r < p; r++) {
			if (a->node_of[r] != to || r == c->rank) continue;
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
static int bcast_barrier(sk_ctx *c) {
	int rc = bcast(c);
	return rc == MPI_SUCCESS ? MPI_Barrier(c->comm) : rc;
}

static int bcast_rounds(sk_ctx *c) {
	for (int r = 0; r < c->nprocs; r++) {
		int rc = MPI_Bcast(c->a->sbuf, c->count, c->dt, r, c->comm);
		if (rc != MPI_SUCCESS) return rc;
	}
	return MPI_SUCCESS;
}

/* One step: every process in turn acknowledges a broadcast to the root; the root
 * keeps the longest time to an acknowledgement, less that acknowledgement's own time. */
static int bcast_ack(sk_ctx *c) {
	int root = c->a->root, rc;
	char ack = 0;
	double worst = -INFINITY; /* may stay negative: the subtracted ack can exceed a tiny broadcast */
	for (int t = 0; t < c->nprocs; t++) {
		if (t == root) continue;
		double t0 = sk_now();
		if ((rc = bcast(c)) != MPI_SUCCESS) return rc;
		if (c->rank == t) {
			if ((rc = MPI_Send(&ack, 1, MPI_BYTE, root, TAG + 1, c->comm)) != MPI_SUCCESS) return rc;
		} else if (c->rank == root) {
			if ((rc = MPI_Recv(&ack, 1, MPI_BYTE, t, TAG + 1, c->comm, MPI_STATUS_IGNORE)) != MPI_SUCCESS) return rc;
			double d = sk_now() - t0 - c->ack_s[t];
			if (d > worst) worst = d;
		}
	}
	if (c->rank == root && c->nprocs > 1) c->result += worst;
	return MPI_SUCCESS;
}

/* ack_times measures, before the timed loop, the one-way time of an acknowledgement
 * from every process to the root: half the mean of a few 1-byte round trips. */
static int ack_times(sk_ctx *c) {
	enum { ROUNDS = 16 };
	int root = c->a->root, rc;
	char b = 0;
	c->ack_s = calloc((size_t)c->nprocs, sizeof(double));
	if (!c->ack_s) return -1;
	for (int t = 0; t < c->nprocs; t++) {
		if (t == root || (c->rank != root && c->rank != t)) continue;
		double t0 = sk_now();
		for (int i = 0; i < ROUNDS; i++) {
			if (c->rank == root) {
				if ((rc = MPI_Send(&b, 1, MPI_BYTE, t, TAG + 2, c->comm)) != MPI_SUCCESS) return rc;
				rc = MPI_Recv(&b, 1, MPI_BYTE, t, TAG + 2, c->comm, MPI_STATUS_IGNORE);
			} else {
				if ((rc = MPI_Recv(&b, 1, MPI_BYTE, root, TAG + 2, c->comm, MPI_STATUS_IGNORE)) != MPI_SUCCESS) return rc;
				rc = MPI_Send(&b, 1, MPI_BYTE, root, TAG + 2, c->comm);
			}
			if (rc != MPI_SUCCESS) return rc;
		}
		c->ack_s[t] = (sk_now() - t0) / ROUNDS / 2;
	}
	return MPI_SUCCESS;
}

const sk_step sk_coll_steps[SK_OP_COUNT] = {
	[SK_OP_BARRIER] = barrier,
	[SK_OP_BCAST] = bcast,
	[SK_OP_REDUCE] = reduce,
	[SK_OP_ALLREDUCE] = allreduce,
	[SK_OP_REDUCE_SCATTER] = reduce_scatter,
	[SK_OP_REDUCE_SCATTER_BLOCK] = reduce_scatter_block,
	[SK_OP_ALLTOALL] = alltoall,
	[SK_OP_ALLTOALLV] = alltoallv,
	[SK_OP_GATHER] = gather,
	[SK_OP_GATHERV] = gatherv,
	[SK_OP_ALLGATHER] = allgather,
	[SK_OP_ALLGATHERV] = allgatherv,
	[SK_OP_SCATTER] = scatter,
	[SK_OP_SCATTERV] = scatterv,
	[SK_OP_SCAN] = scan,
	[SK_OP_EXSCAN] = exscan,
	[SK_OP_BCAST_USING_SEND_RECV] = bcast_send_recv,
	[SK_OP_ALLTOALL_USING_ISEND_IRECV] = alltoall_isend_irecv,
	[SK_OP_GATHER_USING_SEND_RECV] = gather_send_recv,
	[SK_OP_ALLREDUCE_USING_REDUCE_BCAST] = allreduce_reduce_bcast,
	[SK_OP_ALLTOALL_ORDERED] = alltoall_ordered,
	[SK_OP_ALLTOALL_ORDERED_NODES] = alltoall_ordered_nodes,
	[SK_OP_BCAST_BARRIER] = bcast_barrier,
	[SK_OP_BCAST_ROUNDS] = bcast_rounds,
	[SK_OP_BCAST_ACK] = bcast_ack,
};

static MPI_Datatype datatype(int code, int *size) {
	switch (code) {
	case SK_DT_CHAR: *size = 1; return MPI_CHAR;
	case SK_DT_INT: *size = (int)sizeof(int); return MPI_INT;
	case SK_DT_LONG: *size = (int)sizeof(long); return MPI_LONG;
	case SK_DT_FLOAT: *size = (int)sizeof(float); return MPI_FLOAT;
	case SK_DT_DOUBLE: *size = (int)sizeof(double); return MPI_DOUBLE;
	}
	*size = 1;
	return MPI_BYTE;
}

static MPI_Op reduce_op(int code) {
	switch (code) {
	case SK_RED_PROD: return MPI_PROD;
	case SK_RED_MIN: return MPI_MIN;
	case SK_RED_MAX: return MPI_MAX;
	case SK_RED_BAND: return MPI_BAND;
	case SK_RED_BOR: return MPI_BOR;
	case SK_RED_BXOR: return MPI_BXOR;
	}
	return MPI_SUM;
}

/* sk_coll_setup prepares what the timed loop needs, for every op: requests for the
 * windowed and baseline kernels, and for collectives the datatype, operator, counts. */
int sk_coll_setup(sk_ctx *c) {
	const sk_args *a = c->a;
	int rc = MPI_Comm_rank(c->comm, &c->rank);
	if (rc == MPI_SUCCESS) rc = MPI_Comm_size(c->comm, &c->nprocs);
	if (rc != MPI_SUCCESS) return rc;
	int nreq = 2 * (a->window > c->nprocs ? a->window : c->nprocs);
	c->req = malloc(sizeof(MPI_Request) * (size_t)nreq);
	c->counts = malloc(sizeof(int) * (size_t)c->nprocs);
	c->displs = malloc(sizeof(int) * (size_t)c->nprocs);
	if (!c->req || !c->counts || !c->displs) return -1;
	int size;
	c->dt = datatype(a->dtype, &size);
	c->op = reduce_op(a->redop);
	c->count = a->bytes / size;
	for (int i = 0; i < c->nprocs; i++) {
		c->counts[i] = c->count;
		c->displs[i] = i * c->count;
	}
	if (a->op == SK_OP_BCAST_ROUNDS) c->ops_per_step = c->nprocs;
	if (a->op == SK_OP_BCAST_ACK) {
		c->own_result = 1;
		return ack_times(c);
	}
	return MPI_SUCCESS;
}

void sk_coll_free(sk_ctx *c) {
	free(c->req);
	free(c->counts);
	free(c->displs);
	free(c->ack_s);
	c->ack_s = NULL;
	c->req = NULL;
	c->counts = c->displs = NULL;
}
