/* A busy passive target as a plain C program, for bench/reference.sh (ONLY=busy): what
 * skampi's Put with method lock measures under target_busy (ops/mpi/rma_busy.c). Per
 * operation rank 1 sends rank 0 an empty message and starts computing; rank 0, once it
 * has it, times MPI_Win_lock (shared) on rank 1, MPI_Put of SIZE bytes,
 * MPI_Win_unlock; rank 1 meanwhile spins for BUSY_US
 * microseconds (a counter loop no compiler removes, calibrated here), calling
 * MPI_Iprobe every PROGRESS iterations (0: never); both meet in MPI_Barrier again.
 * Per size a window from MPI_Win_allocate of the size + 64 bytes on a duplicate of
 * MPI_COMM_WORLD; rank 0 prints the median of REF_LOOPS loops of the mean time per
 * operation. After the last loop rank 1 checks its window holds rank 0's bytes.
 *
 * Usage: mpirun -np 2 ref_busy BUSY_US PROGRESS SIZE...
 * stdout: "SIZE TIME_S" per size. */
#include "ref_common.h"

static __attribute__((noinline)) void spin(long long n) {
	for (long long i = 0; i < n; i++) __asm__ __volatile__("" ::: "memory");
}

/* Nanoseconds per iteration: the median of 7 runs of about 1 ms. */
static double calibrate(void) {
	long long n = 1024;
	while (n < (1LL << 40)) {
		double t0 = ref_now();
		spin(n);
		if (ref_now() - t0 >= 1e-3) break;
		n *= 2;
	}
	double t[7];
	for (int r = 0; r < 7; r++) {
		double t0 = ref_now();
		spin(n);
		t[r] = ref_now() - t0;
	}
	return ref_median(t, 7) / (double)n * 1e9;
}

static void busy(long long n, long long every, MPI_Comm comm) {
	if (every <= 0 || every >= n) {
		spin(n);
		return;
	}
	for (long long left = n; left > 0;) {
		long long k = left < every ? left : every;
		spin(k);
		left -= k;
		if (left > 0) {
			int flag;
			CK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE));
		}
	}
}

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	if (argc < 4) {
		if (rank == 0) fprintf(stderr, "usage: ref_busy BUSY_US PROGRESS SIZE...\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	double busy_s = atof(argv[1]) * 1e-6;
	long long every = atoll(argv[2]);
	long long n_spin = rank == 1 ? (long long)(busy_s * 1e9 / calibrate() + 0.5) : 0;
	long max = 1;
	for (int i = 3; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	char *s_buf = ref_alloc((size_t)max), *base;
	for (long i = 0; i < max; i++) s_buf[i] = (char)(i * 7 + 3);
	MPI_Comm comm;
	CK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	for (int a = 3; a < argc; a++) {
		int n = (int)atol(argv[a]);
		int iters = 200, loops = ref_loops();
		double t[REF_MAX_LOOPS];
		MPI_Win win;
		CK(MPI_Win_allocate((MPI_Aint)n + 64, 1, MPI_INFO_NULL, comm, &base, &win));
		memset(base, 0, (size_t)n + 64);
		for (int l = -1; l < loops; l++) { /* loop -1: warm-up */
			double sum = 0;
			for (int i = 0; i < iters; i++) {
				char none = 0;
				if (rank == 0) {
					CK(MPI_Recv(&none, 0, MPI_BYTE, 1, 9, comm, MPI_STATUS_IGNORE));
					double t0 = ref_now();
					CK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
					CK(MPI_Put(s_buf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win));
					CK(MPI_Win_unlock(1, win));
					sum += ref_now() - t0;
				} else {
					CK(MPI_Send(&none, 0, MPI_BYTE, 0, 9, comm));
					busy(n_spin, every, comm);
				}
				CK(MPI_Barrier(comm));
			}
			if (l >= 0) t[l] = sum / iters;
		}
		CK(MPI_Barrier(comm));
		if (rank == 1) {
			CK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
			CK(MPI_Win_sync(win));
			if (memcmp(base, s_buf, (size_t)n) != 0) {
				fprintf(stderr, "ref_busy: %d bytes: the target's window does not hold what was put\n", n);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
			CK(MPI_Win_unlock(1, win));
		}
		CK(MPI_Win_free(&win));
		if (rank == 0) printf("%d %.9g\n", n, ref_median(t, loops));
	}
	CK(MPI_Comm_free(&comm));
	MPI_Finalize();
	return 0;
}
