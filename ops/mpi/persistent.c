//go:build mpi

/* Persistent and partitioned operations. A persistent collective (MPI-4's
 * MPI_<Coll>_init, or Open MPI's MPIX_<Coll>_init from its pcollreq extension) is
 * made once per point by the prepare hook and run by MPI_Start + MPI_Wait in every
 * step; its init is measured apart (<coll>_init: the init call timed alone, the
 * request freed outside the time). The persistent ping-pong (MPI_Send_init,
 * MPI_Recv_init; MPI-1) and the partitioned one (MPI_Psend_init, MPI_Precv_init,
 * MPI_Pready per partition; MPI-4) make their requests once per point too.
 *
 * What the library lacks is known when this file is compiled: its kernels are then
 * table lines with an `unsupported` reason, and sk_prepare refuses them with
 * SK_ERR_UNSUPPORTED; the binary builds and runs everything else. */
#include <stdlib.h>
#include "kernels.h"

#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#if MPI_VERSION >= 4
#define SK_PCOLL 1
#define SK_PINIT(name) MPI_##name##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define SK_PCOLL 1
#define SK_PINIT(name) MPIX_##name##_init
#else
#define SK_PCOLL 0
#endif
#define SK_PARTITIONED (MPI_VERSION >= 4)

#define TAG 11

/* What this build offers, for skampi version: 1 native (MPI-4), 2 an extension, 0 none. */
int sk_have_persistent_collectives(void) {
#if MPI_VERSION >= 4
	return 1;
#elif SK_PCOLL
	return 2;
#else
	return 0;
#endif
}
int sk_have_partitioned(void) { return SK_PARTITIONED; }

static int close_persistent(sk_ctx *c) {
	int rc = MPI_SUCCESS;
	for (int i = 0; i < c->npreq; i++) {
		int r = MPI_Request_free(&c->preq[i]);
		if (rc == MPI_SUCCESS) rc = r;
	}
	c->npreq = 0;
	return rc;
}

/* A kernel this build cannot run: sk_prepare refuses it before any step. */
__attribute__((unused)) static int step_unsupported(sk_ctx *c) {
	(void)c;
	return SK_ERR_UNSUPPORTED;
}

#if SK_PCOLL
static int step_start_wait(sk_ctx *c) {
	int rc = MPI_Start(&c->preq[0]);
	return rc == MPI_SUCCESS ? MPI_Wait(&c->preq[0], MPI_STATUS_IGNORE) : rc;
}

/* PCOLL(lname, call): the init of one collective into *r (call reads c and r), its
 * prepare hook (the request of the point) and its init-cost step. */
#define PCOLL(lname, call)                                                \
	static int init_##lname(sk_ctx *c, MPI_Request *r) { return (call); } \
	static int prep_##lname(sk_ctx *c) {                                  \
		int rc = init_##lname(c, &c->preq[0]);                            \
		if (rc == MPI_SUCCESS) c->npreq = 1;                              \
		return rc;                                                        \
	}                                                                     \
	static int initstep_##lname(sk_ctx *c) {                              \
		MPI_Request r;                                                    \
		double t0 = sk_now();                                             \
		int rc = init_##lname(c, &r);                                     \
		c->result += sk_now() - t0;                                       \
		return rc == MPI_SUCCESS ? MPI_Request_free(&r) : rc;             \
	}
#define I MPI_INFO_NULL
PCOLL(barrier, SK_PINIT(Barrier)(c->comm, I, r))
PCOLL(bcast, SK_PINIT(Bcast)(c->a.sbuf, c->count, c->dt, c->a.root, c->comm, I, r))
PCOLL(reduce, SK_PINIT(Reduce)(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->a.root, c->comm, I, r))
PCOLL(allreduce, SK_PINIT(Allreduce)(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm, I, r))
PCOLL(reduce_scatter, SK_PINIT(Reduce_scatter)(c->a.sbuf, c->a.rbuf, c->counts, c->dt, c->op, c->comm, I, r))
PCOLL(reduce_scatter_block,
      SK_PINIT(Reduce_scatter_block)(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm, I, r))
