//go:build mpi

/* The threads of the multi-threaded kernels (mt_steps.c has their steps): each rank of
 * the pair runs `threads` threads (c->kparam[MT_THREADS]), thread 0 the calling thread (Go's locked OS thread,
 * in C) and the others pthreads created once per point (prepare) and ended after it
 * (close, or release), each on a communicator of its own duplicated for the point (made
 * with MPI_Comm_create_group over the pair, so the idle ranks take no part) or on the
 * pair's communicator with a tag of its own. Per repetition, sk_run calls sk_mt_run:
 * the calling thread releases the others through a pthread barrier, every thread times
 * its own loop of iters steps with its partner thread, and the caller, after a second
 * barrier, takes the slowest thread's time as the repetition's and keeps the mean
 * thread's beside it. (With every thread a pthread, the caller woke them and went to
 * sleep on their core in every repetition: a 1-byte round trip of one thread read 1.7
 * times the C reference's at 100 per repetition.)
 *
 * At 1:N (fan, osu_latency_mt's default) the initiator runs one thread and the
 * responder `threads`, all on one communicator of the pair with the same tags: the
 * receivers share the iterations (thread j runs iters / n steps, one more when j <
 * iters % n), so that together they answer the sender's every message, and the
 * repetition's time is the sender's loop.
 *
 * Needs MPI_THREAD_MULTIPLE: refused at prepare when MPI_Query_thread says less. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "mt.h"
#include "sk_common.h"

static int handshake(mt_thread *t) {
	char b = 0;
	if (t->s->c->a.role == SK_ROLE_INITIATOR) {
		CK(MPI_Send(&b, 0, MPI_BYTE, t->peer, t->tag, t->comm));
		return MPI_Recv(&b, 0, MPI_BYTE, t->peer, t->tag, t->comm, MPI_STATUS_IGNORE);
	}
	CK(MPI_Recv(&b, 0, MPI_BYTE, t->peer, t->tag, t->comm, MPI_STATUS_IGNORE));
	return MPI_Send(&b, 0, MPI_BYTE, t->peer, t->tag, t->comm);
}

/* pin moves the calling thread to cpu (>= 0), keeping its set before in *old. */
static void pin(int cpu, cpu_set_t *old) {
	cpu_set_t set;
	if (old) pthread_getaffinity_np(pthread_self(), sizeof *old, old);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* run_thread is one thread's part of a repetition, t->iters steps. Woken threads start
 * microseconds apart on the two ranks: a 0-byte round trip with the partner thread
 * first, untimed, so that the timed loop starts from a meeting of the two (as the ranks
 * meet in MPI_Barrier before a repetition). At 1:N the sender and receiver 0 (the
 * calling threads) meet before the other receivers wake (sk_mt_run). */
static void run_thread(mt_thread *t) {
	sk_mt *s = t->s;
	int rc = s->fan ? MPI_SUCCESS : handshake(t);
	long long i, n = t->iters;
	double t0 = sk_now();
	for (i = 0; i < n && rc == MPI_SUCCESS; i++) {
		rc = s->step(t);
		/* The watchdog sees the point move while any thread moves: thread 0 may wait at
		 * the barrier while the others, sharing a core, still run. The others mark every
		 * 16th step, to keep their cores off the counter's line. */
		if (t->idx == 0 || (i & 15) == 15) SK_STEP_DONE();
	}
	t->end = sk_now();
	t->start = t0;
	t->t = t->end - t0;
	t->rc = rc;
	t->cpu = sched_getcpu();
}

/* Threads 1 to n-1; thread 0 is the calling thread (sk_mt_run), which would otherwise
 * wake the others and go to sleep on their core in every repetition, in their way. */
static void *worker(void *p) {
	mt_thread *t = p;
	sk_mt *s = t->s;
	if (t->pin_cpu >= 0) pin(t->pin_cpu, NULL);
	for (;;) {
		pthread_barrier_wait(&s->start);
		if (s->quit) break;
		run_thread(t);
		pthread_barrier_wait(&s->done);
	}
	return NULL;
}

/* stop ends the threads (they wait at the start barrier between runs). */
static void stop(sk_mt *s) {
	if (!s->started) return;
	s->quit = 1;
	pthread_barrier_wait(&s->start);
	for (int i = 1; i < s->n; i++) pthread_join(s->th[i].th, NULL);
	s->started = 0;
}

void sk_mt_release(sk_ctx *c) {
	sk_mt *s = c ? c->fam : NULL;
	if (!s) return;
	stop(s);
	if (s->have_barriers) {
		pthread_barrier_destroy(&s->start);
		pthread_barrier_destroy(&s->done);
	}
	for (int i = 0; s->th && i < s->n; i++) {
		free(s->th[i].sbuf);
		free(s->th[i].rbuf);
		free(s->th[i].req);
	}
	free(s->th);
	free(s);
	c->fam = NULL;
}

int sk_mt_close(sk_ctx *c) {
	sk_mt *s = c->fam;
	if (!s) return MPI_SUCCESS;
	stop(s);
	int rc = MPI_SUCCESS;
	for (int i = 0; s->have_comms && i < s->n; i++) {
		if (s->th[i].comm == MPI_COMM_NULL || (s->shared && i > 0)) continue; /* thread 0's */
		int frc = MPI_Comm_free(&s->th[i].comm);
		if (rc == MPI_SUCCESS) rc = frc;
	}
	s->have_comms = 0;
	return rc;
}

/* pin_cpus: the CPU thread i is pinned to, the rank's own CPUs in turn (offset by the
 * rank, so two unbound ranks do not start on the same one); -1 without pinning. */
static void pin_cpus(sk_mt *s, int rank) {
	cpu_set_t set;
	int cpus[CPU_SETSIZE], n = 0;
	for (int i = 0; i < s->n; i++) s->th[i].pin_cpu = -1;
	if (!s->c->kparam[MT_THREAD_PIN] || sched_getaffinity(0, sizeof set, &set) != 0) return;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set)) cpus[n++] = i;
	for (int i = 0; n > 0 && i < s->n; i++) s->th[i].pin_cpu = cpus[(rank * s->n + i) % n];
}

