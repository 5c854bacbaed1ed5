//go:build mpi && shmem

/* OpenSHMEM contexts, symmetric memory management and completion across PEs (named in
 * shmem.c's table). */
#include <shmem.h>
#include "skampi.h"
#include "shmem_kernels.h"

/* A context created and destroyed (local to the PE that does it): the initiator. */
int sk_shmem_ctx_create_destroy(sk_ctx *c) {
	if (c->a.role != SK_ROLE_INITIATOR) return MPI_SUCCESS;
	shmem_ctx_t ctx;
	if (shmem_ctx_create(0, &ctx) != 0) return SK_ERR_NOMEM;
	shmem_ctx_destroy(ctx);
	return MPI_SUCCESS;
}

/* Put + quiet on a private context (created for the point by the initiator), beside
 * Shmem_Put on the default one: post = shmem_ctx_putmem, completion shmem_ctx_quiet. */
static shmem_ctx_t ctx_of(sk_ctx *c) { return (shmem_ctx_t)c->shmem_ctx; }

int sk_shmem_post_ctx_putmem(sk_ctx *c) {
	for (int i = 0; i < (c->a.window > 0 ? c->a.window : 1); i++)
		shmem_ctx_putmem(ctx_of(c), c->sym + (size_t)i * (size_t)c->a.slot_stride, c->a.sbuf, (size_t)c->a.bytes,
		                 TARGET_PE(c));
	return MPI_SUCCESS;
}

int sk_shmem_ctx_quiet(sk_ctx *c) {
	shmem_ctx_quiet(ctx_of(c));
	return MPI_SUCCESS;
}

int sk_shmem_full_ctx_putmem(sk_ctx *c) {
	sk_shmem_post_ctx_putmem(c);
	shmem_ctx_quiet(ctx_of(c));
	return MPI_SUCCESS;
}

int sk_shmem_prepare_ctx(sk_ctx *c) {
	int rc = sk_shmem_prepare(c);
	if (rc != MPI_SUCCESS || c->a.role != SK_ROLE_INITIATOR) return rc;
	shmem_ctx_t ctx;
	if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) return SK_ERR_NOMEM;
	c->shmem_ctx = (void *)ctx;
	return MPI_SUCCESS;
}

int sk_shmem_close_ctx(sk_ctx *c) {
	if (c->shmem_ctx) {
		shmem_ctx_quiet(ctx_of(c));
		shmem_ctx_destroy(ctx_of(c));
		c->shmem_ctx = NULL;
	}
	return sk_shmem_close(c);
}

/* Symmetric memory management, collective over every PE (each implies a barrier).
 * Shmem_Malloc_Free times the pair; the others time one call alone, SKaMPI's way
 * (SK_K_OWN_RESULT: the step adds that call's time to c->result), the calls before and
 * after it in the same step but outside the timing: shmem_malloc alone (then the free),
 * shmem_free alone (after a malloc), shmem_realloc of msg_bytes to twice it alone
 * (after a malloc, before the free). The untimed collective before the timed one
 * leaves every PE just out of its barrier, as the engine's barrier does for a
 * single-call measurement. */
int sk_shmem_malloc_free(sk_ctx *c) {
	void *p = shmem_malloc((size_t)c->a.bytes);
	if (!p && c->a.bytes > 0) return SK_ERR_NOMEM;
	shmem_free(p);
	return MPI_SUCCESS;
}

static int calloc_free(sk_ctx *c) {
	void *p = shmem_calloc((size_t)c->a.bytes, 1);
	if (!p && c->a.bytes > 0) return SK_ERR_NOMEM;
	shmem_free(p);
	return MPI_SUCCESS;
}

int sk_shmem_malloc(sk_ctx *c) {
	double t0 = sk_now();
	void *p = shmem_malloc((size_t)c->a.bytes);
	c->result += sk_now() - t0;
	if (!p && c->a.bytes > 0) return SK_ERR_NOMEM;
	shmem_free(p);
	return MPI_SUCCESS;
}

/* shmem_calloc alone (SKaMPI's Shmem_Calloc): beside Shmem_Malloc, the zeroing. */
static int calloc_alone(sk_ctx *c) {
	double t0 = sk_now();
	void *p = shmem_calloc((size_t)c->a.bytes, 1);
	c->result += sk_now() - t0;
	if (!p && c->a.bytes > 0) return SK_ERR_NOMEM;
	shmem_free(p);
	return MPI_SUCCESS;
}

