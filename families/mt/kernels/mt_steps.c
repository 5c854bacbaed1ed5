//go:build mpi

/* The steps of the multi-threaded kernels (mt.c runs them in its threads) and their
 * table: osu_latency_mt at 1:1 (thread pairs) and at 1:N (one sender thread, N
 * receiver threads sharing its messages), osu_bw per thread pair, IMB-MT's PingPingMT,
 * SendRecvMT and BibandMT. */
#include "mt.h"
#include "sk_common.h"

static int step_pingpong(mt_thread *t) {
	const sk_args *a = &t->s->c->a;
	if (a->role == SK_ROLE_INITIATOR) {
		CK(MPI_Send(t->sbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm));
		return MPI_Recv(t->rbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm, MPI_STATUS_IGNORE);
	}
	CK(MPI_Recv(t->rbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm, MPI_STATUS_IGNORE));
	return MPI_Send(t->sbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm);
}

/* osu_latency_mt's default (-t 1:N, one sender thread): the sender's round trip, out
 * on MT_TAG_OUT and back on MT_TAG_BACK; every receiver thread posts its receive on
 * the same communicator and tag, so any of them may take any message (the library
 * decides which: that contention is what is measured). */
static int step_pingpong_fan(mt_thread *t) {
	const sk_args *a = &t->s->c->a;
	if (a->role == SK_ROLE_INITIATOR) {
		CK(MPI_Send(t->sbuf, a->bytes, MPI_BYTE, t->peer, MT_TAG_OUT, t->comm));
		return MPI_Recv(t->rbuf, a->bytes, MPI_BYTE, t->peer, MT_TAG_BACK, t->comm, MPI_STATUS_IGNORE);
	}
	CK(MPI_Recv(t->rbuf, a->bytes, MPI_BYTE, t->peer, MT_TAG_OUT, t->comm, MPI_STATUS_IGNORE));
	return MPI_Send(t->sbuf, a->bytes, MPI_BYTE, t->peer, MT_TAG_BACK, t->comm);
}

/* osu_bw's step, per thread pair: a window of messages one way, into one receive buffer, then a
 * 1-byte ack back. */
static int step_bandwidth(mt_thread *t) {
	const sk_args *a = &t->s->c->a;
	int w = a->window > 0 ? a->window : 1;
	char ack = 0;
	if (a->role == SK_ROLE_INITIATOR) {
		for (int i = 0; i < w; i++) CK(MPI_Isend(t->sbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm, &t->req[i]));
		CK(MPI_Waitall(w, t->req, MPI_STATUSES_IGNORE));
		return MPI_Recv(&ack, 1, MPI_BYTE, t->peer, t->tag, t->comm, MPI_STATUS_IGNORE);
	}
	for (int i = 0; i < w; i++) CK(MPI_Irecv(t->rbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm, &t->req[i]));
	CK(MPI_Waitall(w, t->req, MPI_STATUSES_IGNORE));
	return MPI_Send(&ack, 1, MPI_BYTE, t->peer, t->tag, t->comm);
}

/* IMB-MT's PingPingMT: both threads of a pair send at once, then receive. */
static int step_pingping(mt_thread *t) {
	const sk_args *a = &t->s->c->a;
	CK(MPI_Isend(t->sbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm, &t->req[0]));
	CK(MPI_Recv(t->rbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm, MPI_STATUS_IGNORE));
	return MPI_Wait(&t->req[0], MPI_STATUS_IGNORE);
}

/* IMB-MT's SendRecvMT on a pair: MPI_Sendrecv with the partner thread. */
static int step_sendrecv(mt_thread *t) {
	const sk_args *a = &t->s->c->a;
	return MPI_Sendrecv(t->sbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->rbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm,
	                    MPI_STATUS_IGNORE);
}

/* osu_bibw's step per thread (IMB-MT's BibandMT): both sides post a window of receives
 * and of sends, then wait for all. */
static int step_bibandwidth(mt_thread *t) {
	const sk_args *a = &t->s->c->a;
	int w = a->window > 0 ? a->window : 1;
	for (int i = 0; i < w; i++) CK(MPI_Irecv(t->rbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm, &t->req[i]));
	for (int i = 0; i < w; i++) CK(MPI_Isend(t->sbuf, a->bytes, MPI_BYTE, t->peer, t->tag, t->comm, &t->req[w + i]));
	return MPI_Waitall(2 * w, t->req, MPI_STATUSES_IGNORE);
}

static int prepare_pingpong(sk_ctx *c) { return sk_mt_prepare(c, step_pingpong, 1, 0); }
static int prepare_pingpong_fan(sk_ctx *c) { return sk_mt_prepare(c, step_pingpong_fan, 1, 1); }
static int prepare_bandwidth(sk_ctx *c) { return sk_mt_prepare(c, step_bandwidth, 0, 0); }
static int prepare_pingping(sk_ctx *c) { return sk_mt_prepare(c, step_pingping, 1, 0); }
static int prepare_sendrecv(sk_ctx *c) { return sk_mt_prepare(c, step_sendrecv, 1, 0); }
static int prepare_bibandwidth(sk_ctx *c) { return sk_mt_prepare(c, step_bibandwidth, 1, 0); }

/* The kernels of mt.c's threads, and the numbers they read by name (in MT_* order). */
static const char *const mt_params[] = {"threads", "thread_tags", "thread_pin", NULL};
#define MT(name_, prepare_)                                                                               \
	{.name = (name_), .step = NULL, .prepare = (prepare_), .close = sk_mt_close, .run = sk_mt_run, \
	 .params = mt_params, .release = sk_mt_release}
static const sk_kernel kernels[] = {
	MT("pingpong_send_recv_mt", prepare_pingpong),
	MT("pingpong_send_recv_mt_1ton", prepare_pingpong_fan),
	MT("bandwidth_mt", prepare_bandwidth),
	MT("pingping_send_recv_mt", prepare_pingping),
	MT("sendrecv_mt", prepare_sendrecv),
	MT("bibandwidth_mt", prepare_bibandwidth),
};
static const sk_table table = SK_TABLE(kernels);
static const sk_table *const tables[] = {&table};

const sk_table *const *sk_mt_tables(int *n) {
	*n = (int)(sizeof tables / sizeof tables[0]);
	return tables;
}
