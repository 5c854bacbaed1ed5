/* MPI_Neighbor_alltoall on a periodic 2-D Cartesian grid (MPI_Dims_create's dimensions,
 * no reordering; SIZE bytes to and from each of the 4 neighbours) and a persistent
 * MPI_Allreduce (MPI_INT, MPI_SUM; MPI_Allreduce_init once, MPI_Start + MPI_Wait per
 * call; Open MPI 4.1's MPIX_Allreduce_init where that is what the library has), timed
 * skampi's way: each of REPS repetitions (after 2 thrown away) is an MPI_Barrier, then
 * one call between two timer reads; a repetition's time is the slowest rank's; the
 * result is the mean of the middle half. Beside skampi's Neighbor_alltoall (topology
 * "cart") and Allreduce_persistent.
 *
 * Usage: mpirun -np 2 ref_mpi4 SIZE...
 * stdout: "Neighbor_alltoall SIZE sync SECONDS" and "Allreduce_persistent SIZE sync
 * SECONDS" per size (no persistent line on a library without persistent collectives). */
#include "ref_common.h"
#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif
/* What the library provides, asked of the library as skampi does (ops/mpi/persistent.c),
 * not of MPI_VERSION: weak references, NULL where it does not define the routine. */
typedef int allreduce_init_fn(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info, MPI_Request *);
extern allreduce_init_fn MPI_Allreduce_init __attribute__((weak));
#ifdef OPEN_MPI
extern allreduce_init_fn MPIX_Allreduce_init __attribute__((weak));
#define ALLREDUCE_INIT (MPI_Allreduce_init ? MPI_Allreduce_init : MPIX_Allreduce_init)
#else
#define ALLREDUCE_INIT MPI_Allreduce_init
#endif

#define REPS 64

/* timed: REPS synchronised calls of step (after 2), the slowest rank's each. */
static double timed(int (*step)(void *), void *arg) {
	double t[REPS];
	for (int i = -2; i < REPS; i++) {
		CK(MPI_Barrier(MPI_COMM_WORLD));
		double t0 = ref_now();
		CK(step(arg));
		double mine = ref_now() - t0, slowest;
		CK(MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
		if (i >= 0) t[i] = slowest;
	}
	return ref_middle_mean(t, REPS);
}

struct nb {
	char *s, *r;
	int n;
	MPI_Comm cart;
};
static int neighbor_alltoall(void *p) {
	struct nb *a = p;
	return MPI_Neighbor_alltoall(a->s, a->n, MPI_BYTE, a->r, a->n, MPI_BYTE, a->cart);
}
static int start_wait(void *p) {
	MPI_Request *q = p;
	int rc = MPI_Start(q);
	return rc == MPI_SUCCESS ? MPI_Wait(q, MPI_STATUS_IGNORE) : rc;
}

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	long max = 4;
	for (int i = 1; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	char *s = ref_alloc((size_t)max * 4), *r = ref_alloc((size_t)max * 4);
	int dims[2] = {0, 0}, periods[2] = {1, 1};
	MPI_Comm cart;
	CK(MPI_Dims_create(size, 2, dims));
	CK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
	for (int a = 1; a < argc; a++) {
		int n = (int)atol(argv[a]);
		struct nb arg = {s, r, n, cart};
		double t = timed(neighbor_alltoall, &arg);
		if (rank == 0) printf("Neighbor_alltoall %d sync %.6e\n", n, t);
		if (!ALLREDUCE_INIT) continue;
		MPI_Request q;
		int count = n / 4 > 0 ? n / 4 : 1;
		CK(ALLREDUCE_INIT(s, r, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q));
		t = timed(start_wait, &q);
		CK(MPI_Request_free(&q));
		if (rank == 0) printf("Allreduce_persistent %d sync %.6e\n", n, t);
	}
	CK(MPI_Comm_free(&cart));
	MPI_Finalize();
	return 0;
}
