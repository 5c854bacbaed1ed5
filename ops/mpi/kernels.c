//go:build mpi

/* The kernel table: every kernel by the name the catalogue gives it (ops.Info.Kernel,
 * ops.Method.Kernel), with the facts that change how it is prepared or how its time
 * is read. Adding an operation adds its step (pt2pt.c, coll.c) and one line here; a Go
 * test checks this table, and the datatype and operator tables, against the catalogue.
 * Also the life of a prepared operation: sk_prepare once per point, sk_run once per
 * repetition, sk_release. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"

/* KERNEL(name, flags): a kernel whose step is sk_step_<name>, with no prepare hook;
 * CHECKED also says what it receives, for check_data (SK_CHECK_*). */
#define KERNEL(name, flags) {#name, sk_step_##name, NULL, (flags), SK_CHECK_NONE, NULL}
#define CHECKED(name, flags, check) {#name, sk_step_##name, NULL, (flags), (check), NULL}
#define COLL SK_K_COLLECTIVE
/* NB(name, check): a non-blocking pair kernel, posted by sk_post_<name>, whose
 * responder runs sk_step_<name>; NBCOLL: a non-blocking collective. */
#define NB(name, check) {#name, sk_step_##name, NULL, SK_K_NONBLOCKING, (check), sk_post_##name}
#define NBCOLL(name, check) {#name, NULL, NULL, COLL | SK_K_NONBLOCKING, (check), sk_post_##name}
/* One-sided: RMA(name, step, flags, op, mode) has a window (rma.c); RMA_MODES gives an
 * operation under every synchronisation mode, RMA_PASSIVE under the passive ones
 * (request-based operations exist only there). */
#define RMA(name, step, flags, op, mode) {name, step, sk_prepare_rma, (flags), SK_CHECK_NONE, NULL, sk_close_rma, (op), (mode)}
#define RMA_PASSIVE(name, flags, op)                                                       \
	RMA(name "_flush", sk_step_rma, flags, op, SK_SYNC_SHARED_FLUSH),                      \
	    RMA(name "_flush_local", sk_step_rma, flags, op, SK_SYNC_SHARED_FLUSH_LOCAL),      \
	    RMA(name "_lock", sk_step_rma, flags, op, SK_SYNC_LOCK_SHARED),                    \
	    RMA(name "_lock_all", sk_step_rma, flags, op, SK_SYNC_LOCK_ALL_EPOCH),             \
	    RMA(name "_lock_exclusive", sk_step_rma, flags, op, SK_SYNC_LOCK_EXCLUSIVE),       \
	    RMA(name "_lock_all_flush", sk_step_rma, flags, op, SK_SYNC_LOCK_ALL_FLUSH),       \
	    RMA(name "_lock_all_flush_local", sk_step_rma, flags, op, SK_SYNC_LOCK_ALL_FLUSH_LOCAL)
#define RMA_MODES(name, flags, op)                                                         \
	RMA(name "_fence", sk_step_rma, flags, op, SK_SYNC_FENCE_PINGPONG),                    \
	    RMA(name "_pscw", sk_step_rma, flags, op, SK_SYNC_PSCW_PINGPONG),                  \
	    RMA(name "_fence_epoch", sk_step_rma, flags, op, SK_SYNC_FENCE_EPOCH),             \
	    RMA(name "_pscw_epoch", sk_step_rma, flags, op, SK_SYNC_PSCW_EPOCH), RMA_PASSIVE(name, flags, op)
#define TYPED SK_K_TYPED

