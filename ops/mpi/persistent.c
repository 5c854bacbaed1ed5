//go:build mpi

/* Persistent and partitioned operations. A persistent collective (MPI_<Coll>_init, or
 * Open MPI's MPIX_<Coll>_init from its pcollreq extension) is made once per point by
 * the prepare hook and run by MPI_Start + MPI_Wait in every step; its init is measured
 * apart (<coll>_init: the init call timed alone, the request freed outside the time).
 * The persistent ping-pong (MPI_Send_init, MPI_Recv_init; MPI-1) and the partitioned
 * one (MPI_Psend_init, MPI_Precv_init, MPI_Pready per partition) make their requests
 * once per point too.
 *
 * What the library offers is asked of the library, never of MPI_VERSION (Open MPI 5.0
 * has these routines and says MPI 3.1): each routine beyond MPI-3.1 is declared here,
 * with the standard's prototype, as a weak reference. The linker leaves it NULL where
 * the library does not define it, so one binary runs everything its library has: a
 * kernel whose routine is missing is refused by sk_prepare (SK_ERR_UNSUPPORTED, its
 * table line's `missing` names the routine), everything else runs. Where mpi.h (or
 * Open MPI's mpi-ext.h) declares a routine too, the compiler checks that our prototype
 * is the same. The references stay weak only when the Go linker hands the link to the
 * system's (external linking: the default for every binary with this package, whose C
 * objects demand it); `-ldflags=-linkmode=internal` would make them strong
 * (TestWeakReferences checks the binary; docs/development.md). */
#include <stdlib.h>
#include "kernels.h"

#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* the MPIX_ prototypes, for the compiler to check ours against */
#endif
#endif

#define SK_WEAK __attribute__((weak))

/* The persistent collectives: X(Name, lname, parameters), the standard's prototype. */
#define SK_PCOLLS(X)                                                                                   \
	X(Barrier, barrier, (MPI_Comm, MPI_Info, MPI_Request *))                                           \
	X(Bcast, bcast, (void *, int, MPI_Datatype, int, MPI_Comm, MPI_Info, MPI_Request *))               \
	X(Reduce, reduce,                                                                                  \
	  (const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm, MPI_Info, MPI_Request *))       \
	X(Allreduce, allreduce,                                                                            \
	  (const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request *))            \
	X(Reduce_scatter, reduce_scatter,                                                                  \
	  (const void *, void *, const int[], MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request *))    \
	X(Reduce_scatter_block, reduce_scatter_block,                                                      \
	  (const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request *))            \
	X(Alltoall, alltoall,                                                                              \
	  (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request *)) \
	X(Alltoallv, alltoallv,                                                                            \
	  (const void *, const int[], const int[], MPI_Datatype, void *, const int[], const int[],         \
	   MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request *))                                               \
	X(Alltoallw, alltoallw,                                                                            \
	  (const void *, const int[], const int[], const MPI_Datatype[], void *, const int[], const int[], \
	   const MPI_Datatype[], MPI_Comm, MPI_Info, MPI_Request *))                                       \
	X(Gather, gather,                                                                                  \
	  (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm, MPI_Info,            \
	   MPI_Request *))                                                                                 \
	X(Gatherv, gatherv,                                                                                \
	  (const void *, int, MPI_Datatype, void *, const int[], const int[], MPI_Datatype, int, MPI_Comm, \
	   MPI_Info, MPI_Request *))                                                                       \
	X(Allgather, allgather,                                                                            \
	  (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request *)) \
	X(Allgatherv, allgatherv,                                                                          \
	  (const void *, int, MPI_Datatype, void *, const int[], const int[], MPI_Datatype, MPI_Comm,      \
	   MPI_Info, MPI_Request *))                                                                       \
	X(Scatter, scatter,                                                                                \
	  (const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm, MPI_Info,            \
	   MPI_Request *))                                                                                 \
	X(Scatterv, scatterv,                                                                              \
	  (const void *, const int[], const int[], MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm, \
	   MPI_Info, MPI_Request *))

