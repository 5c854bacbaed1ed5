/* ops/shmem's C side: its kernel table for ops/mpi's engine, and OpenSHMEM's life. */
#ifndef SKAMPI_SHMEM_KERNELS_H
#define SKAMPI_SHMEM_KERNELS_H

#include "skampi.h"

const sk_kernel *sk_shmem_kernels(int *n);
/* sk_shmem_init starts OpenSHMEM after MPI_Init and checks that PE numbers are
 * MPI_COMM_WORLD's ranks (SK_ERR_COMM otherwise). */
int sk_shmem_init(int world_rank, int world_size);
void sk_shmem_finalize(void);
void sk_shmem_info(char *name, int len, int *major, int *minor);

/* locks.c */
int sk_shmem_lock_contention(sk_ctx *c);
int sk_shmem_test_lock(sk_ctx *c);
int sk_shmem_lock_held(sk_ctx *c);

#endif
