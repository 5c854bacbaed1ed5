/* Ping-pong latency the way osu_latency measures it: for each size, `skip` untimed round
 * trips, then one timer pair around `iters` round trips (MPI_Send then MPI_Recv on rank
 * 0, the reverse on rank 1, buffers s_buf and r_buf of the largest size); latency is the
 * loop time / (2 iters), one-way, as rank 0 measured it. osu_latency's counts: 10000
 * iterations and 100 skipped up to 8 KiB, 1000 and 10 above. The loop runs REF_LOOPS
 * times; the median is printed.
 *
 * Usage: mpirun -np 2 ref_latency SIZE...   stdout: "SIZE LATENCY_S" per size. */
#include "ref_common.h"

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	long max = 1;
	for (int i = 1; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	char *s_buf = ref_alloc((size_t)max), *r_buf = ref_alloc((size_t)max);
	int peer = 1 - rank;
	for (int a = 1; a < argc; a++) {
		int n = (int)atol(argv[a]);
		int iters = n > 8192 ? 1000 : 10000, skip = n > 8192 ? 10 : 100, loops = ref_loops();
		double lat[REF_MAX_LOOPS];
		for (int l = 0; l < loops; l++) {
			double t0 = 0;
			CK(MPI_Barrier(MPI_COMM_WORLD));
			for (int i = 0; i < iters + skip; i++) {
				if (i == skip) t0 = MPI_Wtime();
				if (rank == 0) {
					CK(MPI_Send(s_buf, n, MPI_CHAR, peer, 1, MPI_COMM_WORLD));
					CK(MPI_Recv(r_buf, n, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
				} else {
					CK(MPI_Recv(r_buf, n, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
					CK(MPI_Send(s_buf, n, MPI_CHAR, peer, 1, MPI_COMM_WORLD));
				}
			}
			lat[l] = (MPI_Wtime() - t0) / (2.0 * iters);
		}
		if (rank == 0) printf("%d %.6e\n", n, ref_median(lat, loops));
	}
	MPI_Finalize();
	return 0;
}