static const sk_kernel kernels[] = {
	CHECKED(pingpong_send_recv, 0, SK_CHECK_PEER),
	CHECKED(pingpong_send_iprobe_recv, 0, SK_CHECK_PEER),
	CHECKED(pingpong_send_irecv, 0, SK_CHECK_PEER),
	CHECKED(pingpong_send_recv_at, 0, SK_CHECK_PEER),
	CHECKED(pingpong_ssend_recv, 0, SK_CHECK_PEER),
	CHECKED(pingpong_isend_recv, 0, SK_CHECK_PEER),
	CHECKED(pingpong_issend_recv, 0, SK_CHECK_PEER),
	CHECKED(pingpong_sendrecv, 0, SK_CHECK_PEER),
	CHECKED(pingpong_sendrecv_replace, 0, SK_CHECK_REPLACE),
	CHECKED(pingping_send_recv, 0, SK_CHECK_PEER),
	CHECKED(bandwidth_isend_irecv, 0, SK_CHECK_RESPONDER), /* also every pair of the multi-pair bandwidth */
	CHECKED(bibandwidth_isend_irecv, 0, SK_CHECK_PEER),
	KERNEL(sendrecv_shift, COLL),
	KERNEL(selftest_hang, 0),
	KERNEL(selftest_crash, 0),
	KERNEL(selftest_slow, 0),
	KERNEL(wtime, 0),
	CHECKED(selftest_corrupt, 0, SK_CHECK_PEER),

	KERNEL(barrier, COLL),
	CHECKED(bcast, COLL, SK_CHECK_BCAST),
	KERNEL(reduce, COLL),
	KERNEL(allreduce, COLL),
	KERNEL(reduce_scatter, COLL),
	KERNEL(reduce_scatter_block, COLL),
	CHECKED(alltoall, COLL, SK_CHECK_ALLTOALL),
	CHECKED(alltoallv, COLL, SK_CHECK_ALLTOALL),
	CHECKED(gather, COLL, SK_CHECK_GATHER),
	CHECKED(gatherv, COLL, SK_CHECK_GATHER),
	CHECKED(allgather, COLL, SK_CHECK_ALLGATHER),
	CHECKED(allgatherv, COLL, SK_CHECK_ALLGATHER),
	CHECKED(scatter, COLL, SK_CHECK_SCATTER),
	CHECKED(scatterv, COLL, SK_CHECK_SCATTER),
	KERNEL(scan, COLL),
	KERNEL(exscan, COLL),
	CHECKED(bcast_using_send_recv, COLL, SK_CHECK_BCAST),
	CHECKED(alltoall_using_isend_irecv, COLL, SK_CHECK_ALLTOALL),
	CHECKED(gather_using_send_recv, COLL, SK_CHECK_GATHER_OTHERS),
	KERNEL(allreduce_using_reduce_bcast, COLL),
	KERNEL(alltoall_ordered, COLL),
	KERNEL(alltoall_ordered_nodes, COLL | SK_K_NODE_AWARE),

	/* The broadcast timing methods (the method paper's Alg. 1, 3, 4-5; Alg. 2 is bcast
	 * in a synchronised window). */
	CHECKED(bcast_barrier, COLL, SK_CHECK_BCAST),
	CHECKED(bcast_rounds, COLL | SK_K_PER_PROCESS_STEP, SK_CHECK_BCAST_FIRST),
	{"bcast_ack", sk_step_bcast_ack, sk_prepare_bcast_ack, COLL | SK_K_OWN_RESULT, SK_CHECK_NONE, NULL},

	/* Non-blocking operations (nonblocking.c). */
	NB(isend, SK_CHECK_RESPONDER),
	NB(issend, SK_CHECK_RESPONDER),
	NB(irecv, SK_CHECK_INITIATOR),
	NB(isend_irecv_pingpong, SK_CHECK_PEER),
	NBCOLL(ibarrier, SK_CHECK_NONE),
	NBCOLL(ibcast, SK_CHECK_BCAST),
	NBCOLL(ireduce, SK_CHECK_NONE),
	NBCOLL(iallreduce, SK_CHECK_NONE),
	NBCOLL(ialltoall, SK_CHECK_ALLTOALL),
	NBCOLL(ialltoallv, SK_CHECK_ALLTOALL),
	NBCOLL(iallgather, SK_CHECK_ALLGATHER),
	NBCOLL(igather, SK_CHECK_GATHER),
	NBCOLL(iscatter, SK_CHECK_SCATTER),
	NBCOLL(ireduce_scatter_block, SK_CHECK_NONE),
	NBCOLL(iscan, SK_CHECK_NONE),

	/* One-sided communication (rma.c). */
	RMA_MODES("put", 0, SK_RMA_PUT),
	RMA_MODES("get", 0, SK_RMA_GET),
	RMA_MODES("accumulate", TYPED, SK_RMA_ACC),
	RMA_MODES("get_accumulate", TYPED, SK_RMA_GET_ACC),
	RMA_MODES("fetch_and_op", TYPED, SK_RMA_FOP),
	RMA_MODES("compare_and_swap", TYPED, SK_RMA_CAS),
	RMA_PASSIVE("rput", 0, SK_RMA_RPUT),
	RMA_PASSIVE("rget", 0, SK_RMA_RGET),
	RMA("put_pingpong_fence_epoch", sk_step_put_pingpong, 0, SK_RMA_PUT_PINGPONG, SK_SYNC_FENCE_EPOCH),
	RMA("put_pingpong_lock_all_flush", sk_step_put_pingpong, SK_K_UNIFIED, SK_RMA_PUT_PINGPONG, SK_SYNC_LOCK_ALL_FLUSH),
	RMA("win_fence", sk_step_win_fence, COLL, 0, SK_SYNC_NONE),
	RMA("win_pscw", sk_step_win_pscw, 0, 0, SK_SYNC_NONE),
	RMA("win_pscw_get", sk_step_win_pscw_get, 0, 0, SK_SYNC_NONE),
	RMA("win_lock_unlock_exclusive", sk_step_win_lock_unlock, 0, 0, SK_SYNC_LOCK_EXCLUSIVE),
	RMA("win_lock_unlock_shared", sk_step_win_lock_unlock, 0, 0, SK_SYNC_LOCK_SHARED),
	RMA("win_lock_get_unlock_exclusive", sk_step_win_lock_get_unlock, 0, 0, SK_SYNC_LOCK_EXCLUSIVE),
	RMA("win_lock_get_unlock_shared", sk_step_win_lock_get_unlock, 0, 0, SK_SYNC_LOCK_SHARED),
	RMA("win_lock_exclusive", sk_step_win_lock, SK_K_OWN_RESULT, 0, SK_SYNC_LOCK_EXCLUSIVE),
	RMA("win_lock_shared", sk_step_win_lock, SK_K_OWN_RESULT, 0, SK_SYNC_LOCK_SHARED),
	RMA("win_unlock_exclusive", sk_step_win_unlock, SK_K_OWN_RESULT, 0, SK_SYNC_LOCK_EXCLUSIVE),
	RMA("win_unlock_shared", sk_step_win_unlock, SK_K_OWN_RESULT, 0, SK_SYNC_LOCK_SHARED),
	RMA("win_flush", sk_step_win_flush, 0, 0, SK_SYNC_LOCK_ALL_FLUSH),
	RMA("win_flush_all", sk_step_win_flush_all, 0, 0, SK_SYNC_LOCK_ALL_FLUSH),
	RMA("win_allocate_free", sk_step_win_create_free, COLL, 0, SK_WIN_ALLOCATE),
	RMA("win_create_free", sk_step_win_create_free, COLL, 0, SK_WIN_CREATE),
	RMA("win_create_dynamic_free", sk_step_win_create_free, COLL, 0, SK_WIN_DYNAMIC),
	RMA("lock_contention_exclusive", sk_step_lock_contention, COLL, 0, SK_SYNC_LOCK_EXCLUSIVE),
	RMA("lock_contention_shared", sk_step_lock_contention, COLL, 0, SK_SYNC_LOCK_SHARED),
	RMA("lock_held", sk_step_lock_held, COLL | SK_K_OWN_RESULT | SK_K_LOCK_CHECK | SK_K_UNIFIED, 0, SK_SYNC_NONE),
	RMA("counter_fetch_and_op", sk_step_counter_fetch_and_op, COLL | SK_K_COUNTER, 0, SK_SYNC_LOCK_ALL_FLUSH),
	RMA("counter_lock_get_put", sk_step_counter_lock_get_put, COLL | SK_K_COUNTER, 0, SK_SYNC_NONE),
	RMA("transpose_put", sk_step_transpose_put, COLL, 0, SK_SYNC_FENCE_EPOCH),
	RMA("transpose_get", sk_step_transpose_get, COLL, 0, SK_SYNC_FENCE_EPOCH),
};