/* Each collective's init: MPI_<Name>_init, weak; where the library is Open MPI, also
 * mpix_<lname>, its MPIX_<Name>_init, weak (the MPIX_ names are each library's own: only
 * Open MPI's pcollreq has these, with these prototypes); elsewhere mpix_<lname> is a NULL
 * of the same type. SK_PINIT is the one a call uses, the standard's first; NULL when the
 * library has neither. */
#define SK_DECLARE_MPI(Name, lname, params) extern int MPI_##Name##_init params SK_WEAK;
#ifdef OPEN_MPI
#define SK_MPIX_FALLBACK 1
#define SK_DECLARE_MPIX(Name, lname, params)      \
	extern int MPIX_##Name##_init params SK_WEAK; \
	static int (*const mpix_##lname) params = MPIX_##Name##_init;
#define SK_OR_MPIX(Name) " or MPIX_" #Name "_init"
#else
#define SK_MPIX_FALLBACK 0
#define SK_DECLARE_MPIX(Name, lname, params) static int (*const mpix_##lname) params = NULL;
#define SK_OR_MPIX(Name) ""
#endif
#define SK_DECLARE(Name, lname, params) SK_DECLARE_MPI(Name, lname, params) SK_DECLARE_MPIX(Name, lname, params)
SK_PCOLLS(SK_DECLARE)
#define SK_PINIT(Name, lname) (MPI_##Name##_init ? MPI_##Name##_init : mpix_##lname)

/* The partitioned routines the partitioned ping-pong calls (MPI_Parrived it does not). */
extern int MPI_Psend_init(const void *, int, MPI_Count, MPI_Datatype, int, int, MPI_Comm, MPI_Info,
                          MPI_Request *) SK_WEAK;
extern int MPI_Precv_init(void *, int, MPI_Count, MPI_Datatype, int, int, MPI_Comm, MPI_Info,
                          MPI_Request *) SK_WEAK;
extern int MPI_Pready(int, MPI_Request) SK_WEAK;

/* How the library provides persistent collective i (SK_PCOLLS' order), named in *name
 * ("Allreduce"): 1 as MPI_<Name>_init, 2 only as MPIX_<Name>_init, 0 not at all; -1
 * past the last. For skampi version (Capabilities). */
int sk_persistent_collective(int i, const char **name) {
	int n = 0;
#define SK_HOW(Name, lname, params)                          \
	if (i == n++) {                                          \
		*name = #Name;                                       \
		return MPI_##Name##_init ? 1 : mpix_##lname ? 2 : 0; \
	}
	SK_PCOLLS(SK_HOW)
#undef SK_HOW
	*name = NULL;
	return -1;
}

/* Whether a missing MPI_<Coll>_init is looked for as MPIX_<Coll>_init too (Open MPI). */
int sk_mpix_fallback(void) { return SK_MPIX_FALLBACK; }

/* The first partitioned routine the library lacks, NULL when it has them all. */
const char *sk_partitioned_missing(void) {
	if (!MPI_Psend_init) return "MPI_Psend_init";
	if (!MPI_Precv_init) return "MPI_Precv_init";
	if (!MPI_Pready) return "MPI_Pready";
	return NULL;
}

/* The routines this file reaches through weak references, i-th (NULL past the last):
 * TestWeakReferences checks that the binary kept them weak. */
const char *sk_weak_routine(int i) {
#define SK_NAME(Name, lname, params) "MPI_" #Name "_init",
#if SK_MPIX_FALLBACK
#define SK_XNAME(Name, lname, params) "MPIX_" #Name "_init",
#else
#define SK_XNAME(Name, lname, params)
#endif
	static const char *const names[] = {SK_PCOLLS(SK_NAME) SK_PCOLLS(SK_XNAME) "MPI_Psend_init", "MPI_Precv_init",
	                                    "MPI_Pready"};
#undef SK_NAME
#undef SK_XNAME
	return i >= 0 && i < (int)(sizeof names / sizeof names[0]) ? names[i] : NULL;
}

#define TAG 11

static int close_persistent(sk_ctx *c) {
	int rc = MPI_SUCCESS;
	for (int i = 0; i < c->npreq; i++) {
		int r = MPI_Request_free(&c->preq[i]);
		if (rc == MPI_SUCCESS) rc = r;
	}
	c->npreq = 0;
	return rc;
}

static int step_start_wait(sk_ctx *c) {
	int rc = MPI_Start(&c->preq[0]);
	return rc == MPI_SUCCESS ? MPI_Wait(&c->preq[0], MPI_STATUS_IGNORE) : rc;
}

/* PCOLL(Name, lname, args): the init of one collective into *r (args read c and r),
 * what it lacks (missing_<lname>: the routine's name, for sk_kernel_missing), its
 * prepare hook (the request of the point) and its init-cost step. sk_prepare never
 * runs these where missing_<lname> names something. */
#define PCOLL(Name, lname, args)                                                             \
	static const char *missing_##lname(void) {                                               \
		return SK_PINIT(Name, lname) ? NULL : "MPI_" #Name "_init" SK_OR_MPIX(Name);         \
	}                                                                                        \
	static int init_##lname(sk_ctx *c, MPI_Request *r) { return SK_PINIT(Name, lname) args; } \
	static int prep_##lname(sk_ctx *c) {                                                     \
		int rc = init_##lname(c, &c->preq[0]);                                               \
		if (rc == MPI_SUCCESS) c->npreq = 1;                                                 \
		return rc;                                                                           \
	}                                                                                        \
	static int initstep_##lname(sk_ctx *c) {                                                 \
		MPI_Request r;                                                                       \
		double t0 = sk_now();                                                                \
		int rc = init_##lname(c, &r);                                                        \
		c->result += sk_now() - t0;                                                          \
		return rc == MPI_SUCCESS ? MPI_Request_free(&r) : rc;                                \
	}
