//go:build mpi

/* The life of a prepared operation: sk_prepare once per point (the request's names
 * resolved in kernels.c's tables), sk_run once per repetition (the timed loop),
 * sk_close and sk_release after the point. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "layout.h"
#include "names.h"
#include "sk_common.h"

int sk_close(sk_ctx *c) {
	int finalized = 0;
	MPI_Finalized(&finalized);
	if (!c || finalized) return MPI_SUCCESS;
	int rc = sk_layout_close(c); /* local: the committed type */
	if (!c->k->close) return rc;
	if (c->a.role == SK_ROLE_IDLE && !(c->k->flags & SK_K_ALL_RANKS)) return rc;
	int krc = c->k->close(c);
	return rc == MPI_SUCCESS ? krc : rc;
}

char sk_failure[SK_FAILURE_LEN];

int sk_agree_sum(sk_ctx *c, long long *v) {
	long long mine = *v;
	return MPI_Allreduce(&mine, v, 1, MPI_LONG_LONG, MPI_SUM, c->comm);
}

/* free_words frees our copies of the request's words and lists. */
static void free_words(sk_ctx *c) {
	for (int j = 0; j < SK_KSTRINGS; j++) {
		free(c->kstring[j]);
		c->kstring[j] = NULL;
	}
	for (int j = 0; j < SK_KARRAYS; j++) {
		free(c->karray[j]);
		c->karray[j] = NULL;
		c->karray_len[j] = 0;
	}
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
	free(c->wdispls);
	free(c->wtypes);
	free(c->bdispls);
	free(c->ring);
	sk_layout_release(c);
	if (c->k && c->k->release) c->k->release(c);
	free_words(c);
	/* A Bsend buffer still attached (its close never ran) stays the library's: leaked, not freed. */
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
		/* Past INT_MAX only for kernels that never read displs: the plan refuses the
		 * v-collectives there (inputs). Computed wide, so no int overflows. */
		long long d = (long long)i * c->count;
		c->counts[i] = c->count;
		c->displs[i] = d > INT_MAX ? -1 : (int)d;
	}
	if (node_of) { /* a copy: the caller may renumber its nodes while we live */
		if (!(c->node_of = malloc(sizeof(int) * n))) return SK_ERR_NOMEM;
		memcpy(c->node_of, node_of, sizeof(int) * n);
		c->a.node_of = c->node_of;
	}
	if (c->k->prepare) CK(c->k->prepare(c));
	return sk_layout_prepare(c); /* after a window's creation: a get's check fills it */
}

/* fill_all writes check_data's pattern into every region a step may use. */
static void fill_all(sk_ctx *c) {
	if (!c->a.check) return;
	void (*fill)(sk_ctx *) = c->lay ? sk_layout_fill : sk_check_fill;
	if (c->a.cold_regions < 2) {
		fill(c);
		return;
	}
	char *s = c->a.sbuf, *r = c->a.rbuf;
	for (int i = 0; i < c->a.cold_regions; i++) {
		size_t off = (size_t)i * (size_t)c->a.cold_stride;
		c->a.sbuf = c->sbase + off;
		c->a.rbuf = c->rbase + off;
		fill(c);
	}
	c->a.sbuf = s;
	c->a.rbuf = r;
}

/* OSU's collective loop (barrier_each): the step timed alone, then a barrier outside
 * its time, so consecutive calls never overlap and a repetition of many steps is OSU's
 * whole loop; the steps add their own time to result. */
static int barrier_each_step(sk_ctx *c) {
	double t0 = sk_now();
	int rc = c->each_inner(c);
	c->result += sk_now() - t0;
	if (rc != MPI_SUCCESS) return rc;
	return MPI_Barrier(c->comm);
}

static int wrap_barrier_each(sk_ctx *c) {
	/* a kernel with its own run loop, or a step that is already wrapped, times itself */
	if (c->k->run || c->busy_inner || !c->step || (c->k->flags & SK_K_OWN_RESULT)) return SK_ERR_ARGS;
	c->each_inner = c->step;
	c->step = barrier_each_step;
	c->own_result = 1;
	return MPI_SUCCESS;
}

/* The names of the request's numbers (ops.ParamNames), in sk_params' order. */
static const char *const param_names[] = {"overlap_spin", "hold_spin", "late_spin", "delay_s", "partitions", "busy_spin"};
enum { N_PARAMS = sizeof param_names / sizeof param_names[0] };

int sk_param_known(const char *name) {
	for (int f = 0; f < N_PARAMS; f++)
		if (strcmp(name, param_names[f]) == 0) return 1;
	return 0;
}

/* kernel_param: the index of name in the kernel's own numbers (sk_kernel.params), -1
 * when it reads no such number; -2 when the kernel declares more than SK_KPARAMS. */
static int kernel_param(const sk_kernel *k, const char *name) {
	if (!k->params) return -1;
	for (int j = 0; k->params[j]; j++) {
		if (j >= SK_KPARAMS) return -2;
		if (strcmp(k->params[j], name) == 0) return j;
	}
	return -1;
}