/* The catalogue's datatypes (ops.Datatypes), sizes as the C types have them. The first
 * is the unit of the point-to-point kernels. */
static const struct {
	const char *name;
	MPI_Datatype dt;
	int size;
} datatypes[] = {
	{"byte", MPI_BYTE, 1},
	{"char", MPI_CHAR, (int)sizeof(char)},
	{"int", MPI_INT, (int)sizeof(int)},
	{"long", MPI_LONG, (int)sizeof(long)},
	{"float", MPI_FLOAT, (int)sizeof(float)},
	{"double", MPI_DOUBLE, (int)sizeof(double)},
};

/* The catalogue's reduction operators (ops.ReduceOps). The first stands in for the
 * kernels that reduce nothing. */
static const struct {
	const char *name;
	MPI_Op op;
} reduce_ops[] = {
	{"sum", MPI_SUM}, {"prod", MPI_PROD}, {"min", MPI_MIN}, {"max", MPI_MAX},
	{"band", MPI_BAND}, {"bor", MPI_BOR}, {"bxor", MPI_BXOR},
};

#define LEN(x) ((int)(sizeof(x) / sizeof((x)[0])))

/* A second table, of another package's kernels (ops/shmem). */
static const sk_kernel *extra;
static int nextra;

void sk_register_kernels(const sk_kernel *table, int n) {
	extra = table;
	nextra = n;
}

