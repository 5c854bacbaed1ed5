/* osu_latency_mt's default sequence (-t 1:N), the way skampi's Pingpong_Send_Recv_MT_1toN
 * measures it: MPI_Init_thread(MPI_THREAD_MULTIPLE); rank 0 sends from one thread,
 * MPI_Send (tag 1) then MPI_Recv (tag 2); rank 1 runs RECEIVERS pthreads, each
 * MPI_Recv (tag 1) then MPI_Send (tag 2), all on MPI_COMM_WORLD with the same tags, so
 * any receiver may take any message. The round trips are shared among the receivers:
 * receiver j answers (skip + iters) / RECEIVERS of them, one more when j < (skip + iters)
 * % RECEIVERS, so that together they answer every one the sender sends. The receivers
 * are made once and kept, as OSU's and skampi's are (threads made for every loop mostly
 * ran one after the other on a shared core, each alone: a 1-byte round trip of 1:2 then
 * read as fast as one thread's); every loop starts them together from a pthread barrier
 * after an MPI_Barrier, and a second one ends it. The sender
 * runs `skip` untimed round trips, then times `iters` of them in one loop (skampi's
 * global loop; OSU times each round trip and sums); the size's latency is that loop /
 * (2 iters), one-way, OSU's number and skampi's latency_s. REF_MT_ITERS iterations
 * (default osu_latency_mt's: 10000 up to 8 KiB, 1000 above), a hundredth of them (at
 * least one) skipped first. The loop runs REF_LOOPS times; the median is printed.
 *
 * Usage: mpirun -np 2 ref_mt_1ton RECEIVERS SIZE...   stdout: "RECEIVERS SIZE LATENCY_S"
 * per size. */
#include <pthread.h>
#include "ref_common.h"

enum { MAX_THREADS = 64, TAG_OUT = 1, TAG_BACK = 2 };

static int nthreads, n, quit;
static long long steps; /* skip + iters, shared among the receivers */
static pthread_barrier_t start, done;
static char *sbuf[MAX_THREADS], *rbuf[MAX_THREADS];

static void *receiver(void *arg) {
	int j = (int)(long)arg;
	for (;;) {
		pthread_barrier_wait(&start);
		if (quit) break;
		long long mine = steps / nthreads + (j < steps % nthreads);
		for (long long k = 0; k < mine; k++) {
			CK(MPI_Recv(rbuf[j], n, MPI_CHAR, 0, TAG_OUT, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			CK(MPI_Send(sbuf[j], n, MPI_CHAR, 0, TAG_BACK, MPI_COMM_WORLD));
		}
		pthread_barrier_wait(&done);
	}
	return NULL;
}

int main(int argc, char **argv) {
	int provided = 0, rank = 0, size = 0;
	CK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2 || argc < 3 || provided != MPI_THREAD_MULTIPLE) {
		if (rank == 0) fprintf(stderr, "usage: mpirun -np 2 %s RECEIVERS SIZE... (needs MPI_THREAD_MULTIPLE)\n", argv[0]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	nthreads = atoi(argv[1]);
	if (nthreads < 1 || nthreads > MAX_THREADS) MPI_Abort(MPI_COMM_WORLD, 2);
	long max = 1;
	for (int i = 2; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	for (int i = 0; i < (rank == 0 ? 1 : nthreads); i++) {
		sbuf[i] = ref_alloc((size_t)max);
		rbuf[i] = ref_alloc((size_t)max);
	}
	pthread_t th[MAX_THREADS];
	pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1);
	pthread_barrier_init(&done, NULL, (unsigned)nthreads + 1);
	for (int i = 0; rank == 1 && i < nthreads; i++) pthread_create(&th[i], NULL, receiver, (void *)(long)i);
	for (int a = 2; a < argc; a++) {
		n = (int)atol(argv[a]);
		const char *it = getenv("REF_MT_ITERS");
		int iters = it && atoi(it) > 0 ? atoi(it) : n > 8192 ? 1000 : 10000;
		int skip = iters / 100 + 1;
		steps = (long long)iters + skip;
		int loops = ref_loops();
		double lat[REF_MAX_LOOPS];
		for (int l = 0; l < loops; l++) {
			CK(MPI_Barrier(MPI_COMM_WORLD));
			if (rank == 1) {
				pthread_barrier_wait(&start);
				pthread_barrier_wait(&done);
				continue;
			}
			double t0 = 0;
			for (int k = 0; k < iters + skip; k++) {
				if (k == skip) t0 = ref_now();
				CK(MPI_Send(sbuf[0], n, MPI_CHAR, 1, TAG_OUT, MPI_COMM_WORLD));
				CK(MPI_Recv(rbuf[0], n, MPI_CHAR, 1, TAG_BACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			}
			lat[l] = (ref_now() - t0) / (2.0 * iters);
		}
		if (rank == 0) printf("%d %d %.6e\n", nthreads, n, ref_median(lat, loops));
	}
	if (rank == 1) {
		quit = 1;
		pthread_barrier_wait(&start);
		for (int i = 0; i < nthreads; i++) pthread_join(th[i], NULL);
	}
	MPI_Finalize();
	return 0;
}
