//go:build mpi

/* Point-to-point timed loops. One step is one operation as reported: a round trip for
 * ping-pongs, one exchange for Sendrecv and ping-ping, one window (plus its ack) for
 * the bandwidth operations. */
#include <math.h>
#include <stdlib.h>
#include "skampi.h"

#define TAG 1
#define ACK_TAG 2
#define HANG_TAG 3

typedef sk_ctx ctx;
typedef sk_step step_fn;

#define CK(call)                                    \
	do {                                            \
		int rc_ = (call);                           \
		if (rc_ != MPI_SUCCESS) return rc_;         \
	} while (0)

/* recv_* receive one message from the peer into rbuf, each the way its op names. */
static int recv_plain(ctx *c) {
	const sk_args *a = c->a;
	return MPI_Recv(a->rbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, MPI_STATUS_IGNORE);
}

static int recv_any_tag(ctx *c) {
	const sk_args *a = c->a;
	return MPI_Recv(a->rbuf, a->bytes, MPI_BYTE, a->peer, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
}

static int recv_iprobe(ctx *c) {
	const sk_args *a = c->a;
	int flag = 0;
	while (!flag) CK(MPI_Iprobe(a->peer, TAG, c->comm, &flag, MPI_STATUS_IGNORE));
	return recv_plain(c);
}

static int recv_irecv(ctx *c) {
	const sk_args *a = c->a;
	MPI_Request r;
	CK(MPI_Irecv(a->rbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &r));
	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static int send_plain(ctx *c) {
	const sk_args *a = c->a;
	return MPI_Send(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm);
}

static int send_sync(ctx *c) {
	const sk_args *a = c->a;
	return MPI_Ssend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm);
}

static int send_isend(ctx *c) {
	const sk_args *a = c->a;
	MPI_Request r;
	CK(MPI_Isend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &r));
	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static int send_issend(ctx *c) {
	const sk_args *a = c->a;
	MPI_Request r;
	CK(MPI_Issend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &r));
	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* A ping-pong: the initiator sends then receives, the responder the reverse. */
#define PINGPONG(name, sendf, recvf)                 \
	static int name(ctx *c) {                        \
		if (c->a->role == SK_ROLE_INITIATOR) {       \
			CK(sendf(c));                            \
			return recvf(c);                         \
		}                                            \
		CK(recvf(c));                                \
		return sendf(c);                             \
	}

PINGPONG(pp_send_recv, send_plain, recv_plain)
PINGPONG(pp_send_iprobe_recv, send_plain, recv_iprobe)
PINGPONG(pp_send_irecv, send_plain, recv_irecv)
PINGPONG(pp_send_recv_at, send_plain, recv_any_tag)
PINGPONG(pp_ssend_recv, send_sync, recv_plain)
PINGPONG(pp_isend_recv, send_isend, recv_plain)
PINGPONG(pp_issend_recv, send_issend, recv_plain)

static int pp_sendrecv(ctx *c) {
	const sk_args *a = c->a;
	return MPI_Sendrecv(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, a->rbuf, a->bytes, MPI_BYTE,
	                    a->peer, TAG, c->comm, MPI_STATUS_IGNORE);
}

static int pp_sendrecv_replace(ctx *c) {
	const sk_args *a = c->a;
	return MPI_Sendrecv_replace(a->rbuf, a->bytes, MPI_BYTE, a->peer, TAG, a->peer, TAG, c->comm,
	                            MPI_STATUS_IGNORE);
}

/* Both send at once; Isend first so large (rendezvous) messages cannot deadlock. */
static int pingping(ctx *c) {
	const sk_args *a = c->a;
	MPI_Request r;
	CK(MPI_Isend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &r));
	CK(recv_plain(c));
	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* One window: the sender posts `window` Isends, the receiver `window` Irecvs into
 * distinct slots (overlapping receive buffers would be erroneous MPI); the receiver
 * acknowledges the whole window with one byte so the sender's time covers delivery. */
static int bw_window(ctx *c) {
	const sk_args *a = c->a;
	int w = a->window;
	if (a->role == SK_ROLE_INITIATOR) {
		for (int i = 0; i < w; i++)
			CK(MPI_Isend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &c->req[i]));
		CK(MPI_Waitall(w, c->req, MPI_STATUSES_IGNORE));
		return MPI_Recv(&c->ack, 1, MPI_BYTE, a->peer, ACK_TAG, c->comm, MPI_STATUS_IGNORE);
	}
	for (int i = 0; i < w; i++)
		CK(MPI_Irecv(a->rbuf + (size_t)i * a->bytes, a->bytes, MPI_BYTE, a->peer, TAG, c->comm,
		             &c->req[i]));
	CK(MPI_Waitall(w, c->req, MPI_STATUSES_IGNORE));
	return MPI_Send(&c->ack, 1, MPI_BYTE, a->peer, ACK_TAG, c->comm);
}

