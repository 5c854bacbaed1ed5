//go:build mpi && shmem

/* OpenSHMEM contexts (SKaMPI's Shmem_Ctx_Create_*, Shmem_Ctx_Destroy_* and
 * Shmem_Ctx_Atomic_*): creating a context and destroying it, each timed alone, per
 * option; and the atomics on a context, each PE's own serialized one as SKaMPI's, beside
 * the same atomics on the default context (shmem.c). */
#include <shmem.h>
#include "skampi.h"
#include "shmem_kernels.h"
#include "sk_common.h"

static shmem_ctx_t ctx_of(sk_ctx *c) { return (shmem_ctx_t)c->shmem_ctx; }

/* Every member creates a context of its own (a local call) and destroys it; one of the
 * two is timed (SK_K_OWN_RESULT), the other is in the step untimed so that every step
 * starts with no context of the point's alive. */
static int create_destroy(sk_ctx *c, long options, int timed_create) {
	if (c->a.role == SK_ROLE_IDLE) return MPI_SUCCESS;
	shmem_ctx_t ctx;
	double t0 = sk_now();
	int rc = shmem_ctx_create(options, &ctx);
	if (timed_create) c->result += sk_now() - t0;
	if (rc != 0) return SK_ERR_NOMEM; /* no context left: the library's limit */
	t0 = sk_now();
	shmem_ctx_destroy(ctx);
	if (!timed_create) c->result += sk_now() - t0;
	return MPI_SUCCESS;
}

#define CREATE_DESTROY(suffix, options)                                                   \
	static int create##suffix(sk_ctx *c) { return create_destroy(c, (options), 1); } \
	static int destroy##suffix(sk_ctx *c) { return create_destroy(c, (options), 0); }
CREATE_DESTROY(, 0)
CREATE_DESTROY(_serialized, SHMEM_CTX_SERIALIZED)
CREATE_DESTROY(_private, SHMEM_CTX_PRIVATE)
CREATE_DESTROY(_nostore, SHMEM_CTX_NOSTORE)

/* The atomics' context: every PE's own, created serialized for the point (SKaMPI's
 * tini_Shmem_Ctx_Atomic), destroyed by sk_shmem_close_ctx after a shmem_ctx_quiet. */
static int prepare_ctx(sk_ctx *c) {
	CK(sk_shmem_prepare(c));
	shmem_ctx_t ctx;
	if (shmem_ctx_create(SHMEM_CTX_SERIALIZED, &ctx) != 0) {
		sk_shmem_close(c); /* collective: every PE fails here alike */
		return SK_ERR_NOMEM;
	}
	c->shmem_ctx = (void *)ctx;
	return MPI_SUCCESS;
}

/* An empty completion on the context, on every member: what the non-fetching atomics'
 * shmem_ctx_quiet costs by itself (subtracted by their method quiet_subtracted). */
static int empty_ctx_quiet(sk_ctx *c) {
	if (c->a.role == SK_ROLE_IDLE) return MPI_SUCCESS;
	shmem_ctx_quiet(ctx_of(c));
	return MPI_SUCCESS;
}

/* Every member but the first hits the first's long at once through its context, as
 * shmem.c's atomics do on the default one; non-fetching ones complete with
 * shmem_ctx_quiet on that context. */
#define CTX_ATOMIC(name, T, stmt, done)                   \
	static int ctx_atomic_##name(sk_ctx *c) {             \
		if (c->rank == 0 || c->a.role == SK_ROLE_IDLE) return MPI_SUCCESS; \
		shmem_ctx_t ctx = ctx_of(c);                      \
		T *x = (T *)c->sym;                               \
		int pe = TARGET_PE(c);                          \
		volatile T r = 0;                                 \
		(void)r;                                          \
		stmt;                                             \
		if (done) shmem_ctx_quiet(ctx);                   \
		return MPI_SUCCESS;                               \
	}
CTX_ATOMIC(fetch, long, r = shmem_ctx_long_atomic_fetch(ctx, x, pe), 0)
CTX_ATOMIC(set, long, shmem_ctx_long_atomic_set(ctx, x, 1, pe), 1)
CTX_ATOMIC(inc, long, shmem_ctx_long_atomic_inc(ctx, x, pe), 1)
CTX_ATOMIC(fetch_inc, long, r = shmem_ctx_long_atomic_fetch_inc(ctx, x, pe), 0)
CTX_ATOMIC(add, long, shmem_ctx_long_atomic_add(ctx, x, 1, pe), 1)
CTX_ATOMIC(fetch_add, long, r = shmem_ctx_long_atomic_fetch_add(ctx, x, 1, pe), 0)
CTX_ATOMIC(swap, long, r = shmem_ctx_long_atomic_swap(ctx, x, 1, pe), 0)
CTX_ATOMIC(compare_swap, long, r = shmem_ctx_long_atomic_compare_swap(ctx, x, 0, 1, pe), 0)
CTX_ATOMIC(and, unsigned long, shmem_ctx_ulong_atomic_and(ctx, x, 1, pe), 1)
CTX_ATOMIC(or, unsigned long, shmem_ctx_ulong_atomic_or(ctx, x, 1, pe), 1)
CTX_ATOMIC(xor, unsigned long, shmem_ctx_ulong_atomic_xor(ctx, x, 1, pe), 1)
CTX_ATOMIC(fetch_and, unsigned long, r = shmem_ctx_ulong_atomic_fetch_and(ctx, x, 1, pe), 0)
CTX_ATOMIC(fetch_or, unsigned long, r = shmem_ctx_ulong_atomic_fetch_or(ctx, x, 1, pe), 0)
CTX_ATOMIC(fetch_xor, unsigned long, r = shmem_ctx_ulong_atomic_fetch_xor(ctx, x, 1, pe), 0)

