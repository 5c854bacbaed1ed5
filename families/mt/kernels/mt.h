/* What mt.c (the threads: made, started, timed, ended) and mt_steps.c (what each
 * multi-threaded kernel's threads do in a step) share. */
#ifndef SKAMPI_MT_H
#define SKAMPI_MT_H

#include <pthread.h>
#include "skampi.h"

/* The tags of a 1:N point (osu_latency_mt's): the sender's messages go out with
 * MT_TAG_OUT and come back with MT_TAG_BACK, whichever receiver thread answers; the
 * untimed handshake uses tag 0. */
enum { MT_TAG_OUT = 1, MT_TAG_BACK = 2 };

/* The numbers the kernels read by name (their table's params), in c->kparam. */
enum { MT_THREADS = 0, MT_THREAD_TAGS = 1, MT_THREAD_PIN = 2 };

typedef struct sk_mt sk_mt;
typedef struct {
	sk_mt *s;
	int idx, peer, tag, cpu, pin_cpu, rc;
	MPI_Comm comm;
	char *sbuf, *rbuf;
	MPI_Request *req;
	long long iters;   /* its steps in the last run */
	double t;          /* its last loop's time (s) */
	double start, end; /* and when it began and ended, on this rank's clock */
	pthread_t th;
} mt_thread;

struct sk_mt {
	sk_ctx *c;
	int n, started, quit, have_comms;
	int both;   /* both ranks of the pair receive data (not only acks) */
	int fan;    /* 1:N: one thread on the initiator, n on the responder sharing the steps */
	int shared; /* every thread on thread 0's communicator (thread_comm = "tag", or fan) */
	int (*step)(mt_thread *t);
	pthread_barrier_t start, done;
	int have_barriers;
	mt_thread *th;
	/* over every run: the slowest thread's time, the mean thread's, and the span from
	 * the earliest thread's start to the latest one's end, summed */
	double sum_max, sum_mean, sum_span;
};

/* mt.c: a kernel's prepare, with the step its threads repeat; both: the initiator
 * receives data too (check_data checks it); fan: a 1:N point. */
int sk_mt_prepare(sk_ctx *c, int (*step)(mt_thread *), int both, int fan);
int sk_mt_close(sk_ctx *c);
/* Ends the kernel's threads (if close has not) and frees what they had (c->fam); no
 * MPI call. */
void sk_mt_release(sk_ctx *c);
int sk_mt_run(sk_ctx *c, long long iters, double *total);

#endif
