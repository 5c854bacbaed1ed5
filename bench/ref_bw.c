/* Unidirectional bandwidth the way osu_bw measures it: per iteration rank 0 posts a
 * window of 64 MPI_Isend from one s_buf, rank 1 a window of 64 MPI_Irecv into ONE
 * r_buf (every receive of the window lands in the same buffer), both MPI_Waitall, then
 * rank 1 sends a 1-byte ack. `skip` untimed iterations, then one timer pair around
 * `iters` (osu_bw: 100 and 10 up to 8 KiB, 20 and 2 above). Bandwidth = size * 64 *
 * iters / time on rank 0. The loop runs REF_LOOPS times; the median is printed.
 *
 * Usage: mpirun -np 2 ref_bw SIZE...   stdout: "SIZE BYTES_PER_S" per size. */
#include "ref_common.h"

#define WINDOW 64

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	long max = 1;
	for (int i = 1; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	char *s_buf = ref_alloc((size_t)max), *r_buf = ref_alloc((size_t)max);
	char ack = 0;
	MPI_Request req[WINDOW];
	int peer = 1 - rank;
	for (int a = 1; a < argc; a++) {
		int n = (int)atol(argv[a]);
		int iters = n > 8192 ? 20 : 100, skip = n > 8192 ? 2 : 10, loops = ref_loops();
		double bw[REF_MAX_LOOPS];
		for (int l = 0; l < loops; l++) {
			double t0 = 0;
			CK(MPI_Barrier(MPI_COMM_WORLD));
			for (int i = 0; i < iters + skip; i++) {
				if (i == skip) t0 = MPI_Wtime();
				if (rank == 0) {
					for (int j = 0; j < WINDOW; j++)
						CK(MPI_Isend(s_buf, n, MPI_CHAR, peer, 100, MPI_COMM_WORLD, &req[j]));
					CK(MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE));
					CK(MPI_Recv(&ack, 1, MPI_CHAR, peer, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
				} else {
					for (int j = 0; j < WINDOW; j++)
						CK(MPI_Irecv(r_buf, n, MPI_CHAR, peer, 100, MPI_COMM_WORLD, &req[j]));
					CK(MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE));
					CK(MPI_Send(&ack, 1, MPI_CHAR, peer, 101, MPI_COMM_WORLD));
				}
			}
			bw[l] = (double)n * WINDOW * iters / (MPI_Wtime() - t0);
		}
		if (rank == 0) printf("%d %.6e\n", n, ref_median(bw, loops));
	}
	MPI_Finalize();
	return 0;
}
