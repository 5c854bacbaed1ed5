//go:build mpi && shmem

/* The OpenSHMEM kernels for ops/mpi's engine: every file's table, joined (each file
 * ends with the table of its kernels; a file of kernels adds its table here, an
 * operation never). */
#include "shmem_kernels.h"

/* The tables of this folder's files, for ops/mpi's engine. */
static const sk_table *const tables[] = {
	&sk_shmem_rma_table, &sk_shmem_locks_table, &sk_shmem_memory_table, &sk_shmem_coll_table, &sk_shmem_sendrecv_table,
	&sk_shmem_ring_table, &sk_shmem_wait_table, &sk_shmem_ctx_table,
};

const sk_table *const *sk_shmem_tables(int *n) {
	*n = (int)(sizeof tables / sizeof tables[0]);
	return tables;
}
