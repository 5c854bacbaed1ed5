//go:build mpi

/* Non-blocking operations, measured the method paper's way ("Non-blocking operations",
 * "Separating calls", "Busy wait"; Alg. 6-9): a kernel posts the operation (post) and
 * MPI_Waitall completes it; sk_run_nonblocking times one of five measurements of it:
 *   full     post immediately followed by completion;
 *   post     the post alone, the completion outside the timing;
 *   wait     the completion alone after a post (iteration timer; with the global-loop
 *            timer Go measures it as full minus post, the subtraction method);
 *   overlap  post, a busy computation of c->overlap_spin iterations, completion;
 *   compute  the same computation alone, to be taken off overlap.
 * In a pair only the initiator runs the non-blocking operation; the responder is its
 * blocking partner (the kernel's step) and does nothing in the compute measurement. */
#include <math.h>
#include <stdlib.h>
#include "kernels.h"
#include "sk_common.h"

#define TAG 1
#define ACK_TAG 2

/* The post of the timer calibration: nothing, called like a kernel's post. */
static int no_post(sk_ctx *c) {
	(void)c;
	return MPI_SUCCESS;
}

double sk_timer_overhead(void) {
	/* Through a volatile pointer, as nb_step calls k->post: no inlining, no folding. */
	sk_step volatile post = no_post;
	enum { BATCHES = 15, N = 2000 };
	double b[BATCHES];
	for (int r = 0; r < BATCHES; r++) {
		double t = 0;
		for (int i = 0; i < N; i++) {
			double t0 = sk_now();
			post(NULL);
			t += sk_now() - t0;
		}
		b[r] = t / N;
	}
	return sk_median(b, BATCHES);
}

static int complete(sk_ctx *c) {
	return c->k->complete ? c->k->complete(c) : MPI_Waitall(c->nreq, c->req, MPI_STATUSES_IGNORE);
}

/* compute spins c->overlap_spin iterations in chunks of progress_every; with test set, the
 * requests are tested after each chunk (so a library that only progresses inside MPI
 * calls can). The compute measurement runs the same chunks without the tests. With
 * timed set (the iteration timer), the tests' own time is added to *t: it is time in
 * the library, never hidden. */
static int compute(sk_ctx *c, int test, double *t) {
	long long left = c->overlap_spin, every = c->a.progress_every > 0 ? c->a.progress_every : left;
	int done = 0;
	while (left > 0) {
		long long k = left < every ? left : every;
		sk_spin(k);
		left -= k;
		if (test && !done && c->a.progress_every > 0 && c->nreq > 0) {
			double t0 = t ? sk_now() : 0;
			int rc = MPI_Testall(c->nreq, c->req, &done, MPI_STATUSES_IGNORE);
			if (t) *t += sk_now() - t0 - c->a.timer_overhead;
			if (rc != MPI_SUCCESS) return rc;
		}
	}
	return MPI_SUCCESS;
}

/* One step of the non-blocking operation as the phase measures it; *t gets the time
 * that counts under the iteration timer. */
static int nb_step(sk_ctx *c, int phase, int iteration, double *t) {
	const sk_kernel *k = c->k;
	/* Every interval timed per call carries one timer interval's cost; the loop as a
	 * whole carries none per operation. It is taken off here (recorded with the point),
	 * so a post timed per call and a loop timed once can be subtracted. */
	const double oh = c->a.timer_overhead;
	int rc;
	if (iteration && (phase == SK_NB_FULL || phase == SK_NB_POST || phase == SK_NB_WAIT)) {
		/* The iteration timer times the whole and its parts with one and the same
		 * sequence, Alg. 8's three clock reads: a read between the post and the
		 * completion delays the completion (the transfer may progress meanwhile), so a
		 * whole timed without it would not be the sum of the parts timed with it. */
		double t0 = sk_now();
		rc = k->post(c);
		double t1 = sk_now();
		if (rc == MPI_SUCCESS) rc = complete(c);
		double t2 = sk_now();
		*t += phase == SK_NB_POST ? t1 - t0 - oh : phase == SK_NB_WAIT ? t2 - t1 - oh : t2 - t0 - 2 * oh;
		return rc;
	}
	double t0 = iteration || phase == SK_NB_POST ? sk_now() : 0;
	switch (phase) {
	case SK_NB_COMPUTE:
		rc = compute(c, 0, NULL);
		break;
	case SK_NB_POST: /* global-loop timer: the post alone, the completion untimed */
		rc = k->post(c);
		*t += sk_now() - t0 - oh;
		if (rc == MPI_SUCCESS) rc = complete(c);
		return rc;
	case SK_NB_OVERLAP:
		rc = k->post(c);
		if (rc != MPI_SUCCESS) return rc;
		if (iteration) {
			/* The paper's iteration-level overlap: four timer calls, the post and the
			 * completion timed apart, the computation between them not counted (its
			 * progress tests are). */
			double t1 = sk_now();
			rc = compute(c, 1, t);
			double t2 = sk_now();
			if (rc == MPI_SUCCESS) rc = complete(c);
			*t += (t1 - t0) + (sk_now() - t2) - 2 * oh;
			return rc;
		}
		rc = compute(c, 1, NULL);
		if (rc == MPI_SUCCESS) rc = complete(c);
		break;
	default: /* SK_NB_FULL */
		if (k->full) {
			rc = k->full(c);
			break;
		}
		rc = k->post(c);
		if (rc == MPI_SUCCESS) rc = complete(c);
	}
	if (iteration) *t += sk_now() - t0 - oh;
	return rc;
}