#define I MPI_INFO_NULL
PCOLL(Barrier, barrier, (c->comm, I, r))
PCOLL(Bcast, bcast, (c->a.sbuf, c->count, c->dt, c->a.root, c->comm, I, r))
PCOLL(Reduce, reduce, (c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->a.root, c->comm, I, r))
PCOLL(Allreduce, allreduce, (c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm, I, r))
PCOLL(Reduce_scatter, reduce_scatter, (c->a.sbuf, c->a.rbuf, c->counts, c->dt, c->op, c->comm, I, r))
PCOLL(Reduce_scatter_block, reduce_scatter_block, (c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm, I, r))
PCOLL(Alltoall, alltoall, (c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->comm, I, r))
PCOLL(Alltoallv, alltoallv,
      (c->a.sbuf, c->counts, c->displs, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->comm, I, r))
PCOLL(Gather, gather, (c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm, I, r))
PCOLL(Gatherv, gatherv,
      (c->a.sbuf, c->count, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->a.root, c->comm, I, r))
PCOLL(Allgather, allgather, (c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->comm, I, r))
PCOLL(Allgatherv, allgatherv, (c->a.sbuf, c->count, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->comm, I, r))
PCOLL(Scatter, scatter, (c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm, I, r))
PCOLL(Scatterv, scatterv,
      (c->a.sbuf, c->counts, c->displs, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm, I, r))
PCOLL(Alltoallw, alltoallw,
      (c->a.sbuf, c->counts, c->bdispls, c->wtypes, c->a.rbuf, c->counts, c->bdispls, c->wtypes, c->comm, I, r))
#undef I
/* Alltoallw's arrays first (coll_v.c), for the request of the point and for the init. */
static int prep_alltoallw_w(sk_ctx *c) {
	int rc = sk_prepare_alltoallw(c);
	return rc == MPI_SUCCESS ? prep_alltoallw(c) : rc;
}
#define ALLTOALLW_LINES                                                                                         \
	{.name = "alltoallw_persistent", .step = step_start_wait, .prepare = prep_alltoallw_w, .flags = COLL,        \
	 .check = SK_CHECK_ALLTOALL, .close = close_persistent, .missing = missing_alltoallw},                      \
	    {.name = "alltoallw_init", .step = initstep_alltoallw, .prepare = sk_prepare_alltoallw,                  \
	     .flags = COLL | SK_K_OWN_RESULT, .missing = missing_alltoallw}