int sk_shmem_free(sk_ctx *c) {
	void *p = shmem_malloc((size_t)c->a.bytes);
	if (!p && c->a.bytes > 0) return SK_ERR_NOMEM;
	double t0 = sk_now();
	shmem_free(p);
	c->result += sk_now() - t0;
	return MPI_SUCCESS;
}

int sk_shmem_realloc(sk_ctx *c) {
	void *p = shmem_malloc((size_t)c->a.bytes);
	if (!p && c->a.bytes > 0) return SK_ERR_NOMEM;
	double t0 = sk_now();
	void *q = shmem_realloc(p, 2 * (size_t)c->a.bytes);
	c->result += sk_now() - t0;
	if (!q && c->a.bytes > 0) {
		shmem_free(p); /* a failed realloc leaves the old block */
		return SK_ERR_NOMEM;
	}
	shmem_free(q);
	return MPI_SUCCESS;
}

int sk_shmem_align_free(sk_ctx *c) {
	void *p = shmem_align(4096, (size_t)c->a.bytes);
	if (!p && c->a.bytes > 0) return SK_ERR_NOMEM;
	shmem_free(p);
	return MPI_SUCCESS;
}

/* shmem_align alone (SKaMPI's Shmem_Align), the free after it untimed: aligned to 4 KiB
 * as Shmem_Align_Free (SKaMPI's 2 is no multiple of sizeof(void *), which OpenSHMEM
 * asks of an alignment). */
static int align_alone(sk_ctx *c) {
	double t0 = sk_now();
	void *p = shmem_align(4096, (size_t)c->a.bytes);
	c->result += sk_now() - t0;
	if (!p && c->a.bytes > 0) return SK_ERR_NOMEM;
	shmem_free(p);
	return MPI_SUCCESS;
}

/* Ordering against completion: every PE of the communicator puts `window` messages to
 * every other member (their PE numbers: the communicator's ranks are world ranks in
 * order from target_pe, as the block layout makes them), then shmem_fence (ordering
 * only) or shmem_quiet (completion). */
static int puts_to_all(sk_ctx *c) {
	int w = c->a.window > 0 ? c->a.window : 1;
	for (int k = 1; k < c->nprocs; k++) {
		int pe = TARGET_PE(c) + (c->rank + k) % c->nprocs;
		for (int i = 0; i < w; i++)
			shmem_putmem(c->sym + (size_t)i * (size_t)c->a.slot_stride, c->a.sbuf, (size_t)c->a.bytes, pe);
	}
	return MPI_SUCCESS;
}

int sk_shmem_puts_fence(sk_ctx *c) {
	puts_to_all(c);
	shmem_fence();
	return MPI_SUCCESS;
}

int sk_shmem_puts_quiet(sk_ctx *c) {
	puts_to_all(c);
	shmem_quiet();
	return MPI_SUCCESS;
}

/* The kernels of this file (shmem.c joins the tables). */
static const sk_kernel kernels[] = {
	STEP("shmem_ctx_create_destroy", sk_shmem_ctx_create_destroy, 0),
	{.params = sk_shmem_params, .name = "shmem_ctx_putmem", .step = sk_shmem_passive, .prepare = sk_shmem_prepare_ctx, .flags = ALL | SK_K_NONBLOCKING,
	 .post = sk_shmem_post_ctx_putmem, .close = sk_shmem_close_ctx, .complete = sk_shmem_ctx_quiet,
	 .full = sk_shmem_full_ctx_putmem, .quiesce = sk_shmem_quiesce},
	STEP("shmem_malloc_free", sk_shmem_malloc_free, SK_K_COLLECTIVE),
	STEP("shmem_calloc_free", calloc_free, SK_K_COLLECTIVE),
	STEP("shmem_malloc", sk_shmem_malloc, SK_K_COLLECTIVE | SK_K_OWN_RESULT),
	STEP("shmem_calloc", calloc_alone, SK_K_COLLECTIVE | SK_K_OWN_RESULT),
	STEP("shmem_free", sk_shmem_free, SK_K_COLLECTIVE | SK_K_OWN_RESULT),
	STEP("shmem_realloc", sk_shmem_realloc, SK_K_COLLECTIVE | SK_K_OWN_RESULT),
	STEP("shmem_align_free", sk_shmem_align_free, SK_K_COLLECTIVE),
	STEP("shmem_align", align_alone, SK_K_COLLECTIVE | SK_K_OWN_RESULT),
	STEP("shmem_puts_fence", sk_shmem_puts_fence, SK_K_COLLECTIVE),
	STEP("shmem_puts_quiet", sk_shmem_puts_quiet, SK_K_COLLECTIVE),
};
const sk_table sk_shmem_memory_table = SK_TABLE(kernels);