static int bibw_window(ctx *c) {
	const sk_args *a = c->a;
	int w = a->window;
	for (int i = 0; i < w; i++)
		CK(MPI_Irecv(a->rbuf + (size_t)i * a->bytes, a->bytes, MPI_BYTE, a->peer, TAG, c->comm,
		             &c->req[i]));
	for (int i = 0; i < w; i++)
		CK(MPI_Isend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &c->req[w + i]));
	return MPI_Waitall(2 * w, c->req, MPI_STATUSES_IGNORE);
}

/* Self-tests. A receive nobody sends to: a real hang inside the library. */
static int selftest_hang(ctx *c) {
	return MPI_Recv(c->a->rbuf, 1, MPI_BYTE, c->a->peer, HANG_TAG, c->comm, MPI_STATUS_IGNORE);
}

/* What a routine with a stack-smashing bug does: abort() in the middle of the loop. */
static int selftest_crash(ctx *c) {
	if (c->a->role == SK_ROLE_INITIATOR) abort();
	return MPI_Recv(c->a->rbuf, 1, MPI_BYTE, c->a->peer, HANG_TAG, c->comm, MPI_STATUS_IGNORE);
}

static const step_fn steps[SK_OP_COUNT] = {
	[SK_OP_PINGPONG_SEND_RECV] = pp_send_recv,
	[SK_OP_PINGPONG_SEND_IPROBE_RECV] = pp_send_iprobe_recv,
	[SK_OP_PINGPONG_SEND_IRECV] = pp_send_irecv,
	[SK_OP_PINGPONG_SEND_RECV_AT] = pp_send_recv_at,
	[SK_OP_PINGPONG_SSEND_RECV] = pp_ssend_recv,
	[SK_OP_PINGPONG_ISEND_RECV] = pp_isend_recv,
	[SK_OP_PINGPONG_ISSEND_RECV] = pp_issend_recv,
	[SK_OP_PINGPONG_SENDRECV] = pp_sendrecv,
	[SK_OP_PINGPONG_SENDRECV_REPLACE] = pp_sendrecv_replace,
	[SK_OP_PINGPING_SEND_RECV] = pingping,
	[SK_OP_BANDWIDTH_ISEND_IRECV] = bw_window,
	[SK_OP_BIBANDWIDTH_ISEND_IRECV] = bibw_window,
	[SK_OP_MULTIPAIR_BANDWIDTH] = bw_window,
	[SK_OP_SELFTEST_HANG] = selftest_hang,
	[SK_OP_SELFTEST_CRASH] = selftest_crash,
};

int sk_run(const sk_args *a, double *per_op) {
	*per_op = NAN;
	if (a->op < 0 || a->op >= SK_OP_COUNT || a->iters < 1 || a->bytes < 0) return -1;
	if (a->role == SK_ROLE_IDLE) return MPI_SUCCESS;
	ctx c = {.a = a, .comm = MPI_Comm_f2c(a->comm)};
	step_fn step = steps[a->op] ? steps[a->op] : sk_coll_steps[a->op];
	if (!step) return -1;
	int rc = sk_coll_setup(&c); /* counts, datatype, requests: all outside the timed loop */
	if (rc != MPI_SUCCESS) {
		sk_coll_free(&c);
		return rc;
	}
	int invalid = 0;
	if (a->start > 0) {
		invalid = sk_now() > a->start; /* arrived after the agreed instant: a late start */
		while (sk_now() < a->start)
			;
	}
	sk_in_op = 1;
	double total = 0;
	long long i;
	if (a->timer == SK_TIMER_ITERATION) {
		/* One timer pair per operation: kept to show how timer calls disturb small
		 * measurements (the method paper's comparison). */
		for (i = 0; i < a->iters && rc == MPI_SUCCESS; i++) {
			double t0 = sk_now();
			rc = step(&c);
			total += sk_now() - t0;
		}
	} else {
		double t0 = sk_now();
		for (i = 0; i < a->iters && rc == MPI_SUCCESS; i++) rc = step(&c);
		total = sk_now() - t0;
	}
	sk_in_op = 0;
	if (a->stop > 0 && sk_now() > a->stop) invalid = 1; /* overran its window */
	if (c.own_result) total = c.result;
	int per_step = c.ops_per_step > 0 ? c.ops_per_step : 1;
	sk_coll_free(&c);
	if (rc == MPI_SUCCESS && !invalid) *per_op = total / (double)a->iters / (double)per_step;
	return rc;
}
