//go:build mpi

/* Point-to-point steps (named in kernels.c). One step is one operation as reported: a
 * round trip for ping-pongs, one exchange for Sendrecv and ping-ping, one window (plus
 * its ack) for the bandwidth operations. */
#include <limits.h>
#include <stdlib.h>
#include <time.h>
#include "kernels.h"
#include "sk_common.h"

#define TAG 1
#define ACK_TAG 2
#define HANG_TAG 3

typedef sk_ctx ctx;

/* recv_* receive one message from the peer into rbuf, each the way its op names. */
static int recv_plain(ctx *c) {
	const sk_args *a = &c->a;
	return MPI_Recv(a->rbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, MPI_STATUS_IGNORE);
}

static int recv_any_tag(ctx *c) {
	const sk_args *a = &c->a;
	return MPI_Recv(a->rbuf, a->bytes, MPI_BYTE, a->peer, MPI_ANY_TAG, c->comm, MPI_STATUS_IGNORE);
}

/* IMB's AnySource benchmarks: the sender is found by matching (the pair's other ranks
 * idle, so only the peer can match). */
static int recv_any_source(ctx *c) {
	const sk_args *a = &c->a;
	return MPI_Recv(a->rbuf, a->bytes, MPI_BYTE, MPI_ANY_SOURCE, TAG, c->comm, MPI_STATUS_IGNORE);
}

static int recv_iprobe(ctx *c) {
	const sk_args *a = &c->a;
	int flag = 0;
	while (!flag) CK(MPI_Iprobe(a->peer, TAG, c->comm, &flag, MPI_STATUS_IGNORE));
	return recv_plain(c);
}

static int recv_irecv(ctx *c) {
	const sk_args *a = &c->a;
	MPI_Request r;
	CK(MPI_Irecv(a->rbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &r));
	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static int send_plain(ctx *c) {
	const sk_args *a = &c->a;
	return MPI_Send(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm);
}

static int send_sync(ctx *c) {
	const sk_args *a = &c->a;
	return MPI_Ssend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm);
}

static int send_buffered(ctx *c) {
	const sk_args *a = &c->a;
	return MPI_Bsend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm);
}

static int send_isend(ctx *c) {
	const sk_args *a = &c->a;
	MPI_Request r;
	CK(MPI_Isend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &r));
	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static int send_issend(ctx *c) {
	const sk_args *a = &c->a;
	MPI_Request r;
	CK(MPI_Issend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &r));
	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* A ping-pong: the initiator sends then receives, the responder the reverse. */
#define PINGPONG(name, sendf, recvf)                 \
	int name(ctx *c) {                               \
		if (c->a.role == SK_ROLE_INITIATOR) {        \
			CK(sendf(c));                            \
			return recvf(c);                         \
		}                                            \
		CK(recvf(c));                                \
		return sendf(c);                             \
	}

PINGPONG(sk_step_pingpong_send_recv, send_plain, recv_plain)
PINGPONG(sk_step_pingpong_send_iprobe_recv, send_plain, recv_iprobe)
PINGPONG(sk_step_pingpong_send_irecv, send_plain, recv_irecv)
PINGPONG(sk_step_pingpong_send_recv_at, send_plain, recv_any_tag)
PINGPONG(sk_step_pingpong_send_recv_as, send_plain, recv_any_source)
PINGPONG(sk_step_pingpong_ssend_recv, send_sync, recv_plain)
PINGPONG(sk_step_pingpong_bsend_recv, send_buffered, recv_plain)
PINGPONG(sk_step_pingpong_isend_recv, send_isend, recv_plain)
PINGPONG(sk_step_pingpong_issend_recv, send_issend, recv_plain)

/* One way, back to back: the initiator's MPI_Ssend, the responder's MPI_Recv. A
 * synchronous send returns once its receive has matched, so the steps pace themselves
 * (SKaMPI's Send). */