int sk_kernel_count(void) { return LEN(kernels) + nextra; }
const sk_kernel *sk_kernel_at(int i) {
	if (i >= 0 && i < LEN(kernels)) return &kernels[i];
	if (i >= LEN(kernels) && i < LEN(kernels) + nextra) return &extra[i - LEN(kernels)];
	return NULL;
}
int sk_datatype_count(void) { return LEN(datatypes); }
int sk_reduce_op_count(void) { return LEN(reduce_ops); }

const char *sk_datatype_name(int i, int *size) {
	if (i < 0 || i >= LEN(datatypes)) return NULL;
	*size = datatypes[i].size;
	return datatypes[i].name;
}

const char *sk_reduce_op_name(int i) { return i >= 0 && i < LEN(reduce_ops) ? reduce_ops[i].name : NULL; }

static int same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static const sk_kernel *find_kernel(const char *name) {
	for (int i = 0; i < sk_kernel_count(); i++)
		if (same(sk_kernel_at(i)->name, name)) return sk_kernel_at(i);
	return NULL;
}

static int find_datatype(const char *name) {
	for (int i = 0; i < LEN(datatypes); i++)
		if (same(datatypes[i].name, name)) return i;
	return -1;
}

static int find_reduce_op(const char *name) {
	for (int i = 0; i < LEN(reduce_ops); i++)
		if (same(reduce_ops[i].name, name)) return i;
	return -1;
}

int sk_close(sk_ctx *c) {
	int finalized = 0;
	MPI_Finalized(&finalized);
	if (!c || finalized || !c->k->close) return MPI_SUCCESS;
	if (c->a.role == SK_ROLE_IDLE && !(c->k->flags & SK_K_ALL_RANKS)) return MPI_SUCCESS;
	return c->k->close(c);
}

void sk_release(sk_ctx *c) {
	if (!c) return;
	free(c->result_buf);
	free(c->compare_buf);
	free(c->rma_bases);
	free(c->req);
	free(c->counts);
	free(c->displs);
	free(c->node_of);
	free(c->ack_s);
	free(c);
}

/* prepare_member allocates what the timed loop of a participating rank touches:
 * requests for the windowed and hand-made kernels, the equal counts of the
 * v-variants, the nodes of the node-aware kernels; then the kernel's own hook. */
static int prepare_member(sk_ctx *c, const int *node_of) {
	const sk_args *a = &c->a;
	c->comm = MPI_Comm_f2c(a->comm);
	int rc = MPI_Comm_rank(c->comm, &c->rank);
	if (rc == MPI_SUCCESS) rc = MPI_Comm_size(c->comm, &c->nprocs);
	if (rc != MPI_SUCCESS) return rc;
	if (c->nprocs != a->nprocs) return SK_ERR_COMM;
	size_t n = (size_t)c->nprocs;
	size_t nreq = 2 * (size_t)(a->window > c->nprocs ? a->window : c->nprocs);
	c->req = malloc(sizeof(MPI_Request) * nreq);
	c->counts = malloc(sizeof(int) * n);
	c->displs = malloc(sizeof(int) * n);
	if (!c->req || !c->counts || !c->displs) return SK_ERR_NOMEM;
	for (int i = 0; i < c->nprocs; i++) {
		c->counts[i] = c->count;
		c->displs[i] = i * c->count;
	}
	if (node_of) { /* a copy: the caller may renumber its nodes while we live */
		if (!(c->node_of = malloc(sizeof(int) * n))) return SK_ERR_NOMEM;
		memcpy(c->node_of, node_of, sizeof(int) * n);
		c->a.node_of = c->node_of;
	}
	return c->k->prepare ? c->k->prepare(c) : MPI_SUCCESS;
}

