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
int sk_step_selftest_hang(sk_ctx *c);
int sk_step_selftest_crash(sk_ctx *c);
int sk_step_selftest_corrupt(sk_ctx *c);

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

#endif