static int sk_step_ssend(ctx *c) { return c->a.role == SK_ROLE_INITIATOR ? send_sync(c) : recv_plain(c); }

/* The buffer MPI_Bsend copies into, attached once per point outside the timing: room for
 * one message, as a ping-pong has at most one in flight from each side. */
static int prepare_bsend(ctx *c) {
	long long size = c->a.bytes + MPI_BSEND_OVERHEAD;
	if (size > INT_MAX) return SK_ERR_ARGS;
	if (!(c->bsend_buf = malloc((size_t)size))) return SK_ERR_NOMEM;
	int rc = MPI_Buffer_attach(c->bsend_buf, (int)size);
	if (rc != MPI_SUCCESS) {
		free(c->bsend_buf);
		c->bsend_buf = NULL;
	}
	return rc;
}

/* Detaching waits until the buffered messages have left, then the buffer is ours again. */
static int close_bsend(ctx *c) {
	void *buf;
	int size;
	if (!c->bsend_buf) return MPI_SUCCESS;
	int rc = MPI_Buffer_detach(&buf, &size);
	if (rc == MPI_SUCCESS) {
		free(c->bsend_buf);
		c->bsend_buf = NULL;
	}
	return rc;
}

int sk_step_pingpong_sendrecv(ctx *c) {
	const sk_args *a = &c->a;
	return MPI_Sendrecv(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, a->rbuf, a->bytes, MPI_BYTE,
	                    a->peer, TAG, c->comm, MPI_STATUS_IGNORE);
}

int sk_step_pingpong_sendrecv_replace(ctx *c) {
	const sk_args *a = &c->a;
	return MPI_Sendrecv_replace(a->rbuf, a->bytes, MPI_BYTE, a->peer, TAG, a->peer, TAG, c->comm,
	                            MPI_STATUS_IGNORE);
}

/* Both send at once; Isend first so large (rendezvous) messages cannot deadlock. */
int sk_step_pingping_send_recv(ctx *c) {
	const sk_args *a = &c->a;
	MPI_Request r;
	CK(MPI_Isend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &r));
	CK(recv_plain(c));
	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

int sk_step_pingping_send_recv_as(ctx *c) {
	const sk_args *a = &c->a;
	MPI_Request r;
	CK(MPI_Isend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &r));
	CK(recv_any_source(c));
	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* The receive slot of message i of a window: all in one buffer (slot_stride 0), as
 * OSU's osu_bw and IMB do, or each in its own. */
static char *slot(ctx *c, int i) { return c->a.rbuf + (size_t)i * (size_t)c->a.slot_stride; }

/* One window: the sender posts `window` Isends, the receiver `window` Irecvs into
 * their slots; the receiver acknowledges the whole window with one byte so the
 * sender's time covers delivery. */
int sk_step_bandwidth_isend_irecv(ctx *c) {
	const sk_args *a = &c->a;
	int w = a->window;
	if (a->role == SK_ROLE_INITIATOR) {
		for (int i = 0; i < w; i++)
			CK(MPI_Isend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &c->req[i]));
		CK(MPI_Waitall(w, c->req, MPI_STATUSES_IGNORE));
		return MPI_Recv(&c->ack, 1, MPI_BYTE, a->peer, ACK_TAG, c->comm, MPI_STATUS_IGNORE);
	}
	for (int i = 0; i < w; i++)
		CK(MPI_Irecv(slot(c, i), a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &c->req[i]));
	CK(MPI_Waitall(w, c->req, MPI_STATUSES_IGNORE));
	return MPI_Send(&c->ack, 1, MPI_BYTE, a->peer, ACK_TAG, c->comm);
}

int sk_step_bibandwidth_isend_irecv(ctx *c) {
	const sk_args *a = &c->a;
	int w = a->window;
	for (int i = 0; i < w; i++)
		CK(MPI_Irecv(slot(c, i), a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &c->req[i]));
	for (int i = 0; i < w; i++)
		CK(MPI_Isend(a->sbuf, a->bytes, MPI_BYTE, a->peer, TAG, c->comm, &c->req[w + i]));
	return MPI_Waitall(2 * w, c->req, MPI_STATUSES_IGNORE);
}