/* fill_all writes check_data's pattern into every region a step may use. */
static void fill_all(sk_ctx *c) {
	if (!c->a.check) return;
	if (c->a.cold_regions < 2) {
		sk_check_fill(c);
		return;
	}
	char *s = c->a.sbuf, *r = c->a.rbuf;
	for (int i = 0; i < c->a.cold_regions; i++) {
		size_t off = (size_t)i * (size_t)c->a.cold_stride;
		c->a.sbuf = c->sbase + off;
		c->a.rbuf = c->rbase + off;
		sk_check_fill(c);
	}
	c->a.sbuf = s;
	c->a.rbuf = r;
}

int sk_prepare(const sk_args *a, sk_ctx **out) {
	*out = NULL;
	/* Checked on every rank, idle or not, so all ranks refuse a bad point alike. */
	const sk_kernel *k = find_kernel(a->kernel);
	if (!k) return SK_ERR_KERNEL;
	if (a->bytes < 0 || a->window < 0 || a->nprocs < 1 || a->cold_regions < 0 || a->cold_stride < 0) return SK_ERR_ARGS;
	if ((k->flags & SK_K_NONBLOCKING) &&
	    (a->nb_phase < SK_NB_FULL || a->nb_phase > SK_NB_COMPUTE || a->spin < 0 || a->progress_every < 0))
		return SK_ERR_ARGS;
	int dt = 0, op = 0;
	if (k->flags & (SK_K_COLLECTIVE | SK_K_TYPED)) {
		if ((dt = find_datatype(a->datatype)) < 0) return SK_ERR_DATATYPE;
		if ((op = find_reduce_op(a->reduce_op)) < 0) return SK_ERR_REDUCE_OP;
		if ((k->flags & SK_K_COLLECTIVE) && (a->root < 0 || a->root >= a->nprocs)) return SK_ERR_ARGS;
	}
	if (k->close && a->rma_window != SK_WIN_ALLOCATE && a->rma_window != SK_WIN_CREATE && a->rma_window != SK_WIN_DYNAMIC)
		return SK_ERR_ARGS;
	if ((k->flags & SK_K_NODE_AWARE) && (!a->node_of || a->nnodes < 1)) return SK_ERR_NODES;

	sk_ctx *c = calloc(1, sizeof *c);
	if (!c) return SK_ERR_NOMEM;
	c->k = k;
	c->step = k->step;
	c->a = *a;
	c->a.kernel = k->name; /* names of our tables, not the caller's strings */
	c->a.datatype = datatypes[dt].name;
	c->a.reduce_op = reduce_ops[op].name;
	c->a.node_of = NULL; /* until prepare_member has copied it */
	c->dt = datatypes[dt].dt;
	c->op = reduce_ops[op].op;
	c->count = a->bytes / datatypes[dt].size;
	if (a->role != SK_ROLE_IDLE) { /* idle ranks may have no communicator at all */
		int rc = prepare_member(c, a->node_of);
		if (rc != MPI_SUCCESS) {
			sk_release(c);
			return rc;
		}
		c->sbase = c->a.sbuf;
		c->rbase = c->a.rbuf;
		fill_all(c); /* the first repetition's data */
	} else if ((k->flags & SK_K_ALL_RANKS) && k->prepare) {
		int rc = k->prepare(c); /* a collective allocation every PE takes part in */
		if (rc != MPI_SUCCESS) {
			sk_release(c);
			return rc;
		}
	}
	*out = c;
	return MPI_SUCCESS;
}

