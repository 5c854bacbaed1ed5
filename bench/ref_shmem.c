/* Put + quiet latency as a plain C program, for bench/reference.sh: what skampi's
 * Shmem_Put (window 1) measures as full (ops/shmem/shmem.c). MPI_Init, then shmem_init,
 * as skampi starts them; per size a symmetric buffer of 2 * size + 64 bytes from
 * shmem_malloc (skampi's per point); PE 0 times `iters` shmem_putmem + shmem_quiet to
 * PE 1 with one timer pair, REF_LOOPS times, and prints the median per operation. PE 1
 * checks it holds PE 0's bytes afterwards.
 *
 * Usage: mpirun -np 2 ref_shmem SIZE...   stdout: "SIZE TIME_S" per size. */
#include "ref_common.h"
#include <shmem.h>

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	shmem_init();
	long max = 1;
	for (int i = 1; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	char *s_buf = ref_alloc((size_t)max);
	for (long i = 0; i < max; i++) s_buf[i] = (char)(i * 5 + 1);
	for (int a = 1; a < argc; a++) {
		int n = (int)atol(argv[a]);
		int iters = n > 8192 ? 1000 : 10000, loops = ref_loops();
		double t[REF_MAX_LOOPS];
		char *sym = shmem_malloc(2 * (size_t)n + 64);
		memset(sym, 0, 2 * (size_t)n + 64);
		shmem_barrier_all();
		for (int l = 0; l < loops; l++) {
			shmem_barrier_all();
			if (rank != 0) {
				t[l] = 0;
				continue;
			}
			for (int i = 0; i < iters / 10; i++) { /* warm-up */
				shmem_putmem(sym, s_buf, (size_t)n, 1);
				shmem_quiet();
			}
			double t0 = ref_now();
			for (int i = 0; i < iters; i++) {
				shmem_putmem(sym, s_buf, (size_t)n, 1);
				shmem_quiet();
			}
			t[l] = (ref_now() - t0) / iters;
		}
		shmem_barrier_all();
		if (rank == 1 && memcmp(sym, s_buf, (size_t)n) != 0) {
			fprintf(stderr, "ref_shmem: %d bytes: PE 1 does not hold what PE 0 put\n", n);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		shmem_free(sym);
		if (rank == 0) printf("%d %.6e\n", n, ref_median(t, loops));
	}
	shmem_finalize();
	int done = 0;
	MPI_Finalized(&done);
	if (!done) MPI_Finalize();
	return 0;
}
