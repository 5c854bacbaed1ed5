/* C helpers shared by the C files of ops/mpi and the families' kernels
 * (families/NAME/kernels, which reach this directory with -I), and by nothing on the
 * Go side: each defined once here or in the one .c file named beside it. Includes skampi.h, which includes nothing of ours. */
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

/* ack.c: the one-way time of the acknowledgement from the measured task (c->a.task) to
 * the root, which the acknowledgement-based broadcasts of ops/mpi and
 * families/shmem/kernels take off every broadcast: SK_ACK_ROUNDS 1-byte round trips
 * between the two, after SK_ACK_WARMUP untimed ones, each transport timing its own.
 * sk_ack_prepare checks the task (a member of comm, not the root) and allocates
 * c->ack_s; sk_ack_one_way turns the SK_ACK_ROUNDS round trips (sorted in place) into
 * the one-way time, for c->ack_s[task]. */
enum { SK_ACK_WARMUP = 8, SK_ACK_ROUNDS = 33 };
int sk_ack_prepare(sk_ctx *c);
double sk_ack_one_way(double *rtt);

/* rma_busy.c: a busy passive target's computation: c->busy_spin iterations of the
 * spin, calling poll every c->a.progress_every of them (0: never). */
int sk_busy_compute(sk_ctx *c, int (*poll)(sk_ctx *c));

#endif
