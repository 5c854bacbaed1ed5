/* Shared by the reference programs of bench/reference.sh: error checks, page-aligned
 * buffers touched before timing (as OSU's allocate_memory does), the middle-half mean
 * skampi reports. */
#ifndef REF_COMMON_H
#define REF_COMMON_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* CLOCK_MONOTONIC in seconds: skampi's timer (ops/mpi: sk_now). */
static inline double ref_now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define CK(call)                                                                  \
	do {                                                                          \
		int rc_ = (call);                                                         \
		if (rc_ != MPI_SUCCESS) {                                                 \
			char msg_[MPI_MAX_ERROR_STRING];                                      \
			int len_ = 0;                                                         \
			MPI_Error_string(rc_, msg_, &len_);                                   \
			fprintf(stderr, "%s: %s failed: %s\n", __FILE__, #call, msg_);        \
			MPI_Abort(MPI_COMM_WORLD, 1);                                         \
		}                                                                         \
	} while (0)

/* A buffer of n bytes. REF_ALLOC=alloc_mem takes it from MPI_Alloc_mem (skampi's way);
 * otherwise page-aligned malloc (OSU's way). REF_OFFSET=k shifts it by k bytes (to try
 * skampi's alignment). Every page is touched. */
static inline char *ref_alloc(size_t n) {
	const char *how = getenv("REF_ALLOC");
	const char *off = getenv("REF_OFFSET");
	size_t k = off ? (size_t)atol(off) : 0;
	char *p = NULL;
	if (n < 1) n = 1;
	if (how && strcmp(how, "alloc_mem") == 0) {
		CK(MPI_Alloc_mem((MPI_Aint)(n + k), MPI_INFO_NULL, &p));
	} else if (posix_memalign((void **)&p, (size_t)sysconf(_SC_PAGESIZE), n + k) != 0) {
		fprintf(stderr, "out of memory (%zu bytes)\n", n + k);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memset(p, 1, n + k);
	return p + k;
}

static inline int ref_cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int ref_empty(void) { return 0; }

/* One timer interval as a per-call timing carries it, measured as skampi does
 * (sk_timer_overhead): the clock, a call through a pointer to a function that does
 * nothing, the clock; the median of 15 batches of 2,000. Per-call timings take it off. */
static inline double ref_timer_overhead(void) {
	int (*volatile f)(void) = ref_empty;
	double b[15];
	for (int r = 0; r < 15; r++) {
		double t = 0;
		for (int i = 0; i < 2000; i++) {
			double t0 = ref_now();
			f();
			t += ref_now() - t0;
		}
		b[r] = t / 2000;
	}
	qsort(b, 15, sizeof b[0], ref_cmp);
	return b[7];
}

/* skampi's time_s: the mean of sorted[n/4 : n-n/4]. Sorts s. */
static inline double ref_middle_mean(double *s, int n) {
	qsort(s, (size_t)n, sizeof *s, ref_cmp);
	int lo = n / 4, hi = n - n / 4;
	double sum = 0;
	for (int i = lo; i < hi; i++) sum += s[i];
	return sum / (hi - lo);
}

/* The median of s (sorted in place). */
static inline double ref_median(double *s, int n) {
	qsort(s, (size_t)n, sizeof *s, ref_cmp);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* How often the OSU-style timed loop runs per size (REF_LOOPS, default 5); the
 * programs print the median. One loop is what one run of osu_latency or osu_bw
 * reports; on a shared machine one pause of either rank inflates a whole loop. */
#define REF_MAX_LOOPS 101
static inline int ref_loops(void) {
	const char *e = getenv("REF_LOOPS");
	int n = e ? atoi(e) : 5;
	return n < 1 ? 1 : n > REF_MAX_LOOPS ? REF_MAX_LOOPS : n;
}

static inline void ref_init(int *argc, char ***argv, int *rank, int *size) {
	CK(MPI_Init(argc, argv)); /* plain MPI_Init, as OSU and IMB */
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	MPI_Comm_size(MPI_COMM_WORLD, size);
	if (*size != 2) {
		if (*rank == 0) fprintf(stderr, "%s: run with mpirun -np 2\n", (*argv)[0]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
}
#endif