int sk_run_nonblocking(sk_ctx *c, long long iters, double *total) {
	int phase = c->phase, iteration = c->a.timer == SK_TIMER_ITERATION, rc = MPI_SUCCESS;
	long long i = 0;
	double t = 0;
	if (c->a.role == SK_ROLE_RESPONDER) {
		/* The blocking partner: the same steps whatever is measured, none while the
		 * initiator only computes. */
		double t0 = sk_now();
		if (phase != SK_NB_COMPUTE)
			for (i = 0; i < iters && rc == MPI_SUCCESS; i++) {
				if (c->a.cold_regions > 1) sk_next_region(c); /* in step with the initiator */
				rc = c->step(c);
				SK_STEP_DONE();
			}
		*total = sk_now() - t0;
		return rc;
	}
	/* The post is always timed on its own: nothing else can time it without its
	 * completion. The others have one timer pair around the loop unless asked per step. */
	int global = !iteration && phase != SK_NB_POST && phase != SK_NB_WAIT;
	if (global && phase == SK_NB_FULL && c->k->full && c->a.cold_regions < 2) {
		/* One call per operation, as a C loop would make. */
		const sk_step full = c->k->full;
		double t0 = sk_now();
		for (i = 0; i < iters && rc == MPI_SUCCESS; i++) {
			rc = full(c);
			SK_STEP_DONE();
		}
		*total = sk_now() - t0;
		return rc;
	}
	double t0 = sk_now();
	for (i = 0; i < iters && rc == MPI_SUCCESS; i++) {
		if (c->a.cold_regions > 1) sk_next_region(c);
		rc = nb_step(c, phase, iteration, &t);
		SK_STEP_DONE();
	}
	*total = global ? sk_now() - t0 : t;
	return rc;
}

/* Point-to-point posts. The initiator posts; the step is its blocking responder. */
int sk_post_isend(sk_ctx *c) {
	c->nreq = 1;
	return MPI_Isend(c->a.sbuf, c->a.bytes, MPI_BYTE, c->a.peer, TAG, c->comm, &c->req[0]);
}
int sk_post_issend(sk_ctx *c) {
	c->nreq = 1;
	return MPI_Issend(c->a.sbuf, c->a.bytes, MPI_BYTE, c->a.peer, TAG, c->comm, &c->req[0]);
}
static int responder_recv(sk_ctx *c) {
	return MPI_Recv(c->a.rbuf, c->a.bytes, MPI_BYTE, c->a.peer, TAG, c->comm, MPI_STATUS_IGNORE);
}
int sk_step_isend(sk_ctx *c) { return responder_recv(c); }
int sk_step_issend(sk_ctx *c) { return responder_recv(c); }

/* The receiver side: the receive is posted before the sender may send, so the data
 * arrives while the receiver computes (a 0-byte "ready" message, part of the post,
 * lets the sender go). */
int sk_post_irecv(sk_ctx *c) {
	c->nreq = 1;
	int rc = MPI_Irecv(c->a.rbuf, c->a.bytes, MPI_BYTE, c->a.peer, TAG, c->comm, &c->req[0]);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Send(&c->ack, 0, MPI_BYTE, c->a.peer, ACK_TAG, c->comm);
}
int sk_step_irecv(sk_ctx *c) {
	int rc = MPI_Recv(&c->ack, 0, MPI_BYTE, c->a.peer, ACK_TAG, c->comm, MPI_STATUS_IGNORE);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Send(c->a.sbuf, c->a.bytes, MPI_BYTE, c->a.peer, TAG, c->comm);
}

/* A non-blocking ping-pong: the reply's receive and the message's send posted
 * together, the whole round trip completed by one MPI_Waitall. */
int sk_post_isend_irecv_pingpong(sk_ctx *c) {
	c->nreq = 2;
	int rc = MPI_Irecv(c->a.rbuf, c->a.bytes, MPI_BYTE, c->a.peer, TAG, c->comm, &c->req[0]);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Isend(c->a.sbuf, c->a.bytes, MPI_BYTE, c->a.peer, TAG, c->comm, &c->req[1]);
}
int sk_step_isend_irecv_pingpong(sk_ctx *c) {
	int rc = responder_recv(c);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Send(c->a.sbuf, c->a.bytes, MPI_BYTE, c->a.peer, TAG, c->comm);
}

/* Non-blocking collectives: buffers and counts as their blocking forms (coll.c). */
#define ONE(call)                 \
	do {                          \
		c->nreq = 1;              \
		return (call);            \
	} while (0)

