/* Put + flush latency as a plain C program, for bench/reference.sh: what skampi's Put
 * under lock_all with window = 1 measures (ops/mpi/rma.c). Per size, as skampi does
 * per point, a window from MPI_Win_allocate of the size + 64 bytes on a duplicate of
 * MPI_COMM_WORLD, MPI_Win_lock_all held while it is measured; rank 0 times `iters` MPI_Put + MPI_Win_flush with one timer pair, REF_LOOPS
 * times per size, and prints the median per operation. Rank 1 is passive. After the
 * last loop rank 1 checks that its window holds rank 0's bytes (a put that copied
 * nothing would otherwise look fast).
 *
 * Usage: mpirun -np 2 ref_rma SIZE...   stdout: "SIZE TIME_S" per size. */
#include "ref_common.h"

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	long max = 1;
	for (int i = 1; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	char *s_buf = ref_alloc((size_t)max), *base;
	for (long i = 0; i < max; i++) s_buf[i] = (char)(i * 7 + 3);
	MPI_Comm comm;
	CK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	for (int a = 1; a < argc; a++) {
		int n = (int)atol(argv[a]);
		int iters = n > 8192 ? 1000 : 10000, loops = ref_loops();
		double t[REF_MAX_LOOPS];
		MPI_Win win;
		CK(MPI_Win_allocate((MPI_Aint)n + 64, 1, MPI_INFO_NULL, comm, &base, &win));
		memset(base, 0, (size_t)n + 64);
		CK(MPI_Barrier(comm));
		CK(MPI_Win_lock_all(0, win));
		for (int l = 0; l < loops; l++) {
			CK(MPI_Barrier(comm));
			if (rank != 0) {
				t[l] = 0;
				continue;
			}
			for (int i = 0; i < iters / 10; i++) { /* warm-up */
				CK(MPI_Put(s_buf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win));
				CK(MPI_Win_flush(1, win));
			}
			double t0 = ref_now();
			for (int i = 0; i < iters; i++) {
				CK(MPI_Put(s_buf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win));
				CK(MPI_Win_flush(1, win));
			}
			t[l] = (ref_now() - t0) / iters;
		}
		CK(MPI_Barrier(comm));
		if (rank == 1) {
			CK(MPI_Win_sync(win));
			if (memcmp(base, s_buf, (size_t)n) != 0) {
				fprintf(stderr, "ref_rma: %d bytes: the target's window does not hold what was put\n", n);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
		}
		CK(MPI_Win_unlock_all(win));
		CK(MPI_Win_free(&win));
		if (rank == 0) printf("%d %.6e\n", n, ref_median(t, loops));
	}
	CK(MPI_Comm_free(&comm));
	MPI_Finalize();
	return 0;
}