static int page_alloc(char **p, long long bytes) {
	return posix_memalign((void **)p, 4096, (size_t)(bytes > 0 ? bytes : 1)) == 0 ? MPI_SUCCESS : SK_ERR_NOMEM;
}

int sk_mt_prepare(sk_ctx *c, int (*step)(mt_thread *), int both, int fan) {
	int level = 0;
	CK(MPI_Query_thread(&level));
	if (level != MPI_THREAD_MULTIPLE) return SK_ERR_THREADS;
	double threads = c->kparam[MT_THREADS];
	if (!(threads >= 1 && threads <= 1024)) return SK_ERR_ARGS;
	sk_mt *s = calloc(1, sizeof *s);
	if (!s) return SK_ERR_NOMEM;
	c->fam = s; /* freed by sk_mt_release, whatever happens below */
	s->c = c;
	s->n = fan && c->a.role == SK_ROLE_INITIATOR ? 1 : (int)threads;
	s->step = step;
	s->both = both;
	s->fan = fan;
	s->shared = fan || c->kparam[MT_THREAD_TAGS] != 0;
	if (!(s->th = calloc((size_t)s->n, sizeof *s->th))) return SK_ERR_NOMEM;
	int w = c->a.window > 0 ? c->a.window : 1;
	for (int i = 0; i < s->n; i++) {
		mt_thread *t = &s->th[i];
		t->s = s;
		t->idx = i;
		t->comm = MPI_COMM_NULL;
		t->cpu = -1;
		CK(page_alloc(&t->sbuf, c->a.bytes));
		CK(page_alloc(&t->rbuf, c->a.bytes));
		memset(t->sbuf, 0, (size_t)(c->a.bytes > 0 ? c->a.bytes : 1));
		memset(t->rbuf, 0, (size_t)(c->a.bytes > 0 ? c->a.bytes : 1));
		if (!(t->req = malloc(sizeof(MPI_Request) * 2 * (size_t)w))) return SK_ERR_NOMEM; /* a window each way */
	}
	/* Communicators: the pair's members only, in the same order on both. */
	MPI_Group all, pair;
	int members[2] = {c->rank < c->a.peer ? c->rank : c->a.peer, c->rank < c->a.peer ? c->a.peer : c->rank};
	CK(MPI_Comm_group(c->comm, &all));
	int rc = MPI_Group_incl(all, 2, members, &pair);
	MPI_Group_free(&all);
	CK(rc);
	s->have_comms = 1;
	for (int i = 0; i < s->n && rc == MPI_SUCCESS; i++) {
		mt_thread *t = &s->th[i];
		if (s->shared) { /* one communicator; a tag each, or at 1:N the handshake's */
			t->tag = fan ? 0 : i;
			if (i == 0) rc = MPI_Comm_create_group(c->comm, pair, 0, &t->comm);
			else t->comm = MPI_COMM_NULL;
		} else {
			rc = MPI_Comm_create_group(c->comm, pair, i, &t->comm);
		}
		t->peer = c->rank < c->a.peer ? 1 : 0;
	}
	MPI_Group_free(&pair);
	CK(rc);
	if (s->shared)
		for (int i = 1; i < s->n; i++) s->th[i].comm = s->th[0].comm;
	pin_cpus(s, c->rank);
	if (pthread_barrier_init(&s->start, NULL, (unsigned)s->n) != 0) return SK_ERR_THREADS;
	if (pthread_barrier_init(&s->done, NULL, (unsigned)s->n) != 0) {
		pthread_barrier_destroy(&s->start);
		return SK_ERR_THREADS;
	}
	s->have_barriers = 1;
	/* The threads take no signals: Go's threads handle them. */
	sigset_t all_sig, old;
	sigfillset(&all_sig);
	pthread_sigmask(SIG_BLOCK, &all_sig, &old);
	int created = 1;
	for (; created < s->n; created++)
		if (pthread_create(&s->th[created].th, NULL, worker, &s->th[created]) != 0) break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (created < s->n) {
		/* Those started wait at a barrier counting the ones that did not: they cannot be
		 * released, so they are left there (detached, their memory kept) and the point
		 * refused. */
		for (int i = 1; i < created; i++) pthread_detach(s->th[i].th);
		c->fam = NULL;
		return SK_ERR_THREADS;
	}
	s->started = 1;
	return MPI_SUCCESS;
}

