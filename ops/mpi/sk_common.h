/* C helpers shared by the C files of ops/mpi and ops/shmem (which reaches this
 * directory with -I), and by nothing on the Go side: each defined once here or in
 * the one .c file named beside it. Includes skampi.h, which includes nothing of ours. */
#ifndef SKAMPI_COMMON_H
#define SKAMPI_COMMON_H

#include "skampi.h"

/* CK(call): return the call's result from the enclosing function unless it is
 * MPI_SUCCESS (an MPI error code, or one of our SK_ERR_*). */
#define CK(call)                            \
	do {                                    \
		int rc_ = (call);                   \
		if (rc_ != MPI_SUCCESS) return rc_; \
	} while (0)

/* stats.c: both sort v, n samples, in place. sk_median: the middle one (n odd);
 * sk_mean_fastest: the mean of the k smallest. */
double sk_median(double *v, int n);
double sk_mean_fastest(double *v, int n, int k);

#endif
