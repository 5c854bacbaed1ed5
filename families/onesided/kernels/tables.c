//go:build mpi

/* The one-sided operations' tables, which kernels.go hands to the engine: an RMA
 * operation under every synchronisation mode (rma.c), the synchronisation calls and
 * the put ping-pong (rma_calls.c), SKaMPI's synchronisation patterns (rma_sync.c),
 * concurrent accesses (rma_concurrent.c), IMB-RMA's (rma_imb.c). All work on the
 * engine's window (sk_prepare_rma, sk_close_rma). */
#include "skampi.h"

extern const sk_table sk_rma_table, sk_rma_calls_table, sk_rma_sync_table, sk_rma_concurrent_table, sk_rma_imb_table;

static const sk_table *const tables[] = {&sk_rma_table, &sk_rma_calls_table, &sk_rma_sync_table, &sk_rma_concurrent_table,
                                         &sk_rma_imb_table};

const sk_table *const *sk_onesided_tables(int *n) {
	*n = (int)(sizeof tables / sizeof tables[0]);
	return tables;
}
