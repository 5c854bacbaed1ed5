/* The non-blocking breakdown as a plain C program, for bench/reference.sh: what skampi's
 * Isend and Irecv points measure (ops/mpi/nonblocking.c), written out with nothing
 * shared. Rank 0 runs the non-blocking operation, rank 1 is its blocking partner:
 *   isend: MPI_Isend + MPI_Wait; rank 1 MPI_Recv.
 *   irecv: MPI_Irecv, a 0-byte ready message, MPI_Wait; rank 1 waits for it, MPI_Send.
 * Per size: full = one timer pair around `iters` post + wait; post = the post timed on
 * its own each time, less one timer interval (as skampi), the wait outside; then a spin of twice full (calibrated as skampi
 * does: the median of 7 runs of at least 200 us) between post and wait, one timer pair
 * around the loop, and the spin alone the same way. Each loop runs REF_LOOPS times; the
 * medians are printed.
 *
 * Usage: mpirun -np 2 ref_overlap isend|irecv SIZE...
 * stdout: "OP SIZE FULL_S POST_S OVERLAP_S COMPUTE_S" per size (OVERLAP_S: the loop of
 * post + spin + wait, per operation; COMPUTE_S: the spin alone). */
#include "ref_common.h"

__attribute__((noinline)) static void spin(long long n) {
	for (long long i = 0; i < n; i++) __asm__ __volatile__("" ::: "memory");
}

static double spin_ns(void) {
	long long n = 1024;
	while (1) {
		double t0 = ref_now();
		spin(n);
		if (ref_now() - t0 >= 2e-4) break;
		n *= 4;
	}
	double t[7];
	for (int r = 0; r < 7; r++) {
		double t0 = ref_now();
		spin(n);
		t[r] = ref_now() - t0;
	}
	return ref_median(t, 7) / (double)n * 1e9;
}

static int irecv_op;
static char *s_buf, *r_buf, ready;
static int n;

static void post(MPI_Request *r) {
	if (irecv_op) {
		CK(MPI_Irecv(r_buf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, r));
		CK(MPI_Send(&ready, 0, MPI_CHAR, 1, 2, MPI_COMM_WORLD));
	} else {
		CK(MPI_Isend(s_buf, n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, r));
	}
}

static void partner(void) {
	if (irecv_op) {
		CK(MPI_Recv(&ready, 0, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CK(MPI_Send(s_buf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD));
	} else {
		CK(MPI_Recv(r_buf, n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	}
}

enum { FULL, POST, OVERLAP, COMPUTE };
static double timer_oh; /* ref_timer_overhead(), measured once */

/* One timed loop of `iters` steps of the measurement; per operation, on rank 0. */
static double loop(int rank, int what, int iters, long long nspin) {
	MPI_Request r;
	double t = 0;
	CK(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 1) {
		if (what != COMPUTE)
			for (int i = 0; i < iters; i++) partner();
		return 0;
	}
	double t0 = ref_now();
	for (int i = 0; i < iters; i++) {
		switch (what) {
		case FULL:
			post(&r);
			CK(MPI_Wait(&r, MPI_STATUS_IGNORE));
			break;
		case POST: {
			double p0 = ref_now();
			post(&r);
			t += ref_now() - p0 - timer_oh; /* skampi takes the timer's cost off too */
			CK(MPI_Wait(&r, MPI_STATUS_IGNORE));
			break;
		}
		case OVERLAP:
			post(&r);
			spin(nspin);
			CK(MPI_Wait(&r, MPI_STATUS_IGNORE));
			break;
		default:
			spin(nspin);
		}
	}
	if (what != POST) t = ref_now() - t0;
	return t / iters;
}

static double median_of(int rank, int what, int iters, long long nspin) {
	double v[REF_MAX_LOOPS];
	int loops = ref_loops();
	loop(rank, what, iters / 10 + 1, nspin); /* warm-up */
	for (int l = 0; l < loops; l++) v[l] = loop(rank, what, iters, nspin);
	return ref_median(v, loops);
}

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	if (argc < 3 || (strcmp(argv[1], "isend") && strcmp(argv[1], "irecv"))) {
		if (rank == 0) fprintf(stderr, "usage: ref_overlap isend|irecv SIZE...\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	irecv_op = strcmp(argv[1], "irecv") == 0;
	long max = 1;
	for (int i = 2; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	s_buf = ref_alloc((size_t)max);
	r_buf = ref_alloc((size_t)max);
	timer_oh = ref_timer_overhead();
	for (int a = 2; a < argc; a++) {
		n = (int)atol(argv[a]);
		int iters = n > 8192 ? 200 : 2000;
		double full = median_of(rank, FULL, iters, 0);
		double p = median_of(rank, POST, iters, 0);
		double ns = spin_ns();
		CK(MPI_Bcast(&full, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
		long long nspin = (long long)(2 * full * 1e9 / ns + 0.5);
		double ov = median_of(rank, OVERLAP, iters / 3 + 1, nspin);
		double comp = median_of(rank, COMPUTE, iters / 3 + 1, nspin);
		if (rank == 0) printf("%s %d %.6e %.6e %.6e %.6e\n", argv[1], n, full, p, ov, comp);
	}
	MPI_Finalize();
	return 0;
}