PCOLL(alltoall, SK_PINIT(Alltoall)(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->comm, I, r))
PCOLL(alltoallv, SK_PINIT(Alltoallv)(c->a.sbuf, c->counts, c->displs, c->dt, c->a.rbuf, c->counts, c->displs, c->dt,
                                     c->comm, I, r))
PCOLL(gather, SK_PINIT(Gather)(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm, I, r))
PCOLL(gatherv, SK_PINIT(Gatherv)(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->a.root,
                                 c->comm, I, r))
PCOLL(allgather, SK_PINIT(Allgather)(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->comm, I, r))
PCOLL(allgatherv,
      SK_PINIT(Allgatherv)(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->comm, I, r))
PCOLL(scatter, SK_PINIT(Scatter)(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm, I, r))
PCOLL(scatterv, SK_PINIT(Scatterv)(c->a.sbuf, c->counts, c->displs, c->dt, c->a.rbuf, c->count, c->dt, c->a.root,
                                   c->comm, I, r))
PCOLL(alltoallw, SK_PINIT(Alltoallw)(c->a.sbuf, c->counts, c->bdispls, c->wtypes, c->a.rbuf, c->counts, c->bdispls,
                                     c->wtypes, c->comm, I, r))
#undef I
/* Alltoallw's arrays first (coll_v.c), for the request of the point and for the init. */
static int prep_alltoallw_w(sk_ctx *c) {
	int rc = sk_prepare_alltoallw(c);
	return rc == MPI_SUCCESS ? prep_alltoallw(c) : rc;
}
#define ALLTOALLW_LINES                                                                                         \
	{.name = "alltoallw_persistent", .step = step_start_wait, .prepare = prep_alltoallw_w, .flags = COLL,        \
	 .check = SK_CHECK_ALLTOALL, .close = close_persistent},                                                    \
	    {.name = "alltoallw_init", .step = initstep_alltoallw, .prepare = sk_prepare_alltoallw,                  \
	     .flags = COLL | SK_K_OWN_RESULT}