/* The persistent form and the init's cost of a collective. */
#define PCOLL_LINES(lname, check_)                                                                                 \
	{.name = #lname "_persistent", .step = step_start_wait, .prepare = prep_##lname, .flags = COLL, .check = (check_), \
	 .close = close_persistent, .missing = missing_##lname},                                                      \
	    {.name = #lname "_init", .step = initstep_##lname, .flags = COLL | SK_K_OWN_RESULT, .missing = missing_##lname}

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

/* Partitioned: msg_bytes in c->partitions parts, each made ready by MPI_Pready after
 * MPI_Start; the receiver starts its receive and waits for the whole. */
static int prep_pingpong_partitioned(sk_ctx *c) {
	int parts = c->partitions > 0 ? c->partitions : 1, count = c->a.bytes / parts;
	if (c->a.bytes % parts) return SK_ERR_ARGS;
	int rc = MPI_Psend_init(c->a.sbuf, parts, count, MPI_BYTE, c->a.peer, TAG, c->comm, MPI_INFO_NULL, &c->preq[0]);
	if (rc != MPI_SUCCESS) return rc;
	c->npreq = 1;
	rc = MPI_Precv_init(c->a.rbuf, parts, count, MPI_BYTE, c->a.peer, TAG, c->comm, MPI_INFO_NULL, &c->preq[1]);
	if (rc == MPI_SUCCESS) c->npreq = 2;
	return rc;
}

static int send_partitioned(sk_ctx *c) {
	int rc = MPI_Start(&c->preq[0]), parts = c->partitions > 0 ? c->partitions : 1;
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

/* The kernels of this file (kernels.c joins the tables). */
static const sk_kernel kernels[] = {
	PCOLL_LINES(barrier, SK_CHECK_NONE),
	PCOLL_LINES(bcast, SK_CHECK_BCAST),
	PCOLL_LINES(reduce, SK_CHECK_NONE),
	PCOLL_LINES(allreduce, SK_CHECK_NONE),
	PCOLL_LINES(reduce_scatter, SK_CHECK_NONE),
	PCOLL_LINES(reduce_scatter_block, SK_CHECK_NONE),
	PCOLL_LINES(alltoall, SK_CHECK_ALLTOALL),
	PCOLL_LINES(alltoallv, SK_CHECK_ALLTOALL),
	ALLTOALLW_LINES,
	PCOLL_LINES(gather, SK_CHECK_GATHER),
	PCOLL_LINES(gatherv, SK_CHECK_GATHER),
	PCOLL_LINES(allgather, SK_CHECK_ALLGATHER),
	PCOLL_LINES(allgatherv, SK_CHECK_ALLGATHER),
	PCOLL_LINES(scatter, SK_CHECK_SCATTER),
	PCOLL_LINES(scatterv, SK_CHECK_SCATTER),
	{.name = "pingpong_persistent", .step = step_pingpong_persistent, .prepare = prep_pingpong_persistent,
	 .check = SK_CHECK_PEER, .close = close_persistent},
	{.name = "bandwidth_persistent", .step = step_bandwidth_persistent, .prepare = prep_bandwidth_persistent,
	 .check = SK_CHECK_RESPONDER, .close = close_window},
	{.name = "bibandwidth_persistent", .step = step_bibandwidth_persistent, .prepare = prep_bibandwidth_persistent,
	 .check = SK_CHECK_PEER, .close = close_window},
	{.name = "pingpong_partitioned", .step = step_pingpong_partitioned, .prepare = prep_pingpong_partitioned,
	 .check = SK_CHECK_PEER, .close = close_persistent, .missing = sk_partitioned_missing},
};
const sk_table sk_persistent_table = SK_TABLE(kernels);
