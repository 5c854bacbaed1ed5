/* Synchronisation calls with a late partner as a plain C program, for
 * bench/reference.sh: what skampi's Win_start and Win_complete measure
 * (families/onesided/kernels/rma_sync.c) at each delay, one post-start-complete-wait epoch per step with
 * a put of 8 bytes:
 *   start     the origin's MPI_Win_start timed alone; the target computes DELAY (a busy
 *             wait on the clock) before its MPI_Win_post
 *   complete  the origin's MPI_Win_complete timed alone after its put; the target
 *             computes DELAY between its MPI_Win_post and its MPI_Win_wait
 * The rest of each epoch is untimed. rank 0 sums the timed call over about 1 ms of
 * steps (skampi's rep_time), 6 * REF_LOOPS times per delay, and prints the median per
 * step: a loop as long as skampi's repetition, so a loop the scheduler preempts is an
 * outlier here as a repetition is there (20 ms loops on a busy machine all were). A window from
 * MPI_Win_allocate of 8 + 64 bytes on a duplicate of MPI_COMM_WORLD, as skampi's.
 *
 * Usage: mpirun -np 2 ref_sync start|complete DELAY_US...
 * stdout: "Win_start,delay=DELAYus TIME_S" (or Win_complete) per delay: the name of
 * the skampi measurement of the same sequence. */
#include "ref_common.h"

enum { START, COMPLETE };

static void busy(double seconds) {
	double until = ref_now() + seconds;
	while (ref_now() < until) {
	}
}

/* One step; the origin's timed call's duration (0 on the target). */
static double step(int mode, int rank, MPI_Group peer, char *s_buf, double delay, MPI_Win win) {
	double t = 0;
	if (rank == 0) {
		double t0 = ref_now();
		CK(MPI_Win_start(peer, 0, win));
		if (mode == START) t = ref_now() - t0;
		CK(MPI_Put(s_buf, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win));
		t0 = ref_now();
		CK(MPI_Win_complete(win));
		if (mode == COMPLETE) t = ref_now() - t0;
		return t;
	}
	if (mode == START) busy(delay);
	CK(MPI_Win_post(peer, 0, win));
	if (mode == COMPLETE) busy(delay);
	CK(MPI_Win_wait(win));
	return 0;
}

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	int mode = argc >= 2 && strcmp(argv[1], "start") == 0      ? START
	           : argc >= 2 && strcmp(argv[1], "complete") == 0 ? COMPLETE
	                                                           : -1;
	if (mode < 0 || argc < 3) {
		if (rank == 0) fprintf(stderr, "usage: ref_sync start|complete DELAY_US...\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	char *s_buf = ref_alloc(8), *base;
	memset(s_buf, 7, 8);
	MPI_Comm comm;
	CK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	MPI_Group world, peer;
	CK(MPI_Comm_group(comm, &world));
	int other = 1 - rank;
	CK(MPI_Group_incl(world, 1, &other, &peer));
	for (int a = 2; a < argc; a++) {
		int us = atoi(argv[a]);
		double delay = us * 1e-6;
		int iters = us > 0 ? (int)(1e-3 / delay) + 1 : 500, loops = 6 * ref_loops();
		double t[6 * REF_MAX_LOOPS];
		MPI_Win win;
		CK(MPI_Win_allocate(8 + 64, 1, MPI_INFO_NULL, comm, &base, &win));
		memset(base, 0, 8 + 64);
		CK(MPI_Barrier(comm));
		for (int l = 0; l < loops; l++) {
			CK(MPI_Barrier(comm));
			for (int i = 0; i < iters / 4; i++) step(mode, rank, peer, s_buf, delay, win); /* warm-up */
			double sum = 0;
			for (int i = 0; i < iters; i++) sum += step(mode, rank, peer, s_buf, delay, win);
			t[l] = sum / iters;
		}
		CK(MPI_Barrier(comm));
		if (rank == 1 && memcmp(base, s_buf, 8) != 0) {
			fprintf(stderr, "ref_sync: the target's window does not hold what was put\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		CK(MPI_Win_free(&win));
		if (rank == 0)
			printf("%s,delay=%dus %.6e\n", mode == START ? "Win_start" : "Win_complete", us, ref_median(t, loops));
	}
	MPI_Group_free(&peer);
	MPI_Group_free(&world);
	CK(MPI_Comm_free(&comm));
	MPI_Finalize();
	return 0;
}
