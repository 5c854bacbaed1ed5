/* What every file of kernels shares. Each file defines its kernels and, at its end, the
 * table of them (kernels.c joins the tables): adding an operation is its step and one
 * line of its file's table. A kernel's name is the catalogue's (ops.Info.Kernel,
 * ops.Method.Kernel), written out in full in its table line. */
#ifndef SKAMPI_KERNELS_H
#define SKAMPI_KERNELS_H

#include <stddef.h>
#include "skampi.h"

/* KERNEL(name, step, flags): a kernel with no prepare hook; CHECKED also says what it
 * receives, for check_data (SK_CHECK_*). */
#define KERNEL(name_, step_, flags_) {.name = (name_), .step = (step_), .flags = (flags_)}
#define CHECKED(name_, step_, flags_, check_) {.name = (name_), .step = (step_), .flags = (flags_), .check = (check_)}
#define COLL SK_K_COLLECTIVE
#define TYPED SK_K_TYPED

/* The files' tables (skampi.h's sk_table), for kernels.c to join. */
extern const sk_table sk_pt2pt_table, sk_coll_table, sk_nonblocking_table, sk_coll_v_table,
    sk_persistent_table;

/* coll_v.c: Alltoallw's counts, displacements and types (persistent.c's too). */
int sk_prepare_alltoallw(sk_ctx *c);
/* window.c: the point's window (the engine's window service): prepared for a kernel
 * and freed collectively after (sk_close_rma), or created and freed by a kernel of its
 * own (the request's kind of window, SK_WIN_*). */
int sk_prepare_rma(sk_ctx *c);
int sk_create_window(sk_ctx *c, int kind, MPI_Aint size, MPI_Win *win, char **base);
int sk_free_window(int kind, MPI_Win *win, char *base);
/* rma_busy.c: the poll call a busy target names (SK_POLL_*; -1 unknown). */
int sk_find_poll(const char *name);
/* rma_busy.c: wraps a passive mode's step for a busy target (sk_ctx.busy_spin), and
 * releases the lock its poll needed. */
int sk_rma_busy_prepare(sk_ctx *c);
int sk_rma_busy_close(sk_ctx *c);
int sk_close_rma(sk_ctx *c);
MPI_Aint sk_rma_base_of(const sk_ctx *c, int r);
/* A one-sided kernel with a window prepared for it and freed collectively after. */
#define RMA(name_, step_, flags_, mode_)                                                                     \
	{.name = (name_), .step = (step_), .prepare = sk_prepare_rma, .flags = (flags_), .close = sk_close_rma, \
	 .mode = (mode_)}

/* sk_next_region points the buffers at the next region of a cold cache's area, as
 * IMB's off_cache does: a few instructions per step, inside the timed loop. */
static inline void sk_next_region(sk_ctx *c) {
	size_t off = (size_t)c->region * (size_t)c->a.cold_stride;
	c->a.sbuf = c->sbase + off;
	c->a.rbuf = c->rbase + off;
	if (++c->region >= c->a.cold_regions) c->region = 0;
}

#endif