int sk_post_ibarrier(sk_ctx *c) { ONE(MPI_Ibarrier(c->comm, &c->req[0])); }
int sk_post_ibcast(sk_ctx *c) { ONE(MPI_Ibcast(c->a.sbuf, c->count, c->dt, c->a.root, c->comm, &c->req[0])); }
int sk_post_ireduce(sk_ctx *c) {
	ONE(MPI_Ireduce(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->a.root, c->comm, &c->req[0]));
}
int sk_post_iallreduce(sk_ctx *c) {
	ONE(MPI_Iallreduce(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm, &c->req[0]));
}
int sk_post_ialltoall(sk_ctx *c) {
	ONE(MPI_Ialltoall(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->comm, &c->req[0]));
}
int sk_post_ialltoallv(sk_ctx *c) {
	ONE(MPI_Ialltoallv(c->a.sbuf, c->counts, c->displs, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->comm,
	                   &c->req[0]));
}
int sk_post_iallgather(sk_ctx *c) {
	ONE(MPI_Iallgather(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->comm, &c->req[0]));
}
int sk_post_igather(sk_ctx *c) {
	ONE(MPI_Igather(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm, &c->req[0]));
}
int sk_post_iscatter(sk_ctx *c) {
	ONE(MPI_Iscatter(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm, &c->req[0]));
}
int sk_post_ireduce_scatter_block(sk_ctx *c) {
	ONE(MPI_Ireduce_scatter_block(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm, &c->req[0]));
}
/* The v-forms with the equal counts of their blocking forms (c->counts, c->displs). */
int sk_post_iallgatherv(sk_ctx *c) {
	ONE(MPI_Iallgatherv(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->comm, &c->req[0]));
}
int sk_post_igatherv(sk_ctx *c) {
	ONE(MPI_Igatherv(c->a.sbuf, c->count, c->dt, c->a.rbuf, c->counts, c->displs, c->dt, c->a.root, c->comm,
	                 &c->req[0]));
}
int sk_post_iscatterv(sk_ctx *c) {
	ONE(MPI_Iscatterv(c->a.sbuf, c->counts, c->displs, c->dt, c->a.rbuf, c->count, c->dt, c->a.root, c->comm,
	                  &c->req[0]));
}
int sk_post_ireduce_scatter(sk_ctx *c) {
	ONE(MPI_Ireduce_scatter(c->a.sbuf, c->a.rbuf, c->counts, c->dt, c->op, c->comm, &c->req[0]));
}
int sk_post_iscan(sk_ctx *c) { ONE(MPI_Iscan(c->a.sbuf, c->a.rbuf, c->count, c->dt, c->op, c->comm, &c->req[0])); }

/* The kernels of this file (kernels.c joins the tables). NB: a pair kernel, posted by
 * its post, whose responder runs its step; NBCOLL: a collective, posted. */
#define NB(name_, post_, step_, check_) \
	{.name = (name_), .step = (step_), .flags = SK_K_NONBLOCKING, .check = (check_), .post = (post_)}
#define NBCOLL(name_, post_, check_) {.name = (name_), .flags = COLL | SK_K_NONBLOCKING, .check = (check_), .post = (post_)}
static const sk_kernel kernels[] = {
	NB("isend", sk_post_isend, sk_step_isend, SK_CHECK_RESPONDER),
	NB("issend", sk_post_issend, sk_step_issend, SK_CHECK_RESPONDER),
	NB("irecv", sk_post_irecv, sk_step_irecv, SK_CHECK_INITIATOR),
	NB("isend_irecv_pingpong", sk_post_isend_irecv_pingpong, sk_step_isend_irecv_pingpong, SK_CHECK_PEER),
	NBCOLL("ibarrier", sk_post_ibarrier, SK_CHECK_NONE),
	NBCOLL("ibcast", sk_post_ibcast, SK_CHECK_BCAST),
	NBCOLL("ireduce", sk_post_ireduce, SK_CHECK_NONE),
	NBCOLL("iallreduce", sk_post_iallreduce, SK_CHECK_NONE),
	NBCOLL("ialltoall", sk_post_ialltoall, SK_CHECK_ALLTOALL),
	NBCOLL("ialltoallv", sk_post_ialltoallv, SK_CHECK_ALLTOALL),
	NBCOLL("iallgather", sk_post_iallgather, SK_CHECK_ALLGATHER),
	NBCOLL("igather", sk_post_igather, SK_CHECK_GATHER),
	NBCOLL("iscatter", sk_post_iscatter, SK_CHECK_SCATTER),
	NBCOLL("ireduce_scatter_block", sk_post_ireduce_scatter_block, SK_CHECK_NONE),
	NBCOLL("iallgatherv", sk_post_iallgatherv, SK_CHECK_ALLGATHER),
	NBCOLL("igatherv", sk_post_igatherv, SK_CHECK_GATHER),
	NBCOLL("iscatterv", sk_post_iscatterv, SK_CHECK_SCATTER),
	NBCOLL("ireduce_scatter", sk_post_ireduce_scatter, SK_CHECK_NONE),
	NBCOLL("iscan", sk_post_iscan, SK_CHECK_NONE),
};
const sk_table sk_nonblocking_table = SK_TABLE(kernels);