/* A shift: every rank sends to the next and receives from the previous (2 ranks: an
 * exchange), the MPI side of the GROMACS pattern
 * (families/shmem/kernels/sendrecv.c). */
int sk_step_sendrecv_shift(ctx *c) {
	int p = c->nprocs, to = (c->rank + 1) % p, from = (c->rank - 1 + p) % p;
	return MPI_Sendrecv(c->a.sbuf, c->a.bytes, MPI_BYTE, to, TAG, c->a.rbuf, c->a.bytes, MPI_BYTE, from, TAG, c->comm,
	                    MPI_STATUS_IGNORE);
}

/* IMB's Exchange: every rank sends msg_bytes to both neighbours of a ring
 * (MPI_Isend to the left and the right), receives from both (MPI_Recv, into two
 * blocks), then waits for its sends. */
int sk_step_exchange(ctx *c) {
	int p = c->nprocs, left = (c->rank - 1 + p) % p, right = (c->rank + 1) % p, n = c->a.bytes;
	CK(MPI_Isend(c->a.sbuf, n, MPI_BYTE, left, TAG, c->comm, &c->req[0]));
	CK(MPI_Isend(c->a.sbuf, n, MPI_BYTE, right, TAG, c->comm, &c->req[1]));
	CK(MPI_Recv(c->a.rbuf, n, MPI_BYTE, left, TAG, c->comm, MPI_STATUS_IGNORE));
	CK(MPI_Recv(c->a.rbuf + n, n, MPI_BYTE, right, TAG, c->comm, MPI_STATUS_IGNORE));
	return MPI_Waitall(2, c->req, MPI_STATUSES_IGNORE);
}

/* IMB-P2P's random traffic. Every rank draws the same pseudo-random sequence (splitmix64
 * from the same state, advanced alike by every step on every rank: the engine runs the
 * same steps everywhere), so all agree on who talks to whom without a message. */
