/* MPI_Allreduce (MPI_INT, MPI_SUM), MPI_Bcast (root 0) and MPI_Alltoall (MPI_INT;
 * SIZE bytes per process, to each process for Alltoall), each timed two ways:
 *
 *   sync:      skampi's way. Each of REPS repetitions (after 2 thrown away) is an
 *              MPI_Barrier, then one call between two timer reads; a repetition's time
 *              is the slowest rank's; the result is the mean of the middle half.
 *   pipelined: OSU's and IMB's way. One MPI_Barrier, then N back-to-back calls (after
 *              N/10 untimed ones) between two timer reads; the result is rank 0's
 *              time / N. Consecutive calls overlap: a rank leaves a call as soon as its
 *              own part is done and starts the next. The loop runs REF_LOOPS times;
 *              the median is printed.
 *
 * MPI_Bcast is also timed the method paper's Alg. 4-5 way (ack), as skampi's method ack
 * does: the acknowledgement's one-way time first (half the mean of the fastest quarter
 * of 33 1-byte round trips, after 8), then per repetition an MPI_Barrier and 8
 * broadcasts each acknowledged by rank 1 with a 1-byte message rank 0 waits for, timed
 * on rank 0, less 8 acknowledgements, per broadcast; the mean of the middle half (two
 * ranks: rank 1 is the only task).
 *
 * Usage: mpirun -np 2 ref_coll SIZE...
 * stdout: "OP SIZE sync SECONDS", "OP SIZE pipelined SECONDS" per op and size, and
 * "Bcast SIZE ack SECONDS". */
#include "ref_common.h"

#define REPS 64
#define N 1000

enum { ALLREDUCE, BCAST, ALLTOALL };
static const char *names[] = {"Allreduce", "Bcast", "Alltoall"};

static void call(int op, char *s, char *r, int count) {
	switch (op) {
	case ALLREDUCE: CK(MPI_Allreduce(s, r, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD)); break;
	case BCAST: CK(MPI_Bcast(s, count, MPI_INT, 0, MPI_COMM_WORLD)); break;
	case ALLTOALL: CK(MPI_Alltoall(s, count, MPI_INT, r, count, MPI_INT, MPI_COMM_WORLD)); break;
	}
}

/* Alg. 4-5 on ranks 0 (root) and 1 (task): see the header. */
static void bcast_ack(int rank, int size, char *s, int count, int n) {
	enum { WARMUP = 8, ROUNDS = 33, M = 8 };
	char b = 0;
	double rtt[ROUNDS], ack = 0, t[REPS];
	for (int i = -WARMUP; i < ROUNDS; i++) {
		double t0 = MPI_Wtime();
		if (rank == 0) {
			CK(MPI_Send(&b, 1, MPI_BYTE, 1, 7, MPI_COMM_WORLD));
			CK(MPI_Recv(&b, 1, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		} else if (rank == 1) {
			CK(MPI_Recv(&b, 1, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			CK(MPI_Send(&b, 1, MPI_BYTE, 0, 7, MPI_COMM_WORLD));
		}
		if (i >= 0) rtt[i] = MPI_Wtime() - t0;
	}
	qsort(rtt, ROUNDS, sizeof rtt[0], ref_cmp);
	for (int i = 0; i < ROUNDS / 4; i++) ack += rtt[i];
	ack = ack / (ROUNDS / 4) / 2;
	for (int i = -2; i < REPS; i++) {
		CK(MPI_Barrier(MPI_COMM_WORLD));
		double t0 = MPI_Wtime();
		for (int k = 0; k < M; k++) {
			CK(MPI_Bcast(s, count, MPI_INT, 0, MPI_COMM_WORLD));
			if (rank == 1) CK(MPI_Send(&b, 1, MPI_BYTE, 0, 8, MPI_COMM_WORLD));
			if (rank == 0) CK(MPI_Recv(&b, 1, MPI_BYTE, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		}
		if (i >= 0) t[i] = (MPI_Wtime() - t0 - M * ack) / M;
	}
	(void)size;
	if (rank == 0) printf("Bcast %d ack %.6e\n", n, ref_middle_mean(t, REPS));
}

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	long max = 4;
	for (int i = 1; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	/* Room for one block per process (Alltoall). */
	char *s = ref_alloc((size_t)max * size), *r = ref_alloc((size_t)max * size);
	double t[REPS];
	for (int op = ALLREDUCE; op <= ALLTOALL; op++) {
		for (int a = 1; a < argc; a++) {
			int n = (int)atol(argv[a]), count = n / 4 > 0 ? n / 4 : 1;
			for (int i = -2; i < REPS; i++) {
				CK(MPI_Barrier(MPI_COMM_WORLD));
				double t0 = MPI_Wtime();
				call(op, s, r, count);
				double mine = MPI_Wtime() - t0, slowest;
				CK(MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
				if (i >= 0) t[i] = slowest;
			}
			if (rank == 0) printf("%s %d sync %.6e\n", names[op], n, ref_middle_mean(t, REPS));
			int loops = ref_loops();
			double per[REF_MAX_LOOPS];
			for (int l = 0; l < loops; l++) {
				for (int i = 0; i < N / 10; i++) call(op, s, r, count);
				CK(MPI_Barrier(MPI_COMM_WORLD));
				double t0 = MPI_Wtime();
				for (int i = 0; i < N; i++) call(op, s, r, count);
				per[l] = (MPI_Wtime() - t0) / N;
			}
			if (rank == 0) printf("%s %d pipelined %.6e\n", names[op], n, ref_median(per, loops));
			if (op == BCAST) bcast_ack(rank, size, s, count, n);
		}
	}
	MPI_Finalize();
	return 0;
}
