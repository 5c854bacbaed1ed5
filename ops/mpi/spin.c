//go:build mpi

/* The busy computation: what the non-blocking overlap measurements run between a post
 * and its completion (nonblocking.c), what a lock's holder keeps its lock for
 * (locks.c, families/shmem/kernels/locks.c), and its calibration. */
#include "sk_common.h"

/* Never inlined: the overlap, the computation alone and the calibration must run the
 * same machine code (inlined copies may be aligned, and so run, differently). */
__attribute__((noinline)) void sk_spin(long long n) {
	/* The empty asm with a memory clobber is a compiler barrier: the loop cannot be
	 * folded or removed, and it makes no call and no system call. */
	for (long long i = 0; i < n; i++) __asm__ __volatile__("" ::: "memory");
}

double sk_spin_calibrate(void) {
	long long n = 1024;
	while (n < (1LL << 40)) { /* until one run is long enough to time well (200 us) */
		double t0 = sk_now();
		sk_spin(n);
		if (sk_now() - t0 >= 2e-4) break;
		n *= 4;
	}
	/* The median of a few runs: the computation then lasts its target in a typical
	 * run (the fastest run is 10-15 % quicker than typical on a shared machine). */
	enum { RUNS = 7 };
	double t[RUNS];
	for (int r = 0; r < RUNS; r++) {
		double t0 = sk_now();
		sk_spin(n);
		t[r] = sk_now() - t0;
	}
	return sk_median(t, RUNS) / (double)n * 1e9;
}

long long sk_spin_for(double target, double ns_per_iter) {
	if (!(target > 0) || !(ns_per_iter > 0)) return 0;
	long long n = (long long)(target * 1e9 / ns_per_iter + 0.5);
	if (n < 1) n = 1;
	if (target >= 2e-4) return n; /* as long as the rate's own runs: nothing to correct */
	/* Calls of sk_spin(n) in batches of about 200 us, one timer pair per batch: a
	 * short computation's call and loop set-up count as they will between a post and
	 * its completion (a rate from long runs made 50-300 ns computations 16-42 % long). */
	long long k = (long long)(2e-4 / target);
	if (k < 1) k = 1;
	if (k > 100000) k = 100000;
	for (int round = 0; round < 4; round++) {
		enum { BATCHES = 5 };
		double b[BATCHES];
		for (int r = 0; r < BATCHES; r++) {
			double t0 = sk_now();
			for (long long j = 0; j < k; j++) sk_spin(n);
			b[r] = (sk_now() - t0) / (double)k;
		}
		double t = sk_median(b, BATCHES);
		if (!(t > 0)) break;
		double ratio = target / t;
		long long next = (long long)((double)n * ratio + 0.5);
		if (next < 1) next = 1;
		if (next == n || (ratio > 0.98 && ratio < 1.02)) break;
		n = next;
	}
	return n;
}
