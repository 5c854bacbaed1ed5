/* The OpenSHMEM kernels' C side: their table for ops/mpi's engine, and OpenSHMEM's life. */
#ifndef SKAMPI_SHMEM_KERNELS_H
#define SKAMPI_SHMEM_KERNELS_H

#include "kernels.h"

/* Every file of kernels ends with its table (kernels.h's sk_table), joined here. */
const sk_table *const *sk_shmem_tables(int *n);
extern const sk_table sk_shmem_rma_table, sk_shmem_locks_table, sk_shmem_memory_table, sk_shmem_coll_table,
    sk_shmem_sendrecv_table, sk_shmem_ring_table, sk_shmem_wait_table, sk_shmem_ctx_table;
/* sk_shmem_init starts OpenSHMEM after MPI_Init and checks that PE numbers are
 * MPI_COMM_WORLD's ranks (SK_ERR_COMM otherwise). */
int sk_shmem_init(int world_rank, int world_size);
void sk_shmem_finalize(void);
void sk_shmem_info(char *name, int len, int *major, int *minor);

/* symmetric.c. sk_shmem_alloc gives the point a symmetric buffer of bytes, zeroed
 * (c->sym, c->sym_bytes; SK_ERR_NOMEM without one): shmem_malloc is collective, so
 * every PE calls it, with the same size. It ends in no barrier: each prepare hook has
 * one once the rest of its buffer is in place. */
int sk_shmem_prepare(sk_ctx *c);
int sk_shmem_close(sk_ctx *c);
int sk_shmem_alloc(sk_ctx *c, long long bytes);
/* busy.c: a busy passive target (sk_ctx.busy_spin) wraps the step of a put, get or
 * atomic (called by sk_shmem_prepare); its close frees what that took. */
int sk_shmem_busy_prepare(sk_ctx *c);
void sk_shmem_busy_close(sk_ctx *c);
/* After every run on every PE (sk_kernel.quiesce); a pair's passive side's step. */
int sk_shmem_quiesce(sk_ctx *c);
int sk_shmem_passive(sk_ctx *c);

/* What the family's Go gives every kernel by name (families/shmem): target_pe, the PE
 * the operations go to (a world rank: a pair's peer, a communicator's first PE; -1 on a
 * PE outside the pair), c->kparam[0]. */
extern const char *const sk_shmem_params[];
#define TARGET_PE(c) ((int)(c)->kparam[0])

/* The kinds of kernel, for the files' tables; each runs on every PE (ALL): symmetric
 * memory is allocated collectively. */
#define ALL SK_K_ALL_RANKS
/* A kernel whose prepare allocates its symmetric memory (prepare_), collectively. */
#define SHMEM_KERNEL(name_, step_, prepare_, flags_)                                               \
	{.params = sk_shmem_params, .name = (name_), .step = (step_), .prepare = (prepare_), .flags = ALL | (flags_), .close = sk_shmem_close, \
	 .quiesce = sk_shmem_quiesce}
/* One whose run is checked after it (sk_kernel.after): a lock held by two (locks.c),
 * broadcasts that interleaved (coll.c). */
#define SHMEM_CHECKED(name_, step_, prepare_, flags_, after_)                                                      \
	{.params = sk_shmem_params, .name = (name_), .step = (step_), .prepare = (prepare_), .flags = ALL | (flags_), .close = sk_shmem_close, \
	 .quiesce = sk_shmem_quiesce, .after = (after_)}
int sk_shmem_after_locks(sk_ctx *c, long long iters);
int sk_shmem_after_order(sk_ctx *c, long long iters);
/* A collective on the active set, with its pSync arrays (coll.c). */
#define COLLK(name_, step_, flags_) SHMEM_KERNEL(name_, step_, sk_shmem_prepare_coll, SK_K_COLLECTIVE | (flags_))
/* A collective's consecutive calls (coll.c), with the pSync arrays they take turns on. */
#define COLL_CONSECUTIVE(name_, step_) SHMEM_KERNEL(name_, step_, sk_shmem_prepare_coll_consecutive, SK_K_COLLECTIVE)
/* A non-blocking kernel: post, completion by shmem_quiet (or shmem_fence), the two fused
 * for the full measurement's loop (NULL: post, then complete). */
