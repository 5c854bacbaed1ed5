/* The halo step as a plain C program, for bench/reference.sh: what skampi's
 * Halo_Twosided, Halo_Onesided_PSCW and Halo_Onesided_Fence measure (ops/mpi/halo.c)
 * on 2 processes, each the other's both neighbours, one sequence per MODE:
 *   twosided  MPI_Irecv x2, MPI_Isend x2 (a row of SIZE bytes each way), spin,
 *             MPI_Waitall
 *   pscw      MPI_Win_post + MPI_Win_start (the peer), MPI_Get x2, spin,
 *             MPI_Win_complete, MPI_Win_wait
 *   fence     MPI_Win_fence, MPI_Get x2, spin, MPI_Win_fence
 * The spin lasts COMPUTE_US (0: none), its count from the median ns per iteration of
 * 7 runs of at least 200 us, as skampi calibrates it. Per size a window from
 * MPI_Win_allocate of 2 * SIZE + 64 bytes (skampi's); every loop of ITERS steps starts
 * after a barrier and is timed as a whole on both ranks; a loop's time is the slower
 * rank's per step, and the program prints the median of REF_LOOPS loops. After the
 * last loop each rank checks the rows it got (a get that copied nothing would
 * otherwise look fast).
 *
 * Usage: mpirun -np 2 ref_halo MODE COMPUTE_US ITERS SIZE...
 * stdout: "SIZE TIME_S" per size. */
#include "ref_common.h"

enum { TWOSIDED, PSCW, FENCE };

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

static inline void step(int mode, int peer, char *s, char *r, char *got, int n, long long nspin, MPI_Win win,
                        MPI_Group g, MPI_Comm comm) {
	MPI_Request req[4];
	switch (mode) {
	case TWOSIDED:
		CK(MPI_Irecv(r, n, MPI_BYTE, peer, 11, comm, &req[0]));
		CK(MPI_Irecv(r + n, n, MPI_BYTE, peer, 12, comm, &req[1]));
		CK(MPI_Isend(s, n, MPI_BYTE, peer, 12, comm, &req[2]));
		CK(MPI_Isend(s + n, n, MPI_BYTE, peer, 11, comm, &req[3]));
		spin(nspin);
		CK(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
		break;
	case PSCW:
		CK(MPI_Win_post(g, MPI_MODE_NOPUT, win));
		CK(MPI_Win_start(g, 0, win));
		CK(MPI_Get(got, n, MPI_BYTE, peer, n, n, MPI_BYTE, win));
		CK(MPI_Get(got + n, n, MPI_BYTE, peer, 0, n, MPI_BYTE, win));
		spin(nspin);
		CK(MPI_Win_complete(win));
		CK(MPI_Win_wait(win));
		break;
	case FENCE:
		CK(MPI_Win_fence(0, win));
		CK(MPI_Get(got, n, MPI_BYTE, peer, n, n, MPI_BYTE, win));
		CK(MPI_Get(got + n, n, MPI_BYTE, peer, 0, n, MPI_BYTE, win));
		spin(nspin);
		CK(MPI_Win_fence(0, win));
		break;
	}
}

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	const char *names[] = {"twosided", "pscw", "fence"};
	int mode = -1;
	for (int m = 0; argc > 1 && m < 3; m++)
		if (strcmp(argv[1], names[m]) == 0) mode = m;
	if (argc < 5 || mode < 0) {
		if (rank == 0) fprintf(stderr, "usage: ref_halo twosided|pscw|fence COMPUTE_US ITERS SIZE...\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	double compute = atof(argv[2]) * 1e-6;
	int iters = atoi(argv[3]), peer = 1 - rank;
	long max = 1;
	for (int i = 4; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	char *s = ref_alloc(2 * (size_t)max), *r = ref_alloc(2 * (size_t)max), *got = ref_alloc(2 * (size_t)max);
	long long nspin = compute > 0 ? (long long)(compute * 1e9 / spin_ns() + 0.5) : 0;
	MPI_Comm comm;
	MPI_Group world, g;
	CK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	CK(MPI_Comm_group(comm, &world));
	CK(MPI_Group_incl(world, 1, &peer, &g));
	for (int a = 4; a < argc; a++) {
		int n = (int)atol(argv[a]), loops = ref_loops();
		double t[REF_MAX_LOOPS];
		char *base;
		MPI_Win win = MPI_WIN_NULL;
		if (mode != TWOSIDED) {
			CK(MPI_Win_allocate(2 * (MPI_Aint)n + 64, 1, MPI_INFO_NULL, comm, &base, &win));
			for (int i = 0; i < 2 * n; i++) base[i] = (char)(rank * 31 + i * 7 + 3); /* my rows */
		}
		for (int i = 0; i < 2 * n; i++) s[i] = (char)(rank * 31 + i * 7 + 3);
		CK(MPI_Barrier(comm));
		if (mode == FENCE) CK(MPI_Win_fence(0, win));
		for (int i = 0; i < iters / 10 + 1; i++) step(mode, peer, s, r, got, n, nspin, win, g, comm); /* warm-up */
		for (int l = 0; l < loops; l++) {
			CK(MPI_Barrier(comm));
			double t0 = ref_now();
			for (int i = 0; i < iters; i++) step(mode, peer, s, r, got, n, nspin, win, g, comm);
			double mine = (ref_now() - t0) / iters;
			CK(MPI_Allreduce(&mine, &t[l], 1, MPI_DOUBLE, MPI_MAX, comm));
		}
		if (mode == FENCE) CK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
		/* The previous rank's last row, then the next one's first: here both the peer's. */
		const char *in = mode == TWOSIDED ? r : got;
		for (int i = 0; i < 2 * n; i++) {
			int off = i < n ? i + n : i - n;
			if (in[i] != (char)(peer * 31 + off * 7 + 3)) {
				fprintf(stderr, "ref_halo %s: %d bytes: row byte %d is not the peer's\n", argv[1], n, i);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
		}
		if (win != MPI_WIN_NULL) CK(MPI_Win_free(&win));
		if (rank == 0) printf("%d %.6e\n", n, ref_median(t, loops));
	}
	MPI_Group_free(&g);
	MPI_Group_free(&world);
	CK(MPI_Comm_free(&comm));
	MPI_Finalize();
	return 0;
}