/* sk_params resolves the request's numbers by name into c's fields of one meaning each
 * (sk_ctx's "by name" block), and a family's own kernel's into c->kparam. A name no
 * field has and the kernel does not read, one given twice, or a value outside its
 * field's range is refused: Go and C cannot disagree on a name in silence. */
static int sk_params(sk_ctx *c, const sk_args *a) {
	enum { N = N_PARAMS };
	const char *const *names = param_names;
	int seen[N + SK_KPARAMS] = {0};
	for (int i = 0; i < a->nparams; i++) {
		double v = a->param_values[i];
		int f = 0;
		while (f < N && strcmp(a->param_names[i], names[f]) != 0) f++;
		if (f == N) {
			int j = kernel_param(c->k, a->param_names[i]);
			if (j < 0 || seen[N + j]++ || v != v) return SK_ERR_PARAM;
			c->kparam[j] = v; /* the kernel checks its own range */
			continue;
		}
		if (seen[f]++ || !(v >= 0) || v > (f == 4 ? (double)INT_MAX : 9.2e18)) return SK_ERR_PARAM;
		switch (f) {
		case 0: c->overlap_spin = (long long)v; break;
		case 1: c->hold_spin = (long long)v; break;
		case 2: c->late_spin = (long long)v; break;
		case 3: c->delay = v; break;
		case 4: c->partitions = (int)v; break;
		case 5: c->busy_spin = (long long)v; break;
		}
	}
	return MPI_SUCCESS;
}

/* sk_strings resolves the request's words by name (sk_args.string_names): only a
 * family's kernel reads them, each into c->kstring at its name's place in
 * sk_kernel.strings (our copy). A name the kernel does not read, one given twice, or a
 * NULL value is refused. */
static int sk_strings(sk_ctx *c, const sk_args *a) {
	for (int i = 0; i < a->nstrings; i++) {
		int j = -1;
		for (int n = 0; c->k->strings && c->k->strings[n] && n < SK_KSTRINGS; n++)
			if (strcmp(c->k->strings[n], a->string_names[i]) == 0) j = n;
		if (j < 0 || c->kstring[j] || !a->string_values[i]) return SK_ERR_PARAM;
		if (!(c->kstring[j] = strdup(a->string_values[i]))) return SK_ERR_NOMEM;
	}
	return MPI_SUCCESS;
}

/* sk_arrays resolves the request's lists by name (sk_args.array_names) into c->karray
 * the same way. */
static int sk_arrays(sk_ctx *c, const sk_args *a) {
	for (int i = 0; i < a->narrays; i++) {
		int j = -1, n = a->array_lens[i];
		for (int m = 0; c->k->arrays && c->k->arrays[m] && m < SK_KARRAYS; m++)
			if (strcmp(c->k->arrays[m], a->array_names[i]) == 0) j = m;
		if (j < 0 || c->karray[j] || n < 0 || (n > 0 && !a->array_values[i])) return SK_ERR_PARAM;
		if (!(c->karray[j] = malloc(sizeof(long long) * (size_t)(n + 1)))) return SK_ERR_NOMEM;
		if (n > 0) memcpy(c->karray[j], a->array_values[i], sizeof(long long) * (size_t)n);
		c->karray_len[j] = n;
	}
	return MPI_SUCCESS;
}

