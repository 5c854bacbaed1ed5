/* The steps and prepare hooks of pt2pt.c and coll.c, for the kernel table of kernels.c.
 * Each step is named after its kernel: sk_step_<kernel name>. */
#ifndef SKAMPI_KERNELS_H
#define SKAMPI_KERNELS_H

#include "skampi.h"

/* pt2pt.c */
int sk_step_pingpong_send_recv(sk_ctx *c);
int sk_step_pingpong_send_iprobe_recv(sk_ctx *c);
int sk_step_pingpong_send_irecv(sk_ctx *c);
int sk_step_pingpong_send_recv_at(sk_ctx *c);
int sk_step_pingpong_ssend_recv(sk_ctx *c);
int sk_step_pingpong_isend_recv(sk_ctx *c);
int sk_step_pingpong_issend_recv(sk_ctx *c);
int sk_step_pingpong_sendrecv(sk_ctx *c);
int sk_step_pingpong_sendrecv_replace(sk_ctx *c);
int sk_step_pingping_send_recv(sk_ctx *c);
int sk_step_bandwidth_isend_irecv(sk_ctx *c);
int sk_step_bibandwidth_isend_irecv(sk_ctx *c);
int sk_step_sendrecv_shift(sk_ctx *c);
int sk_step_selftest_hang(sk_ctx *c);
int sk_step_selftest_crash(sk_ctx *c);
int sk_step_selftest_corrupt(sk_ctx *c);
int sk_step_selftest_slow(sk_ctx *c);
int sk_step_wtime(sk_ctx *c);

/* coll.c */
int sk_step_barrier(sk_ctx *c);
int sk_step_bcast(sk_ctx *c);
int sk_step_reduce(sk_ctx *c);
int sk_step_allreduce(sk_ctx *c);
int sk_step_reduce_scatter(sk_ctx *c);
int sk_step_reduce_scatter_block(sk_ctx *c);
int sk_step_alltoall(sk_ctx *c);
int sk_step_alltoallv(sk_ctx *c);
int sk_step_gather(sk_ctx *c);
int sk_step_gatherv(sk_ctx *c);
int sk_step_allgather(sk_ctx *c);
int sk_step_allgatherv(sk_ctx *c);
int sk_step_scatter(sk_ctx *c);
int sk_step_scatterv(sk_ctx *c);
int sk_step_scan(sk_ctx *c);
int sk_step_exscan(sk_ctx *c);
int sk_step_bcast_using_send_recv(sk_ctx *c);
int sk_step_alltoall_using_isend_irecv(sk_ctx *c);
int sk_step_gather_using_send_recv(sk_ctx *c);
int sk_step_allreduce_using_reduce_bcast(sk_ctx *c);
int sk_step_alltoall_ordered(sk_ctx *c);
int sk_step_alltoall_ordered_nodes(sk_ctx *c);
int sk_step_bcast_barrier(sk_ctx *c);
int sk_step_bcast_rounds(sk_ctx *c);
int sk_step_bcast_ack(sk_ctx *c);
int sk_prepare_bcast_ack(sk_ctx *c);

/* nonblocking.c: the posts of the non-blocking kernels and their responders' steps. */
int sk_post_isend(sk_ctx *c);
int sk_post_issend(sk_ctx *c);
int sk_post_irecv(sk_ctx *c);
int sk_post_isend_irecv_pingpong(sk_ctx *c);
int sk_step_isend(sk_ctx *c);
int sk_step_issend(sk_ctx *c);
int sk_step_irecv(sk_ctx *c);
int sk_step_isend_irecv_pingpong(sk_ctx *c);
int sk_post_ibarrier(sk_ctx *c);
int sk_post_ibcast(sk_ctx *c);
int sk_post_ireduce(sk_ctx *c);
int sk_post_iallreduce(sk_ctx *c);
int sk_post_ialltoall(sk_ctx *c);
int sk_post_ialltoallv(sk_ctx *c);
int sk_post_iallgather(sk_ctx *c);
int sk_post_igather(sk_ctx *c);
int sk_post_iscatter(sk_ctx *c);
int sk_post_ireduce_scatter_block(sk_ctx *c);
int sk_post_iscan(sk_ctx *c);

/* rma.c, rma_calls.c: one-sided kernels. */
int sk_step_rma(sk_ctx *c);
int sk_step_put_pingpong(sk_ctx *c);
int sk_step_win_fence(sk_ctx *c);
int sk_step_win_pscw(sk_ctx *c);
int sk_step_win_pscw_get(sk_ctx *c);
int sk_step_win_lock_unlock(sk_ctx *c);
int sk_step_win_lock_get_unlock(sk_ctx *c);
int sk_step_win_lock(sk_ctx *c);
int sk_step_win_unlock(sk_ctx *c);
int sk_step_win_flush(sk_ctx *c);
int sk_step_win_flush_all(sk_ctx *c);
int sk_step_win_create_free(sk_ctx *c);
int sk_step_lock_contention(sk_ctx *c);
int sk_step_lock_held(sk_ctx *c);
int sk_step_counter_fetch_and_op(sk_ctx *c);
int sk_step_counter_lock_get_put(sk_ctx *c);
int sk_step_transpose_put(sk_ctx *c);
int sk_step_transpose_get(sk_ctx *c);
int sk_prepare_rma(sk_ctx *c);
int sk_close_rma(sk_ctx *c);
int sk_check_counter(sk_ctx *c, long long iters);
int sk_check_locks(sk_ctx *c);
int sk_check_order(sk_ctx *c);
MPI_Aint sk_rma_base_of(const sk_ctx *c, int r);

/* sk_next_region points the buffers at the next region of a cold cache's area, as
 * IMB's off_cache does: a few instructions per step, inside the timed loop. */
static inline void sk_next_region(sk_ctx *c) {
	size_t off = (size_t)c->region * (size_t)c->a.cold_stride;
	c->a.sbuf = c->sbase + off;
	c->a.rbuf = c->rbase + off;
	if (++c->region >= c->a.cold_regions) c->region = 0;
}

#endif
