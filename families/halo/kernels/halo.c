//go:build mpi

/* The halo exchange of a 1-D decomposed stencil code with its computation (SKaMPI's
 * twosided_borderexchange, onesided_borderexchange, onesided_borderexchange_fence):
 * every process on a ring exchanges a border row of msg_bytes with both neighbours
 * while it computes its interior, then waits for the rows. One step is one halo step,
 * exchange and computation: the interior is the calibrated spin (spin.c) for the
 * halo_compute setting, so the step's time less halo_compute is what the exchange
 * costs beyond what the computation hides.
 *   two-sided  MPI_Irecv from both, MPI_Isend to both, compute, MPI_Waitall
 *   pscw       MPI_Win_post and MPI_Win_start to both, MPI_Get of the previous one's
 *              last row and of the next one's first row, compute, MPI_Win_complete,
 *              MPI_Win_wait
 *   fence      MPI_Win_fence, the two gets, compute, MPI_Win_fence
 * The one-sided rows come from the neighbours' windows (first row at 0, last at
 * msg_bytes) into sbuf; the two-sided ones from sbuf (first, last) into rbuf. With two
 * processes both neighbours are the same one. The computation's spin count is the
 * request's number "compute_spin" (c->kparam[0]). */
#include "kernels.h"
#include "sk_common.h"

#define base_of sk_rma_base_of
enum { FROM_PREV = 11, FROM_NEXT = 12 };

/* compute spins the step's computation: halo_compute, calibrated on this rank. */
static void compute(const sk_ctx *c) { sk_spin((long long)c->kparam[0]); }

static int prev_of(const sk_ctx *c) { return (c->rank + c->nprocs - 1) % c->nprocs; }
static int next_of(const sk_ctx *c) { return (c->rank + 1) % c->nprocs; }

static int step_halo_twosided(sk_ctx *c) {
	int n = c->a.bytes, prev = prev_of(c), next = next_of(c);
	CK(MPI_Irecv(c->a.rbuf, n, MPI_BYTE, prev, FROM_PREV, c->comm, &c->req[0]));
	CK(MPI_Irecv(c->a.rbuf + n, n, MPI_BYTE, next, FROM_NEXT, c->comm, &c->req[1]));
	CK(MPI_Isend(c->a.sbuf, n, MPI_BYTE, prev, FROM_NEXT, c->comm, &c->req[2]));
	CK(MPI_Isend(c->a.sbuf + n, n, MPI_BYTE, next, FROM_PREV, c->comm, &c->req[3]));
	compute(c);
	return MPI_Waitall(4, c->req, MPI_STATUSES_IGNORE);
}

/* The rows: the previous neighbour's last into our first halo row, the next one's
 * first into our last. */
static int get_rows(sk_ctx *c) {
	int n = c->a.bytes, prev = prev_of(c), next = next_of(c);
	CK(MPI_Get(c->a.sbuf, n, MPI_BYTE, prev, base_of(c, prev) + n, n, MPI_BYTE, c->win));
	return MPI_Get(c->a.sbuf + n, n, MPI_BYTE, next, base_of(c, next), n, MPI_BYTE, c->win);
}

/* rma.c's group is one peer; the halo's is both neighbours (one with two processes). */
static int prepare_halo_pscw(sk_ctx *c) {
	CK(sk_prepare_rma(c));
	int nb[2] = {prev_of(c), next_of(c)};
	MPI_Group all;
	CK(MPI_Comm_group(c->comm, &all));
	MPI_Group_free(&c->peer_group);
	int rc = MPI_Group_incl(all, nb[0] == nb[1] ? 1 : 2, nb, &c->peer_group);
	MPI_Group_free(&all);
	return rc;
}

static int step_halo_pscw(sk_ctx *c) {
	CK(MPI_Win_post(c->peer_group, MPI_MODE_NOPUT, c->win));
	CK(MPI_Win_start(c->peer_group, 0, c->win));
	CK(get_rows(c));
	compute(c);
	CK(MPI_Win_complete(c->win));
	return MPI_Win_wait(c->win);
}

/* Two fences a step, as SKaMPI's two windows have: the first exposes the rows just
 * computed, the second completes the gets. */
static int step_halo_fence(sk_ctx *c) {
	CK(MPI_Win_fence(0, c->win));
	CK(get_rows(c));
	compute(c);
	return MPI_Win_fence(0, c->win);
}

/* The kernels of this file: a table of their own, which kernels.go hands to the engine. */
static const char *const halo_params[] = {"compute_spin", NULL};
static const sk_kernel kernels[] = {
	{.name = "halo_twosided", .step = step_halo_twosided, .flags = COLL, .params = halo_params},
	{.name = "halo_pscw", .step = step_halo_pscw, .prepare = prepare_halo_pscw,
	 .flags = COLL | SK_K_PER_PROCESS_WINDOW, .close = sk_close_rma, .params = halo_params},
	{.name = "halo_fence", .step = step_halo_fence, .prepare = sk_prepare_rma, .flags = COLL | SK_K_PER_PROCESS_WINDOW,
	 .close = sk_close_rma, .mode = "fence_epoch", .params = halo_params},
};
static const sk_table table = SK_TABLE(kernels);
static const sk_table *const tables[] = {&table};
const sk_table *const *sk_halo_tables(int *n) {
	*n = 1;
	return tables;
}