int sk_prepare(const sk_args *a, sk_ctx **out) {
	*out = NULL;
	/* Checked on every rank, idle or not, so all ranks refuse a bad point alike. */
	const sk_kernel *k = sk_find_kernel(a->kernel);
	if (!k) return SK_ERR_KERNEL;
	if (sk_kernel_missing(k)) return SK_ERR_UNSUPPORTED; /* on every rank alike: one library */
	if (k->check == SK_CHECK_OWN && (!k->fill || !k->verify)) return SK_ERR_KERNEL; /* a table's mistake */
	if (a->bytes < 0 || a->window < 0 || a->nprocs < 1 || a->cold_regions < 0 || a->cold_stride < 0) return SK_ERR_ARGS;
	if ((k->flags & SK_K_NONBLOCKING) && a->progress_every < 0) return SK_ERR_ARGS;
	if (a->nparams < 0 || (a->nparams > 0 && (!a->param_names || !a->param_values))) return SK_ERR_PARAM;
	if (a->nstrings < 0 || (a->nstrings > 0 && (!a->string_names || !a->string_values))) return SK_ERR_PARAM;
	if (a->narrays < 0 || (a->narrays > 0 && (!a->array_names || !a->array_values || !a->array_lens))) return SK_ERR_PARAM;
	int dt = 0, op = 0;
	if (k->flags & (SK_K_COLLECTIVE | SK_K_TYPED)) {
		if ((dt = sk_find_datatype(a->datatype)) < 0) return SK_ERR_DATATYPE;
		if ((op = sk_find_reduce_op(a->reduce_op)) < 0) return SK_ERR_REDUCE_OP;
		if ((k->flags & SK_K_COLLECTIVE) && (a->root < 0 || a->root >= a->nprocs)) return SK_ERR_ARGS;
	}
	/* The mode: the request's, else the kernel's own; a kernel without modes takes none. */
	int mode = SK_SYNC_NONE;
	const char *mname = a->mode && *a->mode ? a->mode : k->mode;
	if (mname && (!k->mode || (mode = sk_find_mode(mname)) < 0)) return SK_ERR_MODE;
	if (k->by_mode && !k->by_mode[mode]) return SK_ERR_MODE;
	int win = sk_find_window(a->rma_window && *a->rma_window ? a->rma_window : "allocate");
	if (win < 0) return SK_ERR_WINDOW;
	int phase = sk_find_phase(a->phase && *a->phase ? a->phase : "full");
	if (phase < 0) return SK_ERR_PHASE;
	int poll = sk_find_poll(a->poll);
	if (poll < 0) return SK_ERR_POLL;
	if ((k->flags & SK_K_NODE_AWARE) && (!a->node_of || a->nnodes < 1)) return SK_ERR_NODES;

	sk_ctx *c = calloc(1, sizeof *c);
	if (!c) return SK_ERR_NOMEM;
	c->k = k;
	c->step = k->by_mode ? k->by_mode[mode] : k->step;
	c->mode = mode;
	c->win_kind = win;
	c->phase = phase;
	c->poll = poll;
	c->a = *a;
	int prc = sk_params(c, a);
	if (prc == MPI_SUCCESS) prc = sk_strings(c, a);
	if (prc == MPI_SUCCESS) prc = sk_arrays(c, a);
	if (prc != MPI_SUCCESS) {
		free_words(c);
		free(c);
		return prc;
	}
	c->a.nparams = c->a.nstrings = 0; /* the names and values are the caller's */
	c->a.param_names = NULL;
	c->a.param_values = NULL;
	c->a.string_names = c->a.string_values = NULL;
	c->a.narrays = 0;
	c->a.array_names = NULL;
	c->a.array_values = NULL;
	c->a.array_lens = NULL;
	/* names of our tables, not the caller's strings (which it frees) */
	c->a.kernel = k->name;
	c->a.mode = mname ? sk_mode_name(mode) : NULL;
	c->a.datatype = sk_datatypes[dt].name;
	c->a.reduce_op = sk_reduce_ops[op].name;
	c->a.rma_window = c->a.phase = c->a.poll = NULL;
	c->a.node_of = NULL; /* until prepare_member has copied it */
	c->dt = sk_datatypes[dt].dt;
	c->op = sk_reduce_ops[op].op;
	c->count = a->bytes / sk_datatypes[dt].size;
	int lrc = sk_layout_resolve(c); /* checked on idle ranks too */
	if (lrc != MPI_SUCCESS) {
		sk_release(c);
		return lrc;
	}
	if (a->role != SK_ROLE_IDLE) { /* idle ranks may have no communicator at all */
		int rc = prepare_member(c, a->node_of);
		/* A busy target no kernel wrapped its step for would be measured idle. */
		if (rc == MPI_SUCCESS && c->busy_spin > 0 && !c->busy_inner) rc = SK_ERR_BUSY;
		if (rc == MPI_SUCCESS && a->barrier_each) rc = wrap_barrier_each(c);
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
	double total = 0;
	long long i = iters;
	if (c->k->run) {
		rc = c->k->run(c, iters, &total);
	} else if ((c->k->flags & SK_K_NONBLOCKING) && !c->busy_inner) { /* a busy target's step is whole */
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
	SK_STEP_DONE();
	/* Outside the timed interval: the kernel's own checks (a shared counter holds every
	 * increment; a lock was never held by two). */
	if (rc == MPI_SUCCESS && c->k->after) rc = c->k->after(c, i);
	/* Outside the timed interval; a computation alone moves no data. */
	int moved = !(c->k->flags & SK_K_NONBLOCKING) || c->phase != SK_NB_COMPUTE;
	if (rc == MPI_SUCCESS && c->a.check && moved) {
		if (c->lay)
			rc = sk_layout_verify(c); /* a put's target reads its window after a barrier */
		else
			sk_check_verify(c, i); /* the last step's region */
		c->rep++;
		fill_all(c);
	}
	if (c->k->quiesce) {
		int qrc = c->k->quiesce(c);
		if (rc == MPI_SUCCESS) rc = qrc;
	}
	if ((c->k->flags & SK_K_OWN_RESULT) || c->own_result) total = c->result;
	double per_step = (c->k->flags & SK_K_PER_PROCESS_STEP) ? (double)c->nprocs
	                  : c->calls_per_step > 1                 ? (double)c->calls_per_step
	                                                          : 1;
	if (rc == MPI_SUCCESS && !invalid) *per_op = total / (double)iters / per_step;
	return rc;
}

int sk_set_phase(sk_ctx *c, const char *phase) {
	int p = sk_find_phase(phase);
	if (!c || p < 0) return SK_ERR_PHASE;
	c->phase = p;
	return MPI_SUCCESS;
}
