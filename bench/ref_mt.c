/* Multi-threaded ping-pong, the way skampi's Pingpong_Send_Recv_MT measures it (and
 * osu_latency_mt, with a communicator per thread): MPI_Init_thread(MPI_THREAD_MULTIPLE),
 * THREADS pthreads per rank, thread i on its own duplicate of MPI_COMM_WORLD with its
 * partner thread i of the other rank. For each size, the threads start together from a
 * pthread barrier; each runs `skip` untimed round trips, then times `iters` round trips
 * (MPI_Send then MPI_Recv on rank 0, the reverse on rank 1); the size's latency is the
 * slowest thread's loop time / (2 iters), one-way, as rank 0 measured it: skampi's
 * latency_s (time_s / 2). REF_MT_ITERS iterations (default osu_latency's: 10000 up to
 * 8 KiB, 1000 above), a hundredth of them (at least one) skipped first: threads sharing
 * a core take milliseconds a round trip, so reference.sh asks for few. The loop runs
 * REF_LOOPS times; the median is printed.
 *
 * Usage: mpirun -np 2 ref_mt THREADS SIZE...   stdout: "THREADS SIZE LATENCY_S" per size. */
#include <pthread.h>
#include "ref_common.h"

enum { MAX_THREADS = 64 };

static int rank, nthreads, n, iters, skip;
static pthread_barrier_t start, done;
static MPI_Comm comms[MAX_THREADS];
static char *sbuf[MAX_THREADS], *rbuf[MAX_THREADS];
static double took[MAX_THREADS];

static void *worker(void *arg) {
	int i = (int)(long)arg, peer = 1 - rank;
	MPI_Comm comm = comms[i];
	pthread_barrier_wait(&start);
	double t0 = 0;
	for (int k = 0; k < iters + skip; k++) {
		if (k == skip) t0 = ref_now();
		if (rank == 0) {
			CK(MPI_Send(sbuf[i], n, MPI_CHAR, peer, 1, comm));
			CK(MPI_Recv(rbuf[i], n, MPI_CHAR, peer, 1, comm, MPI_STATUS_IGNORE));
		} else {
			CK(MPI_Recv(rbuf[i], n, MPI_CHAR, peer, 1, comm, MPI_STATUS_IGNORE));
			CK(MPI_Send(sbuf[i], n, MPI_CHAR, peer, 1, comm));
		}
	}
	took[i] = ref_now() - t0;
	pthread_barrier_wait(&done);
	return NULL;
}

int main(int argc, char **argv) {
	int provided = 0, size = 0;
	CK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2 || argc < 3 || provided != MPI_THREAD_MULTIPLE) {
		if (rank == 0) fprintf(stderr, "usage: mpirun -np 2 %s THREADS SIZE... (needs MPI_THREAD_MULTIPLE)\n", argv[0]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	nthreads = atoi(argv[1]);
	if (nthreads < 1 || nthreads > MAX_THREADS) MPI_Abort(MPI_COMM_WORLD, 2);
	long max = 1;
	for (int i = 2; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	for (int i = 0; i < nthreads; i++) {
		CK(MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]));
		sbuf[i] = ref_alloc((size_t)max);
		rbuf[i] = ref_alloc((size_t)max);
	}
	pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1);
	pthread_barrier_init(&done, NULL, (unsigned)nthreads + 1);
	for (int a = 2; a < argc; a++) {
		n = (int)atol(argv[a]);
		const char *it = getenv("REF_MT_ITERS");
		iters = it && atoi(it) > 0 ? atoi(it) : n > 8192 ? 1000 : 10000;
		skip = iters / 100 + 1;
		int loops = ref_loops();
		double lat[REF_MAX_LOOPS];
		for (int l = 0; l < loops; l++) {
			pthread_t th[MAX_THREADS];
			CK(MPI_Barrier(MPI_COMM_WORLD));
			for (int i = 0; i < nthreads; i++) pthread_create(&th[i], NULL, worker, (void *)(long)i);
			pthread_barrier_wait(&start);
			pthread_barrier_wait(&done);
			double slowest = 0;
			for (int i = 0; i < nthreads; i++) {
				pthread_join(th[i], NULL);
				if (took[i] > slowest) slowest = took[i];
			}
			lat[l] = slowest / (2.0 * iters);
		}
		if (rank == 0) printf("%d %d %.6e\n", nthreads, n, ref_median(lat, loops));
	}
	for (int i = 0; i < nthreads; i++) MPI_Comm_free(&comms[i]);
	MPI_Finalize();
	return 0;
}
