/* Standalone reference for skampi's Pingpong_Send_Recv (ops/mpi/pt2pt.c): rank 0
 * sends then receives N bytes, rank 1 receives then sends (MPI_BYTE, tag 1), on a
 * duplicate of MPI_COMM_WORLD, with buffers from MPI_Alloc_mem touched before timing.
 * Each repetition is an MPI_Barrier followed by one CLOCK_MONOTONIC timer pair around
 * a loop of ITERS round trips (skampi's global-loop timer); WARMUP such repetitions
 * come first and are thrown away (skampi's `warmup`, default 2).
 *
 * Usage: mpirun -np 2 pingpong [bytes=1] [iters=2000] [reps=32] [warmup=2]
 *
 * stdout: one number, seconds per round trip as rank 0 (the initiator) measured it,
 * summarised over the repetitions the way skampi's time_s is: the mean of the middle
 * half of the sorted per-repetition times (indices n/4 .. n-n/4). stderr: the other
 * statistics (and, with PINGPONG_SAMPLES set, every per-repetition time). Ranks beyond
 * 1 idle, as in skampi. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TAG 1

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long long arg(int argc, char **argv, int i, long long def, long long lo) {
	if (argc <= i) return def;
	char *end;
	long long v = strtoll(argv[i], &end, 10);
	if (*end != 0 || v < lo) {
		fprintf(stderr, "pingpong: argument %d: want an integer >= %lld, got \"%s\"\n", i, lo,
		        argv[i]);
		exit(2);
	}
	return v;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Same as measure.MiddleMean: mean of sorted[n/4 : n-n/4]. */
static double middle_mean(const double *s, int n) {
	int lo = n / 4, hi = n - n / 4;
	double sum = 0;
	for (int i = lo; i < hi; i++) sum += s[i];
	return sum / (hi - lo);
}

/* Same as measure.Quantile. */
static double quantile(const double *s, int n, double q) {
	if (n == 1) return s[0];
	double h = q * (n - 1);
	int lo = (int)h;
	if (lo >= n - 1) return s[n - 1];
	return s[lo] + (h - lo) * (s[lo + 1] - s[lo]);
}

#define CK(call)                                                                  \
	do {                                                                          \
		int rc_ = (call);                                                         \
		if (rc_ != MPI_SUCCESS) {                                                 \
			char msg_[MPI_MAX_ERROR_STRING];                                      \
			int len_ = 0;                                                         \
			MPI_Error_string(rc_, msg_, &len_);                                   \
			fprintf(stderr, "pingpong: %s failed: %s\n", #call, msg_);            \
			MPI_Abort(MPI_COMM_WORLD, 1);                                         \
		}                                                                         \
	} while (0)

/* One repetition: `iters` round trips timed as a whole; rank 0's time per round trip. */
static double rep(int rank, char *sbuf, char *rbuf, int bytes, long long iters, MPI_Comm comm) {
	CK(MPI_Barrier(comm));
	if (rank > 1) return 0;
	int peer = 1 - rank;
	double t0 = now();
	if (rank == 0) {
		for (long long i = 0; i < iters; i++) {
			CK(MPI_Send(sbuf, bytes, MPI_BYTE, peer, TAG, comm));
			CK(MPI_Recv(rbuf, bytes, MPI_BYTE, peer, TAG, comm, MPI_STATUS_IGNORE));
		}
	} else {
		for (long long i = 0; i < iters; i++) {
			CK(MPI_Recv(rbuf, bytes, MPI_BYTE, peer, TAG, comm, MPI_STATUS_IGNORE));
			CK(MPI_Send(sbuf, bytes, MPI_BYTE, peer, TAG, comm));
		}
	}
	return (now() - t0) / (double)iters;
}

int main(int argc, char **argv) {
	int rank, size;
	/* Plain MPI_Init, as OSU, IMB and skampi by default (ops/mpi/world.c). */
	if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
		fprintf(stderr, "pingpong: MPI_Init failed\n");
		return 1;
	}
	MPI_Comm comm;
	MPI_Comm_dup(MPI_COMM_WORLD, &comm);
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	long long bytes = arg(argc, argv, 1, 1, 0);
	long long iters = arg(argc, argv, 2, 2000, 1);
	long long reps = arg(argc, argv, 3, 32, 1);
	long long warmup = arg(argc, argv, 4, 2, 0);
	if (size < 2) {
		if (rank == 0) fprintf(stderr, "pingpong: needs at least 2 processes (mpirun -np 2)\n");
		MPI_Finalize();
		return 1;
	}
	if (bytes > 0x7fffffff) {
		if (rank == 0) fprintf(stderr, "pingpong: %lld bytes do not fit an MPI count\n", bytes);
		MPI_Finalize();
		return 1;
	}

	/* Two buffers of max(1, bytes), touched before timing, as skampi's sk_alloc. */
	MPI_Aint n = bytes < 1 ? 1 : (MPI_Aint)bytes;
	char *sbuf, *rbuf;
	CK(MPI_Alloc_mem(n, MPI_INFO_NULL, &sbuf));
	CK(MPI_Alloc_mem(n, MPI_INFO_NULL, &rbuf));
	memset(sbuf, 1, (size_t)n);
	memset(rbuf, 1, (size_t)n);

	for (long long w = 0; w < warmup; w++) rep(rank, sbuf, rbuf, (int)bytes, iters, comm);

	double *t = malloc(sizeof(double) * (size_t)reps);
	if (!t) MPI_Abort(MPI_COMM_WORLD, 1);
	for (long long r = 0; r < reps; r++) t[r] = rep(rank, sbuf, rbuf, (int)bytes, iters, comm);

	if (rank == 0) {
		int k = (int)reps;
		qsort(t, (size_t)k, sizeof(double), cmp);
		double sum = 0;
		for (int i = 0; i < k; i++) sum += t[i];
		fprintf(stderr,
		        "pingpong: %lld B, %lld iters x %lld reps (+%lld warm-up), s/round trip: "
		        "middle-mean %.4e median %.4e mean %.4e min %.4e max %.4e\n",
		        bytes, iters, reps, warmup, middle_mean(t, k), quantile(t, k, 0.5), sum / k, t[0],
		        t[k - 1]);
		if (getenv("PINGPONG_SAMPLES")) { /* every per-repetition time, sorted */
			fprintf(stderr, "samples:");
			for (int i = 0; i < k; i++) fprintf(stderr, " %.4e", t[i]);
			fprintf(stderr, "\n");
		}
		printf("%.6e\n", middle_mean(t, k));
		fflush(stdout);
	}
	free(t);
	MPI_Free_mem(sbuf);
	MPI_Free_mem(rbuf);
	MPI_Comm_free(&comm);
	MPI_Finalize();
	return 0;
}