/* check_data: every thread sends the pattern of its rank at its own offset (the
 * thread's index times the size), so a message that reached another thread differs.
 * At 1:N any receiver may take any message and the sender any answer: every thread
 * sends its rank's pattern at offset 0. */
static long long pattern_base(const sk_mt *s, int i) { return s->fan ? 0 : (long long)i * s->c->a.bytes; }

static void fill(sk_ctx *c) {
	sk_mt *s = c->fam;
	for (int i = 0; i < s->n; i++)
		sk_pattern_fill(s->th[i].sbuf, c->a.bytes, c->rank, c->a.bytes, c->rep, pattern_base(s, i));
}

static void verify(sk_ctx *c) {
	sk_mt *s = c->fam;
	long long n = c->a.bytes;
	if (!s->both && c->a.role != SK_ROLE_RESPONDER) return; /* the sender receives only acks */
	for (int i = 0; i < s->n && !c->bad; i++) {
		if (s->th[i].iters == 0) continue; /* a receiver of 1:N left without a message */
		long long base = pattern_base(s, i), at = sk_pattern_find(s->th[i].rbuf, n, c->a.peer, n, c->rep, base);
		if (at < 0) continue;
		c->bad = 1;
		c->bad_from = c->a.peer;
		c->bad_slot = i; /* the thread */
		c->bad_offset = at;
		c->bad_expected = sk_pattern_byte(c->a.peer, n, c->rep, base + at);
		c->bad_actual = (unsigned char)s->th[i].rbuf[at];
		c->bad_rep = c->rep;
	}
}

int sk_mt_run(sk_ctx *c, long long iters, double *total) {
	sk_mt *s = c->fam;
	if (!s || !s->started) return SK_ERR_THREADS;
	if (c->a.check) fill(c);
	/* 1:N: the sender and receiver 0 meet while the other receivers sleep. Met with
	 * a receiver in MPI_Recv beside it, the library's progressing thread completed the
	 * other's receive and the other waited for a time slice on the shared core: most
	 * repetitions of 1:2 at 1 B then took 10-20 ms a round trip here, against 0.5 us
	 * without (OSU meets in an MPI_Barrier before its threads' loops). */
	int met = s->fan ? handshake(&s->th[0]) : MPI_SUCCESS;
	for (int i = 0; i < s->n; i++) /* 1:N: the receivers share the sender's steps */
		s->th[i].iters = met != MPI_SUCCESS ? 0 : s->fan ? iters / s->n + (i < iters % s->n) : iters;
	pthread_barrier_wait(&s->start); /* all threads start together */
	cpu_set_t old;
	if (s->th[0].pin_cpu >= 0) pin(s->th[0].pin_cpu, &old); /* the caller's own set back after */
	run_thread(&s->th[0]);
	if (s->th[0].pin_cpu >= 0) pthread_setaffinity_np(pthread_self(), sizeof old, &old);
	pthread_barrier_wait(&s->done);
	int rc = MPI_SUCCESS;
	double slowest = 0, sum = 0, first = s->th[0].start, last = s->th[0].end;
	for (int i = 0; i < s->n; i++) {
		if (rc == MPI_SUCCESS) rc = s->th[i].rc;
		if (s->th[i].t > slowest) slowest = s->th[i].t;
		sum += s->th[i].t;
		if (s->th[i].start < first) first = s->th[i].start;
		if (s->th[i].end > last) last = s->th[i].end;
	}
	if (rc == MPI_SUCCESS) rc = met;
	*total = slowest;
	s->sum_max += slowest;
	s->sum_mean += sum / s->n;
	s->sum_span += last - first; /* the threads' loops may run staggered */
	if (rc == MPI_SUCCESS && c->a.check) verify(c);
	return rc;
}

/* For Go (stats.go): the mean thread's time over the slowest's, over every run so far
 * (0: none), the span from the earliest start to the latest end over the slowest's,
 * and the CPU thread i last ran on (-1: none). */
static const sk_mt *mt_of(const sk_ctx *c) { return c ? c->fam : NULL; }
double sk_mt_mean_ratio(const sk_ctx *c) {
	const sk_mt *s = mt_of(c);
	return s && s->sum_max > 0 ? s->sum_mean / s->sum_max : 0;
}
double sk_mt_span_ratio(const sk_ctx *c) {
	const sk_mt *s = mt_of(c);
	return s && s->sum_max > 0 ? s->sum_span / s->sum_max : 0;
}
int sk_mt_threads(const sk_ctx *c) { return mt_of(c) ? mt_of(c)->n : 0; }
int sk_mt_cpu(const sk_ctx *c, int i) {
	const sk_mt *s = mt_of(c);
	return s && i >= 0 && i < s->n ? s->th[i].cpu : -1;
}
