/* What mt.c (the threads: made, started, timed, ended) and mt_steps.c (what each
 * multi-threaded kernel's threads do in a step) share. */
#ifndef SKAMPI_MT_H
#define SKAMPI_MT_H

#include <pthread.h>
#include "kernels.h"

typedef struct sk_mt sk_mt;
typedef struct {
	sk_mt *s;
	int idx, peer, tag, cpu, pin_cpu, rc;
	MPI_Comm comm;
	char *sbuf, *rbuf;
	MPI_Request *req;
	double t;          /* its last loop's time (s) */
	double start, end; /* and when it began and ended, on this rank's clock */
	pthread_t th;
} mt_thread;

struct sk_mt {
	sk_ctx *c;
	int n, started, quit, have_comms;
	int both; /* both ranks of the pair receive data (not only acks) */
	int (*step)(mt_thread *t);
	long long iters;
	pthread_barrier_t start, done;
	int have_barriers;
	mt_thread *th;
	/* over every run: the slowest thread's time, the mean thread's, and the span from
	 * the earliest thread's start to the latest one's end, summed */
	double sum_max, sum_mean, sum_span;
};

/* mt.c: a kernel's prepare, with the step its threads repeat; both: the initiator
 * receives data too (check_data checks it). */
int sk_mt_prepare(sk_ctx *c, int (*step)(mt_thread *), int both);
int sk_mt_close(sk_ctx *c);
int sk_mt_run(sk_ctx *c, long long iters, double *total);

#endif