void sk_touch(char *p, long long bytes) {
	/* 64 MiB at a time, each a step: a cold area of gigabytes takes seconds to touch,
	 * and the watchdog must see it move. */
	const long long chunk = 64LL << 20;
	for (long long off = 0; off < bytes; off += chunk) {
		memset(p + off, 0, (size_t)(bytes - off < chunk ? bytes - off : chunk));
		SK_STEP_DONE();
	}
}

int sk_run(sk_ctx *c, long long iters, double start, int barrier, double *per_op) {
	*per_op = NAN;
	SK_STEP_DONE(); /* a repetition begins: idle ranks move by repetitions */
	if (!c || iters < 1) return SK_ERR_ARGS;
	if (barrier) {
		int brc = MPI_Barrier(MPI_Comm_f2c(c->a.world));
		if (brc != MPI_SUCCESS) return brc;
	}
	if (c->a.role == SK_ROLE_IDLE) {
		int qrc = c->k->quiesce ? c->k->quiesce(c) : MPI_SUCCESS;
		SK_STEP_DONE(); /* and ends */
		return qrc;
	}
	const sk_step step = c->step;
	int rc = MPI_SUCCESS, invalid = 0;
	c->result = 0;
	if (start > 0) {
		invalid = sk_now() > start; /* arrived after the agreed instant: a late start */
		while (sk_now() < start)
			;
	}
	sk_in_op = 1;
	double total = 0;
	long long i = iters;
	if (c->k->flags & SK_K_NONBLOCKING) {
		rc = sk_run_nonblocking(c, iters, &total);
	} else if (c->a.cold_regions > 1) {
		/* Cold caches: each step on the next region (the global-loop timer's loop with
		 * the region's pointer update, as IMB's off_cache times it). */
		if (c->a.timer == SK_TIMER_ITERATION) {
			for (i = 0; i < iters && rc == MPI_SUCCESS; i++) {
				sk_next_region(c);
				double t0 = sk_now();
				rc = step(c);
				total += sk_now() - t0;
				SK_STEP_DONE();
			}
		} else {
			double t0 = sk_now();
			for (i = 0; i < iters && rc == MPI_SUCCESS; i++) {
				sk_next_region(c);
				rc = step(c);
				SK_STEP_DONE();
			}
			total = sk_now() - t0;
		}
	} else if (c->a.timer == SK_TIMER_ITERATION) {
		/* One timer pair per operation: kept to show how timer calls disturb small
		 * measurements (the method paper's comparison). */
		for (i = 0; i < iters && rc == MPI_SUCCESS; i++) {
			double t0 = sk_now();
			rc = step(c);
			total += sk_now() - t0;
			SK_STEP_DONE();
		}
	} else {
		double t0 = sk_now();
		for (i = 0; i < iters && rc == MPI_SUCCESS; i++) {
			rc = step(c);
			SK_STEP_DONE();
		}
		total = sk_now() - t0;
	}
	sk_in_op = 0;
	SK_STEP_DONE();
	/* Outside the timed interval: a shared counter holds every increment; a lock was
	 * never held by two. */
	if (rc == MPI_SUCCESS && (c->k->flags & SK_K_COUNTER)) rc = sk_check_counter(c, i);
	if (rc == MPI_SUCCESS && (c->k->flags & SK_K_LOCK_CHECK)) rc = sk_check_locks(c);
	if (rc == MPI_SUCCESS && (c->k->flags & SK_K_ORDER_CHECK)) rc = sk_check_order(c);
	/* Outside the timed interval; a computation alone moves no data. */
	int moved = !(c->k->flags & SK_K_NONBLOCKING) || c->a.nb_phase != SK_NB_COMPUTE;
	if (rc == MPI_SUCCESS && c->a.check && moved) {
		sk_check_verify(c, i); /* the last step's region */
		c->rep++;
		fill_all(c);
	}
	if (c->k->quiesce) {
		int qrc = c->k->quiesce(c);
		if (rc == MPI_SUCCESS) rc = qrc;
	}
	if (c->k->flags & SK_K_OWN_RESULT) total = c->result;
	double per_step = (c->k->flags & SK_K_PER_PROCESS_STEP) ? (double)c->nprocs
	                  : c->calls_per_step > 1                 ? (double)c->calls_per_step
	                                                          : 1;
	if (rc == MPI_SUCCESS && !invalid) *per_op = total / (double)iters / per_step;
	return rc;
}
