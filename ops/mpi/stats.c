//go:build mpi

/* Order statistics of a handful of timings, for what is measured once per point or per
 * rank outside the timed loops (calibrations, acknowledgement times): each sorts its
 * samples in place. */
#include <stdlib.h>
#include "sk_common.h"

static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double sk_median(double *v, int n) {
	qsort(v, (size_t)n, sizeof v[0], cmp_double);
	return v[n / 2];
}

double sk_mean_fastest(double *v, int n, int k) {
	qsort(v, (size_t)n, sizeof v[0], cmp_double);
	double sum = 0;
	for (int i = 0; i < k; i++) sum += v[i];
	return sum / k;
}