#define NBI(name_, post_, done_, full_)                                                                   \
	{.params = sk_shmem_params, .name = (name_), .step = sk_shmem_passive, .prepare = sk_shmem_prepare, .flags = ALL | SK_K_NONBLOCKING, \
	 .post = (post_), .close = sk_shmem_close, .complete = (done_), .full = (full_), .quiesce = sk_shmem_quiesce}
/* A lock kernel: its prepare places the lock (locks.c). */
#define LOCK(name_, step_, prepare_, flags_) SHMEM_KERNEL(name_, step_, prepare_, SK_K_COLLECTIVE | (flags_))
#define STEP(name_, step_, flags_) SHMEM_KERNEL(name_, step_, sk_shmem_prepare, flags_)

/* memory.c */
int sk_shmem_ctx_create_destroy(sk_ctx *c);
int sk_shmem_post_ctx_putmem(sk_ctx *c);
int sk_shmem_ctx_quiet(sk_ctx *c);
int sk_shmem_full_ctx_putmem(sk_ctx *c);
int sk_shmem_prepare_ctx(sk_ctx *c);
int sk_shmem_close_ctx(sk_ctx *c);
int sk_shmem_malloc_free(sk_ctx *c);
int sk_shmem_malloc(sk_ctx *c);
int sk_shmem_free(sk_ctx *c);
int sk_shmem_realloc(sk_ctx *c);
int sk_shmem_align_free(sk_ctx *c);
int sk_shmem_puts_fence(sk_ctx *c);
int sk_shmem_puts_quiet(sk_ctx *c);

/* coll.c */
int sk_shmem_prepare_coll(sk_ctx *c);
int sk_shmem_prepare_broadcast_ack(sk_ctx *c);
int sk_shmem_broadcast(sk_ctx *c);
int sk_shmem_broadcast_barrier(sk_ctx *c);
int sk_shmem_broadcast_rounds(sk_ctx *c);
int sk_shmem_broadcast_ack(sk_ctx *c);
int sk_shmem_broadcast_noack(sk_ctx *c);
int sk_shmem_barrier(sk_ctx *c);
int sk_shmem_sync(sk_ctx *c);
int sk_shmem_barrier_all(sk_ctx *c);
int sk_shmem_sync_all(sk_ctx *c);
int sk_shmem_prepare_coll_consecutive(sk_ctx *c);
#define SK_THREE_WAYS_DECL(name)                \
	int sk_shmem_##name(sk_ctx *c);             \
	int sk_shmem_##name##_barrier(sk_ctx *c);   \
	int sk_shmem_##name##_consecutive(sk_ctx *c);
SK_THREE_WAYS_DECL(long_sum_to_all)
SK_THREE_WAYS_DECL(long_max_to_all)
SK_THREE_WAYS_DECL(int_sum_to_all)
SK_THREE_WAYS_DECL(double_sum_to_all)
SK_THREE_WAYS_DECL(collect)
SK_THREE_WAYS_DECL(fcollect)
SK_THREE_WAYS_DECL(alltoall)
SK_THREE_WAYS_DECL(alltoalls)

/* sendrecv.c */
int sk_shmem_prepare_sendrecv(sk_ctx *c);
int sk_shmem_sendrecv_shift(sk_ctx *c);
int sk_shmem_prepare_sendrecv_offset(sk_ctx *c);
int sk_shmem_sendrecv_shift_offset(sk_ctx *c);
int sk_shmem_prepare_sendrecv_seed(sk_ctx *c);
int sk_shmem_sendrecv_shift_seed(sk_ctx *c);
int sk_shmem_sendrecv_seed_check(sk_ctx *c);

/* locks.c: a lock point's buffer holds SK_SHMEM_LOCK_SLOTS longs to place its lock
 * among (ops.shmemLockSlots, for the heap's check): one reaches every PE of a job of
 * up to that many. */
#define SK_SHMEM_LOCK_SLOTS 8192
int sk_shmem_prepare_lock(sk_ctx *c);
int sk_shmem_prepare_lock_remote(sk_ctx *c);
int sk_shmem_lock_contention(sk_ctx *c);
int sk_shmem_set_lock(sk_ctx *c);
int sk_shmem_clear_lock(sk_ctx *c);
int sk_shmem_test_lock_spin(sk_ctx *c);
int sk_shmem_test_lock_held(sk_ctx *c);
int sk_shmem_test_lock_turns(sk_ctx *c);
int sk_shmem_test_lock_round(sk_ctx *c);
int sk_shmem_lock_held(sk_ctx *c);

#endif
