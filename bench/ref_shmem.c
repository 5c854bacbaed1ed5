/* OpenSHMEM as plain C programs, for bench/reference.sh: what skampi's OpenSHMEM
 * operations measure (families/shmem/kernels), one sequence per MODE, the OSU
 * sequences among them. MPI_Init, then shmem_init, as skampi starts them; per size a symmetric buffer of
 * 2 * size + 64 bytes from shmem_malloc (skampi's per point); PE 0 times `iters`
 * operations to PE 1 with one timer pair, REF_LOOPS times, and prints the median per
 * operation. PE 1 is passive (but in bcast_ack).
 *
 *   put_quiet     shmem_putmem + shmem_quiet           (skampi Shmem_Put, full)
 *   put_post      shmem_putmem timed per call, the quiet after it untimed, less one
 *                 timer interval measured as skampi does (Shmem_Put, post)
 *   putnbi_quiet  shmem_putmem_nbi + shmem_quiet       (Shmem_Put_Nbi, full)
 *   get           shmem_getmem into a private buffer    (Shmem_Get; osu_oshm_get's loop)
 *   get_sym       shmem_getmem into symmetric memory    (Shmem_Get_Symmetric; osu_oshm_get's
 *                 destination)
 *   quiet         shmem_quiet with nothing outstanding  (Shmem_Quiet)
 *   add           shmem_long_atomic_add, no completion  (osu_oshm_atomics' add)
 *   add_quiet     shmem_long_atomic_add + shmem_quiet   (Shmem_Atomic_Add_Long, raw)
 *   fetch_add     shmem_long_atomic_fetch_add           (Shmem_Atomic_Fetch_Add_Long;
 *                 osu_oshm_atomics' fadd)
 *   bcast_ack     the method paper's Alg. 4-5 on 2 PEs: 8 consecutive shmem_broadcast64
 *                 from PE 0, each acknowledged by PE 1 with a fetch-and-increment on
 *                 PE 0's counter that PE 0 waits for, less 8 acknowledgements' one-way
 *                 time measured first (Shmem_Broadcast, method ack); per broadcast
 *
 * PE 1 checks that a put left PE 0's bytes. Two PEs exactly (bcast_ack's active set is
 * PEs 0 and 1). Usage: mpirun -np 2 ref_shmem MODE SIZE...
 * stdout: "SIZE TIME_S" per size. */
#include "ref_common.h"
#include <shmem.h>

enum { CONSECUTIVE = 8 };


/* The acknowledgement's one-way time as skampi measures it: half the mean of the
 * fastest quarter of 33 round trips (PE 0 sets PE 1's flag, PE 1 fetch-increments PE
 * 0's counter), after 8 untimed ones. The counter and flag grow, never cleared. */