/* The persistent form and the init's cost of a collective. */
#define PCOLL_LINES(lname, mpiname, check_)                                                                       \
	{.name = #lname "_persistent", .step = step_start_wait, .prepare = prep_##lname, .flags = COLL, .check = (check_), \
	 .close = close_persistent},                                                                                  \
	    {.name = #lname "_init", .step = initstep_##lname, .flags = COLL | SK_K_OWN_RESULT}
#else
#define PCOLL_LINES(lname, mpiname, check_)                                                                     \
	{.name = #lname "_persistent", .step = step_unsupported, .flags = COLL, .check = (check_),                    \
	 .unsupported = mpiname ": no persistent collectives"},                                                      \
	    {.name = #lname "_init", .step = step_unsupported, .flags = COLL | SK_K_OWN_RESULT,                      \
	     .unsupported = mpiname ": no persistent collectives"}
#define ALLTOALLW_LINES PCOLL_LINES(alltoallw, "MPI_Alltoallw_init", SK_CHECK_ALLTOALL)
#endif

/* The persistent ping-pong (osu_latency_persistent): each side's send and receive made
 * once per point; a step is MPI_Start + MPI_Wait of the send, then of the receive (the
 * responder the other way round). */
static int prep_pingpong_persistent(sk_ctx *c) {
	int rc = MPI_Send_init(c->a.sbuf, c->a.bytes, MPI_BYTE, c->a.peer, TAG, c->comm, &c->preq[0]);
	if (rc != MPI_SUCCESS) return rc;
	c->npreq = 1;
	rc = MPI_Recv_init(c->a.rbuf, c->a.bytes, MPI_BYTE, c->a.peer, TAG, c->comm, &c->preq[1]);
	if (rc == MPI_SUCCESS) c->npreq = 2;
	return rc;
}

static int start_wait(MPI_Request *r) {
	int rc = MPI_Start(r);
	return rc == MPI_SUCCESS ? MPI_Wait(r, MPI_STATUS_IGNORE) : rc;
}

static int step_pingpong_persistent(sk_ctx *c) {
	int first = c->a.role == SK_ROLE_INITIATOR ? 0 : 1, rc = start_wait(&c->preq[first]);
	return rc == MPI_SUCCESS ? start_wait(&c->preq[1 - first]) : rc;
}

/* The persistent bandwidth (osu_bw_persistent, osu_bibw_persistent): a window of
 * MPI_Send_init or MPI_Recv_init made once per point in c->req (room for two windows),
 * c->nreq of them live; a step is MPI_Startall + MPI_Waitall of the window, then, one
 * way, Bandwidth_Isend_Irecv's 1-byte ack from the receiver. The receives go to their
 * slots (one shared unless recv_slots = "per-message"), as pt2pt.c's. */
static int init_window(sk_ctx *c, int send, int first) {
	const sk_args *a = &c->a;
	for (int i = 0; i < a->window; i++) {
		MPI_Request *r = &c->req[first + i];
		char *slot = a->rbuf + (size_t)i * (size_t)a->slot_stride;
		int rc = send ? MPI_Send_init(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, r)
		              : MPI_Recv_init(slot, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, r);
		if (rc != MPI_SUCCESS) return rc;
		c->nreq = first + i + 1;
	}
	return MPI_SUCCESS;
}

static int close_window(sk_ctx *c) {
	int rc = MPI_SUCCESS;
	for (int i = 0; i < c->nreq; i++) {
		int r = MPI_Request_free(&c->req[i]);
		if (rc == MPI_SUCCESS) rc = r;
	}
	c->nreq = 0;
	return rc;
}

static int prep_bandwidth_persistent(sk_ctx *c) {
	int rc = init_window(c, c->a.role == SK_ROLE_INITIATOR, 0);
	if (rc != MPI_SUCCESS) close_window(c); /* no close after a failed prepare */
	return rc;
}

static int step_bandwidth_persistent(sk_ctx *c) {
	int w = c->a.window, rc = MPI_Startall(w, c->req);
	if (rc == MPI_SUCCESS) rc = MPI_Waitall(w, c->req, MPI_STATUSES_IGNORE);
	if (rc != MPI_SUCCESS) return rc;
	if (c->a.role == SK_ROLE_INITIATOR)
		return MPI_Recv(&c->ack, 1, MPI_BYTE, c->a.peer, TAG + 1, c->comm, MPI_STATUS_IGNORE);
	return MPI_Send(&c->ack, 1, MPI_BYTE, c->a.peer, TAG + 1, c->comm);
}

/* Both ways: the receives first, then the sends, all started at once. */
static int prep_bibandwidth_persistent(sk_ctx *c) {
	int rc = init_window(c, 0, 0);
	if (rc == MPI_SUCCESS) rc = init_window(c, 1, c->a.window);
	if (rc != MPI_SUCCESS) close_window(c);
	return rc;
}

static int step_bibandwidth_persistent(sk_ctx *c) {
	int n = 2 * c->a.window, rc = MPI_Startall(n, c->req);
	return rc == MPI_SUCCESS ? MPI_Waitall(n, c->req, MPI_STATUSES_IGNORE) : rc;
}

#if SK_PARTITIONED
/* Partitioned: msg_bytes in a->partitions parts, each made ready by MPI_Pready after
 * MPI_Start; the receiver starts its receive and waits for the whole. */
static int prep_pingpong_partitioned(sk_ctx *c) {
	int parts = c->a.partitions > 0 ? c->a.partitions : 1, count = c->a.bytes / parts;
	if (c->a.bytes % parts) return SK_ERR_ARGS;
	int rc = MPI_Psend_init(c->a.sbuf, parts, count, MPI_BYTE, c->a.peer, TAG, c->comm, MPI_INFO_NULL, &c->preq[0]);
	if (rc != MPI_SUCCESS) return rc;
	c->npreq = 1;
	rc = MPI_Precv_init(c->a.rbuf, parts, count, MPI_BYTE, c->a.peer, TAG, c->comm, MPI_INFO_NULL, &c->preq[1]);
	if (rc == MPI_SUCCESS) c->npreq = 2;
	return rc;
}

static int send_partitioned(sk_ctx *c) {
	int rc = MPI_Start(&c->preq[0]), parts = c->a.partitions > 0 ? c->a.partitions : 1;
	for (int p = 0; p < parts && rc == MPI_SUCCESS; p++) rc = MPI_Pready(p, c->preq[0]);
	return rc == MPI_SUCCESS ? MPI_Wait(&c->preq[0], MPI_STATUS_IGNORE) : rc;
}

static int step_pingpong_partitioned(sk_ctx *c) {
	int rc;
	if (c->a.role == SK_ROLE_INITIATOR) {
		if ((rc = send_partitioned(c)) != MPI_SUCCESS) return rc;
		return start_wait(&c->preq[1]);
	}
	if ((rc = start_wait(&c->preq[1])) != MPI_SUCCESS) return rc;
	return send_partitioned(c);
}
#define PARTITIONED_LINE                                                                                         \
	{.name = "pingpong_partitioned", .step = step_pingpong_partitioned, .prepare = prep_pingpong_partitioned, \
	 .check = SK_CHECK_PEER, .close = close_persistent}
#else
#define PARTITIONED_LINE                                                            \
	{.name = "pingpong_partitioned", .step = step_unsupported, .check = SK_CHECK_PEER, \
	 .unsupported = "MPI_Psend_init: no partitioned communication"}
#endif

/* The kernels of this file (kernels.c joins the tables). */
static const sk_kernel kernels[] = {
	PCOLL_LINES(barrier, "MPI_Barrier_init", SK_CHECK_NONE),
	PCOLL_LINES(bcast, "MPI_Bcast_init", SK_CHECK_BCAST),
	PCOLL_LINES(reduce, "MPI_Reduce_init", SK_CHECK_NONE),
	PCOLL_LINES(allreduce, "MPI_Allreduce_init", SK_CHECK_NONE),
	PCOLL_LINES(reduce_scatter, "MPI_Reduce_scatter_init", SK_CHECK_NONE),
	PCOLL_LINES(reduce_scatter_block, "MPI_Reduce_scatter_block_init", SK_CHECK_NONE),
	PCOLL_LINES(alltoall, "MPI_Alltoall_init", SK_CHECK_ALLTOALL),
	PCOLL_LINES(alltoallv, "MPI_Alltoallv_init", SK_CHECK_ALLTOALL),
	ALLTOALLW_LINES,
	PCOLL_LINES(gather, "MPI_Gather_init", SK_CHECK_GATHER),
	PCOLL_LINES(gatherv, "MPI_Gatherv_init", SK_CHECK_GATHER),
	PCOLL_LINES(allgather, "MPI_Allgather_init", SK_CHECK_ALLGATHER),
	PCOLL_LINES(allgatherv, "MPI_Allgatherv_init", SK_CHECK_ALLGATHER),
	PCOLL_LINES(scatter, "MPI_Scatter_init", SK_CHECK_SCATTER),
	PCOLL_LINES(scatterv, "MPI_Scatterv_init", SK_CHECK_SCATTER),
	{.name = "pingpong_persistent", .step = step_pingpong_persistent, .prepare = prep_pingpong_persistent,
	 .check = SK_CHECK_PEER, .close = close_persistent},
	{.name = "bandwidth_persistent", .step = step_bandwidth_persistent, .prepare = prep_bandwidth_persistent,
	 .check = SK_CHECK_RESPONDER, .close = close_window},
	{.name = "bibandwidth_persistent", .step = step_bibandwidth_persistent, .prepare = prep_bibandwidth_persistent,
	 .check = SK_CHECK_PEER, .close = close_window},
	PARTITIONED_LINE,
};
const sk_table sk_persistent_table = SK_TABLE(kernels);