static int draw(ctx *c, int n) {
	unsigned long long z = (c->rng += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return (int)((z ^ (z >> 31)) % (unsigned long long)n);
}

/* Unirandom: a step is nprocs messages one after another, each from a random rank to
 * another (MPI_Send, MPI_Recv); ranks not drawn skip it. Birandom: the two drawn
 * exchange (MPI_Irecv, MPI_Send, MPI_Wait on both). */
static int random_pairs(ctx *c, int both) {
	int p = c->nprocs, n = c->a.bytes;
	if (p < 2) return SK_ERR_ARGS;
	for (int k = 0; k < p; k++) {
		int from = draw(c, p), to;
		do to = draw(c, p);
		while (to == from);
		int other = c->rank == from ? to : c->rank == to ? from : -1;
		if (other < 0) continue;
		if (both) {
			MPI_Request r;
			CK(MPI_Irecv(c->a.rbuf, n, MPI_BYTE, other, TAG, c->comm, &r));
			CK(MPI_Send(c->a.sbuf, n, MPI_BYTE, other, TAG, c->comm));
			CK(MPI_Wait(&r, MPI_STATUS_IGNORE));
		} else if (c->rank == from) {
			CK(MPI_Send(c->a.sbuf, n, MPI_BYTE, to, TAG, c->comm));
		} else {
			CK(MPI_Recv(c->a.rbuf, n, MPI_BYTE, from, TAG, c->comm, MPI_STATUS_IGNORE));
		}
	}
	return MPI_SUCCESS;
}
static int sk_step_unirandom(ctx *c) { return random_pairs(c, 0); }
static int sk_step_birandom(ctx *c) { return random_pairs(c, 1); }

/* Corandom: all ranks in a ring whose order is shuffled again every step; every rank
 * receives from its predecessor and sends to its successor at once. */
static int prepare_ring(ctx *c) {
	if (c->nprocs < 2) return SK_ERR_ARGS;
	if (!(c->ring = malloc(sizeof(int) * (size_t)c->nprocs))) return SK_ERR_NOMEM;
	for (int i = 0; i < c->nprocs; i++) c->ring[i] = i;
	return MPI_SUCCESS;
}

static int sk_step_corandom(ctx *c) {
	int p = c->nprocs, n = c->a.bytes, me = 0;
	for (int i = 0; i < p; i++) {
		int j = draw(c, p), t = c->ring[i];
		c->ring[i] = c->ring[j];
		c->ring[j] = t;
	}
	while (c->ring[me] != c->rank) me++;
	int from = c->ring[(me + p - 1) % p], to = c->ring[(me + 1) % p];
	MPI_Request r;
	CK(MPI_Irecv(c->a.rbuf, n, MPI_BYTE, from, TAG, c->comm, &r));
	CK(MPI_Send(c->a.sbuf, n, MPI_BYTE, to, TAG, c->comm));
	return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* Self-tests. A receive nobody sends to: a real hang inside the library. */
int sk_step_selftest_hang(ctx *c) {
	return MPI_Recv(c->a.rbuf, 1, MPI_BYTE, c->a.peer, HANG_TAG, c->comm, MPI_STATUS_IGNORE);
}

/* A ping-pong whose responder flips the middle byte of its reply (and restores it
 * once sent): what check_data must report as corrupt. */
int sk_step_selftest_corrupt(ctx *c) {
	const sk_args *a = &c->a;
	if (a->role == SK_ROLE_INITIATOR) {
		CK(send_plain(c));
		return recv_plain(c);
	}
	CK(recv_plain(c));
	if (a->bytes > 0) a->sbuf[a->bytes / 2] ^= 0x5A;
	int rc = send_plain(c);
	if (a->bytes > 0) a->sbuf[a->bytes / 2] ^= 0x5A;
	return rc;
}

/* One round trip of the self-tests below. */
static int pingpong_plain(ctx *c) {
	if (c->a.role == SK_ROLE_INITIATOR) {
		CK(send_plain(c));
		return recv_plain(c);
	}
	CK(recv_plain(c));
	return send_plain(c);
}

/* A ping-pong at scheduler speed: both ranks sleep 20 ms a step. It moves, so the
 * watchdog must leave it to its time cap. */
int sk_step_selftest_slow(ctx *c) {
	const struct timespec nap = {0, 20 * 1000 * 1000};
	nanosleep(&nap, NULL);
	return pingpong_plain(c);
}

/* A ping-pong whose first TRANSIENT_STEPS steps (a warm-up's included) sleep 2 ms on both
 * ranks first, as a job still starting would: a point that stops on them converges on
 * the transient, not on the ping-pong. */
#define TRANSIENT_STEPS 7
int sk_step_selftest_transient(ctx *c) {
	if (c->seq++ < TRANSIENT_STEPS) {
		const struct timespec nap = {0, 2 * 1000 * 1000};
		nanosleep(&nap, NULL);
	}
	return pingpong_plain(c);
}

/* What a routine with a stack-smashing bug does: abort() in the middle of the loop. */
int sk_step_selftest_crash(ctx *c) {
	if (c->a.role == SK_ROLE_INITIATOR) abort();
	return MPI_Recv(c->a.rbuf, 1, MPI_BYTE, c->a.peer, HANG_TAG, c->comm, MPI_STATUS_IGNORE);
}

/* What a library bug usually is: a write through a NULL pointer (SIGSEGV) in the middle
 * of the loop, on the responder (not rank 0, which writes the results: the launcher
 * ends it, and it must not take the crash for an interruption); the initiator waits. */
int sk_step_selftest_segfault(ctx *c) {
	if (c->a.role == SK_ROLE_RESPONDER) {
		volatile int *nowhere = NULL;
		*nowhere = 1;
	}
	return MPI_Recv(c->a.rbuf, 1, MPI_BYTE, c->a.peer, HANG_TAG, c->comm, MPI_STATUS_IGNORE);
}

/* The timer itself: one clock read (sk_now, what every timing here reads) on the
 * initiator, its partner passive. The cost a per-call timing carries is about one of
 * these (sk_timer_overhead measures it exactly so). */
int sk_step_wtime(sk_ctx *c) {
	if (c->a.role == SK_ROLE_INITIATOR) {
		volatile double t = sk_now();
		(void)t;
	}
	return MPI_SUCCESS;
}

/* The kernels of this file (kernels.c joins the tables). */
static const sk_kernel kernels[] = {
	{.name = "pingpong_send_recv", .step = sk_step_pingpong_send_recv, .check = SK_CHECK_PEER, .layout = SK_LAY_PINGPONG},
	CHECKED("pingpong_send_iprobe_recv", sk_step_pingpong_send_iprobe_recv, 0, SK_CHECK_PEER),
	CHECKED("pingpong_send_irecv", sk_step_pingpong_send_irecv, 0, SK_CHECK_PEER),
	CHECKED("pingpong_send_recv_at", sk_step_pingpong_send_recv_at, 0, SK_CHECK_PEER),
	CHECKED("pingpong_send_recv_as", sk_step_pingpong_send_recv_as, 0, SK_CHECK_PEER),
	CHECKED("pingpong_ssend_recv", sk_step_pingpong_ssend_recv, 0, SK_CHECK_PEER),
	{.name = "pingpong_bsend_recv", .step = sk_step_pingpong_bsend_recv, .prepare = prepare_bsend, .close = close_bsend,
	 .check = SK_CHECK_PEER},
	CHECKED("pingpong_isend_recv", sk_step_pingpong_isend_recv, 0, SK_CHECK_PEER),
	CHECKED("pingpong_issend_recv", sk_step_pingpong_issend_recv, 0, SK_CHECK_PEER),
	CHECKED("pingpong_sendrecv", sk_step_pingpong_sendrecv, 0, SK_CHECK_PEER),
	CHECKED("pingpong_sendrecv_replace", sk_step_pingpong_sendrecv_replace, 0, SK_CHECK_REPLACE),
	CHECKED("pingping_send_recv", sk_step_pingping_send_recv, 0, SK_CHECK_PEER),
	CHECKED("pingping_send_recv_as", sk_step_pingping_send_recv_as, 0, SK_CHECK_PEER),
	CHECKED("ssend", sk_step_ssend, 0, SK_CHECK_RESPONDER),
	/* also every pair of the multi-pair bandwidth */
	CHECKED("bandwidth_isend_irecv", sk_step_bandwidth_isend_irecv, 0, SK_CHECK_RESPONDER),
	CHECKED("bibandwidth_isend_irecv", sk_step_bibandwidth_isend_irecv, 0, SK_CHECK_PEER),
	KERNEL("sendrecv_shift", sk_step_sendrecv_shift, COLL),
	KERNEL("exchange", sk_step_exchange, COLL),
	KERNEL("unirandom", sk_step_unirandom, COLL),
	KERNEL("birandom", sk_step_birandom, COLL),
	{.name = "corandom", .step = sk_step_corandom, .prepare = prepare_ring, .flags = COLL},
	KERNEL("selftest_hang", sk_step_selftest_hang, 0),
	KERNEL("selftest_crash", sk_step_selftest_crash, 0),
	KERNEL("selftest_segfault", sk_step_selftest_segfault, 0),
	KERNEL("selftest_slow", sk_step_selftest_slow, 0),
	KERNEL("selftest_transient", sk_step_selftest_transient, 0),
	KERNEL("wtime", sk_step_wtime, 0),
	CHECKED("selftest_corrupt", sk_step_selftest_corrupt, 0, SK_CHECK_PEER),
};
const sk_table sk_pt2pt_table = SK_TABLE(kernels);
