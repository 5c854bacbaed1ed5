/* One-sided latency as a plain C program, for bench/reference.sh: what skampi's Put
 * measures with window = 1 under the method named (families/onesided/kernels/rma.c), one sequence per
 * MODE:
 *   lock_all_flush  MPI_Win_lock_all held while measured; MPI_Put + MPI_Win_flush
 *   flush           MPI_Win_lock(MPI_LOCK_SHARED, 1) held; MPI_Put + MPI_Win_flush
 *                   (osu_put_latency -s flush)
 *   lock_all        MPI_Win_lock_all, MPI_Put, MPI_Win_unlock_all per operation
 *                   (osu_put_latency -s lock_all)
 *   fence           a ping-pong: rank 0 fences, puts, fences, fences; rank 1 fences,
 *                   fences, puts into rank 0, fences; time per iteration / 2
 *                   (osu_put_latency -s fence)
 * Per size, as skampi does per point, a window from MPI_Win_allocate of the size + 64
 * bytes on a duplicate of MPI_COMM_WORLD; rank 0 times `iters` operations REF_LOOPS
 * times per size and prints the median per operation, twice: with one timer pair
 * around the loop (skampi's way), and with OSU's two MPI_Wtime calls per operation
 * inside the loop as well. After the last loop rank 1 checks that its window holds
 * rank 0's bytes (a put that copied nothing would otherwise look fast).
 *
 * Usage: mpirun -np 2 ref_rma MODE SIZE...
 * stdout: "SIZE TIME_S OSU_TIMED_S" per size. */
#include "ref_common.h"

enum { LOCK_ALL_FLUSH, FLUSH, LOCK_ALL, FENCE };

/* One operation of the mode. rank 0's part; rank 1 takes part in the fence only. */
static inline void step(int mode, int rank, char *s_buf, int n, MPI_Win win) {
	switch (mode) {
	case LOCK_ALL_FLUSH:
	case FLUSH:
		CK(MPI_Put(s_buf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win));
		CK(MPI_Win_flush(1, win));
		break;
	case LOCK_ALL:
		CK(MPI_Win_lock_all(0, win));
		CK(MPI_Put(s_buf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win));
		CK(MPI_Win_unlock_all(win));
		break;
	case FENCE:
		CK(MPI_Win_fence(0, win));
		if (rank == 0) CK(MPI_Put(s_buf, n, MPI_BYTE, 1, 0, n, MPI_BYTE, win));
		CK(MPI_Win_fence(0, win));
		if (rank == 1) CK(MPI_Put(s_buf, n, MPI_BYTE, 0, 0, n, MPI_BYTE, win));
		CK(MPI_Win_fence(0, win));
		break;
	}
}

/* One timed loop of iters operations; osu: also read MPI_Wtime before and after each
 * operation, as osu_put_latency does. Seconds per operation (per one-way epoch for
 * the fence ping-pong). */
static double loop(int mode, int rank, char *s_buf, int n, MPI_Win win, int iters, int osu) {
	volatile double sink = 0;
	double t0 = ref_now();
	for (int i = 0; i < iters; i++) {
		double a = osu ? MPI_Wtime() : 0;
		step(mode, rank, s_buf, n, win);
		if (osu) sink += MPI_Wtime() - a;
	}
	double t = (ref_now() - t0) / iters;
	(void)sink;
	return mode == FENCE ? t / 2 : t;
}

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	if (argc < 2) {
		if (rank == 0) fprintf(stderr, "usage: ref_rma lock_all_flush|flush|lock_all|fence SIZE...\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	const char *names[] = {"lock_all_flush", "flush", "lock_all", "fence"};
	int mode = -1;
	for (int m = 0; m < 4; m++)
		if (strcmp(argv[1], names[m]) == 0) mode = m;
	if (mode < 0) {
		if (rank == 0) fprintf(stderr, "ref_rma: unknown mode %s\n", argv[1]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	long max = 1;
	for (int i = 2; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	char *s_buf = ref_alloc((size_t)max), *base;
	for (long i = 0; i < max; i++) s_buf[i] = (char)(i * 7 + 3);
	MPI_Comm comm;
	CK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	for (int a = 2; a < argc; a++) {
		int n = (int)atol(argv[a]);
		int iters = n > 8192 ? 1000 : 10000, loops = ref_loops();
		double t[REF_MAX_LOOPS], t_osu[REF_MAX_LOOPS];
		MPI_Win win;
		CK(MPI_Win_allocate((MPI_Aint)n + 64, 1, MPI_INFO_NULL, comm, &base, &win));
		memset(base, 0, (size_t)n + 64);
		CK(MPI_Barrier(comm));
		if (mode == LOCK_ALL_FLUSH) CK(MPI_Win_lock_all(0, win));
		if (mode == FLUSH && rank == 0) CK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
		for (int l = 0; l < loops; l++) {
			for (int osu = 0; osu < 2; osu++) {
				CK(MPI_Barrier(comm));
				if (rank != 0 && mode != FENCE) {
					t[l] = t_osu[l] = 0;
					continue;
				}
				loop(mode, rank, s_buf, n, win, iters / 10, osu); /* warm-up */
				double v = loop(mode, rank, s_buf, n, win, iters, osu);
				if (osu)
					t_osu[l] = v;
				else
					t[l] = v;
			}
		}
		if (mode == LOCK_ALL_FLUSH) CK(MPI_Win_unlock_all(win));
		if (mode == FLUSH && rank == 0) CK(MPI_Win_unlock(1, win));
		if (mode == FENCE) CK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
		CK(MPI_Barrier(comm));
		if (rank == 1) {
			CK(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win));
			CK(MPI_Win_sync(win));
			if (memcmp(base, s_buf, (size_t)n) != 0) {
				fprintf(stderr, "ref_rma %s: %d bytes: the target's window does not hold what was put\n", argv[1], n);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
			CK(MPI_Win_unlock(1, win));
		}
		CK(MPI_Win_free(&win));
		if (rank == 0) printf("%d %.6e %.6e\n", n, ref_median(t, loops), ref_median(t_osu, loops));
	}
	CK(MPI_Comm_free(&comm));
	MPI_Finalize();
	return 0;
}