static double ack_time(long *counter, long *flag, int rank) {
	double rtt[33];
	for (int i = -8; i < 33; i++) {
		long k = i + 9;
		if (rank == 0) {
			double t0 = ref_now();
			shmem_long_p(flag, k, 1);
			shmem_long_wait_until(counter, SHMEM_CMP_GE, k);
			if (i >= 0) rtt[i] = ref_now() - t0;
		} else {
			shmem_long_wait_until(flag, SHMEM_CMP_GE, k);
			shmem_long_atomic_fetch_inc(counter, 0);
		}
	}
	if (rank != 0) return 0;
	qsort(rtt, 33, sizeof rtt[0], ref_cmp);
	double sum = 0;
	for (int i = 0; i < 33 / 4; i++) sum += rtt[i];
	return sum / (33 / 4) / 2;
}

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	shmem_init();
	if (argc < 3) {
		fprintf(stderr, "usage: ref_shmem MODE SIZE...\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	const char *mode = argv[1];
	long max = 8;
	for (int i = 2; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	char *s_buf = ref_alloc((size_t)max), *r_buf = ref_alloc((size_t)max);
	for (long i = 0; i < max; i++) s_buf[i] = (char)(i * 5 + 1);
	double oh = ref_timer_overhead();
	/* The broadcast's pSync arrays and the acknowledgement counter and flag. */
	long *psync = shmem_malloc(CONSECUTIVE * SHMEM_BCAST_SYNC_SIZE * sizeof(long));
	long *ack = shmem_malloc(2 * sizeof(long));
	for (int i = 0; i < CONSECUTIVE * SHMEM_BCAST_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;
	ack[0] = ack[1] = 0;
	long seq = 0;
	shmem_barrier_all();
	for (int a = 2; a < argc; a++) {
		int n = (int)atol(argv[a]);
		int iters = n > 8192 ? 1000 : 10000, loops = ref_loops();
		double t[REF_MAX_LOOPS];
		char *sym = shmem_malloc(2 * (size_t)n + 64);
		memset(sym, 0, 2 * (size_t)n + 64);
		long *x = (long *)(sym + ((2 * (size_t)n + 63) & ~(size_t)63)); /* an aligned long past the data */
		char *land = sym + n;                                        /* get_sym's destination */
		double ack_s = 0;
		if (strcmp(mode, "bcast_ack") == 0) {
			ack_s = ack_time(&ack[0], &ack[1], rank);
			shmem_barrier_all();
			ack[0] = ack[1] = 0;
			seq = 0;
			shmem_barrier_all();
			iters /= CONSECUTIVE;
		}
		shmem_barrier_all();
		for (int l = 0; l < loops; l++) {
			shmem_barrier_all();
			if (strcmp(mode, "bcast_ack") == 0) {
				/* Groups of 8, a barrier between groups (pSync reuse), timed on PE 0
				 * from each group's first broadcast to its last acknowledgement. */
				double sum = 0;
				for (int i = 0; i < iters; i++) {
					shmem_barrier_all();
					double t0 = ref_now();
					for (int k = 0; k < CONSECUTIVE; k++) {
						shmem_broadcast64(sym, sym + n, (size_t)n / 8, 0, 0, 0, 2,
						                  psync + k * SHMEM_BCAST_SYNC_SIZE);
						seq++;
						if (rank == 1)
							shmem_long_atomic_fetch_inc(&ack[0], 0);
						else
							shmem_long_wait_until(&ack[0], SHMEM_CMP_GE, seq);
					}
					sum += ref_now() - t0 - CONSECUTIVE * ack_s;
				}
				t[l] = sum / iters / CONSECUTIVE;
				continue;
			}
			if (rank != 0) {
				t[l] = 0;
				continue;
			}
			double t0 = 0, sum = 0;
#define LOOP(body)                                      \
	for (int i = 0; i < iters / 10; i++) { body; }      \
	t0 = ref_now();                                     \
	for (int i = 0; i < iters; i++) { body; }           \
	sum = ref_now() - t0
			if (strcmp(mode, "put_quiet") == 0) {
				LOOP(shmem_putmem(sym, s_buf, (size_t)n, 1); shmem_quiet());
			} else if (strcmp(mode, "putnbi_quiet") == 0) {
				LOOP(shmem_putmem_nbi(sym, s_buf, (size_t)n, 1); shmem_quiet());
			} else if (strcmp(mode, "put_post") == 0) {
				for (int i = 0; i < iters / 10; i++) {
					shmem_putmem(sym, s_buf, (size_t)n, 1);
					shmem_quiet();
				}
				for (int i = 0; i < iters; i++) {
					double p0 = ref_now();
					shmem_putmem(sym, s_buf, (size_t)n, 1);
					sum += ref_now() - p0 - oh;
					shmem_quiet();
				}
			} else if (strcmp(mode, "get") == 0) {
				LOOP(shmem_getmem(r_buf, sym, (size_t)n, 1));
			} else if (strcmp(mode, "get_sym") == 0) {
				LOOP(shmem_getmem(land, sym, (size_t)n, 1));
			} else if (strcmp(mode, "quiet") == 0) {
				LOOP(shmem_quiet());
			} else if (strcmp(mode, "add") == 0) {
				LOOP(shmem_long_atomic_add(x, 1, 1));
				shmem_quiet();
			} else if (strcmp(mode, "add_quiet") == 0) {
				LOOP(shmem_long_atomic_add(x, 1, 1); shmem_quiet());
			} else if (strcmp(mode, "fetch_add") == 0) {
				volatile long r = 0;
				LOOP(r = shmem_long_atomic_fetch_add(x, 1, 1));
				(void)r;
			} else {
				fprintf(stderr, "ref_shmem: unknown mode %s\n", mode);
				MPI_Abort(MPI_COMM_WORLD, 2);
			}
#undef LOOP
			t[l] = sum / iters;
		}
		shmem_barrier_all();
		if (rank == 1 && strncmp(mode, "put", 3) == 0 && memcmp(sym, s_buf, (size_t)n) != 0) {
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