/* Compare-and-swap through the initiator's context on a long only it writes, as
 * ring.c's on the default context: succeeding, the condition is the value it wrote
 * last (the long starts at 0); failing, a value the long never holds (-1). An old
 * value other than the expected one is a data error. */
static int ctx_cswap(sk_ctx *c, int succeed) {
	if (c->a.role != SK_ROLE_INITIATOR) return MPI_SUCCESS;
	long *x = (long *)c->sym, want = succeed ? c->seq : 0;
	long cond = succeed ? c->seq : -1;
	long old = shmem_ctx_long_atomic_compare_swap(ctx_of(c), x, cond, c->seq + 1, TARGET_PE(c));
	if (succeed) c->seq++;
	if (old != want && !c->bad) {
		c->bad = 1;
		c->bad_from = c->a.peer;
		c->bad_expected = (int)(want & 0xff);
		c->bad_actual = (int)(old & 0xff);
		c->bad_rep = c->rep;
	}
	return MPI_SUCCESS;
}
static int ctx_cswap_yes(sk_ctx *c) { return ctx_cswap(c, 1); }
static int ctx_cswap_no(sk_ctx *c) { return ctx_cswap(c, 0); }
static int prepare_ctx_cswap(sk_ctx *c) {
	c->seq = 0;
	return prepare_ctx(c);
}

#define CTX_KERNEL(name_, step_, prepare_, flags_)                                                              \
	{.params = sk_shmem_params, .name = (name_), .step = (step_), .prepare = (prepare_), .flags = ALL | (flags_), .close = sk_shmem_close_ctx, \
	 .quiesce = sk_shmem_quiesce}
#define CTX_ATOMIC_K(name_, step_) CTX_KERNEL(name_, step_, prepare_ctx, SK_K_COLLECTIVE)
#define CALL(name_, step_) STEP(name_, step_, SK_K_COLLECTIVE | SK_K_OWN_RESULT)

/* The kernels of this file (tables.c joins the tables). */
static const sk_kernel kernels[] = {
	CALL("shmem_ctx_create", create),
	CALL("shmem_ctx_create_serialized", create_serialized),
	CALL("shmem_ctx_create_private", create_private),
	CALL("shmem_ctx_create_nostore", create_nostore),
	CALL("shmem_ctx_destroy", destroy),
	CALL("shmem_ctx_destroy_serialized", destroy_serialized),
	CALL("shmem_ctx_destroy_private", destroy_private),
	CALL("shmem_ctx_destroy_nostore", destroy_nostore),
	CTX_ATOMIC_K("shmem_ctx_quiet_empty", empty_ctx_quiet),
	CTX_ATOMIC_K("shmem_ctx_atomic_fetch_long", ctx_atomic_fetch),
	CTX_ATOMIC_K("shmem_ctx_atomic_set_long", ctx_atomic_set),
	CTX_ATOMIC_K("shmem_ctx_atomic_inc_long", ctx_atomic_inc),
	CTX_ATOMIC_K("shmem_ctx_atomic_fetch_inc_long", ctx_atomic_fetch_inc),
	CTX_ATOMIC_K("shmem_ctx_atomic_add_long", ctx_atomic_add),
	CTX_ATOMIC_K("shmem_ctx_atomic_fetch_add_long", ctx_atomic_fetch_add),
	CTX_ATOMIC_K("shmem_ctx_atomic_swap_long", ctx_atomic_swap),
	CTX_ATOMIC_K("shmem_ctx_atomic_compare_swap_long", ctx_atomic_compare_swap),
	CTX_ATOMIC_K("shmem_ctx_atomic_and_long", ctx_atomic_and),
	CTX_ATOMIC_K("shmem_ctx_atomic_or_long", ctx_atomic_or),
	CTX_ATOMIC_K("shmem_ctx_atomic_xor_long", ctx_atomic_xor),
	CTX_ATOMIC_K("shmem_ctx_atomic_fetch_and_long", ctx_atomic_fetch_and),
	CTX_ATOMIC_K("shmem_ctx_atomic_fetch_or_long", ctx_atomic_fetch_or),
	CTX_ATOMIC_K("shmem_ctx_atomic_fetch_xor_long", ctx_atomic_fetch_xor),
	CTX_KERNEL("shmem_ctx_compare_swap_yes", ctx_cswap_yes, prepare_ctx_cswap, 0),
	CTX_KERNEL("shmem_ctx_compare_swap_no", ctx_cswap_no, prepare_ctx_cswap, 0),
};
const sk_table sk_shmem_ctx_table = SK_TABLE(kernels);
