//go:build mpi

/* The library's performance variables around a point's repetitions (the setting
 * pvars): an MPI_T session per point, a handle per variable (bound to nothing, to the
 * point's communicator or to its window), read when the point is prepared and again
 * after its last repetition, never inside a timed loop. Every call's return code is
 * checked; a variable the library does not offer, binds to another object or cannot
 * read here (Open MPI 4.1.4 refuses to read coll_monitoring_messages_count on a
 * duplicated communicator) is left out and named by the caller. */
#include <stdlib.h>
#include <string.h>
#include "skampi.h"
#include "runtime.h"

#define SK_PVAR_MAX_COUNT 4096 /* elements of one variable (per peer: a job of up to that many) */

typedef struct {
	char name[256];
	int cls, count;
	MPI_Datatype dt;
	MPI_T_pvar_handle h;
	double *start;
} pvar;

struct sk_pvars {
	MPI_T_pvar_session s;
	int n;
	pvar *v;
};

static int wanted(const char *list, const char *name) {
	if (!strcmp(list, "all")) return 1;
	size_t n = strlen(name);
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !strncmp(p, name, n)) return 1;
		if (!e) break;
		p = e + 1;
	}
	return 0;
}

/* read_all reads variable v's elements as doubles into out. */
static int read_all(struct sk_pvars *p, pvar *v, double *out) {
	void *buf = calloc((size_t)v->count, 8);
	if (!buf) return SK_ERR_NOMEM;
	int rc = MPI_T_pvar_read(p->s, v->h, buf);
	for (int i = 0; rc == MPI_SUCCESS && i < v->count; i++) {
		if (v->dt == MPI_UNSIGNED) out[i] = ((unsigned *)buf)[i];
		else if (v->dt == MPI_INT) out[i] = ((int *)buf)[i];
		else if (v->dt == MPI_UNSIGNED_LONG) out[i] = (double)((unsigned long *)buf)[i];
		else if (v->dt == MPI_UNSIGNED_LONG_LONG || v->dt == MPI_COUNT) out[i] = (double)((unsigned long long *)buf)[i];
		else if (v->dt == MPI_DOUBLE) out[i] = ((double *)buf)[i];
	}
	free(buf);
	return rc;
}

static int readable(MPI_Datatype dt) {
	return dt == MPI_UNSIGNED || dt == MPI_INT || dt == MPI_UNSIGNED_LONG || dt == MPI_UNSIGNED_LONG_LONG ||
	       dt == MPI_COUNT || dt == MPI_DOUBLE;
}

/* component_open: a variable FRAMEWORK_COMPONENT_... of one of Open MPI's frameworks
 * whose component is in open ("fw_comp,..."); any other variable is let through. */
static int component_open(const char *open, const char *name) {
	static const char *const fws[] = {"pml", "btl", "mtl", "osc", "coll", "spml", "sshmem", "scoll", "atomic"};
	const char *u1 = strchr(name, '_');
	if (!u1) return 1;
	int known = 0;
	for (size_t i = 0; i < sizeof fws / sizeof fws[0]; i++)
		if ((size_t)(u1 - name) == strlen(fws[i]) && !strncmp(name, fws[i], strlen(fws[i]))) known = 1;
	if (!known || !strncmp(u1 + 1, "base_", 5)) return 1;
	const char *u2 = strchr(u1 + 1, '_');
	char fc[256];
	size_t n = u2 ? (size_t)(u2 - name) : strlen(name);
	if (n >= sizeof fc) return 0;
	memcpy(fc, name, n);
	fc[n] = 0;
	return wanted(open, fc);
}

int sk_pvars_start(sk_ctx *c, const char *list, const char *open, struct sk_pvars **out) {
	*out = NULL;
	struct sk_pvars *p = calloc(1, sizeof *p);
	if (!p) return SK_ERR_NOMEM;
	int n = 0, rc = sk_mpit_start(); /* once per process (mpit.c) */
	if (rc == MPI_SUCCESS && (rc = MPI_T_pvar_get_num(&n)) == MPI_SUCCESS) rc = MPI_T_pvar_session_create(&p->s);
	if (rc != MPI_SUCCESS) {
		free(p);
		return rc;
	}
	p->v = calloc((size_t)(n > 0 ? n : 1), sizeof(pvar));
	if (!p->v) {
		sk_pvars_free(p);
		return SK_ERR_NOMEM;
	}
	for (int i = 0; i < n; i++) {
		pvar *v = &p->v[p->n];
		char desc[1024]; /* not NULL: MPICH 4.0 writes to it whatever its length */
		int nl = (int)sizeof v->name, dl = (int)sizeof desc, verb, bind, ro, cont, atomic;
		MPI_T_enum et;
		if (MPI_T_pvar_get_info(i, v->name, &nl, &verb, &v->cls, &v->dt, &et, desc, &dl, &bind, &ro, &cont, &atomic) !=
		        MPI_SUCCESS ||
		    !wanted(list, v->name) || !readable(v->dt))
			continue;
		/* Open MPI 4.1.4 keeps the performance variables of components it closed (and
		 * of MTLs, which only pml cm starts), and allocating a handle of one calls into
		 * code that is gone or never started: a crash (osc_rdma's once osc ucx was
		 * chosen; mtl_psm2's asks libpsm2 for a queue it never opened). */
		if (open && !component_open(open, v->name)) continue;
		void *obj = NULL;
		if (bind == MPI_T_BIND_MPI_COMM && c->comm != MPI_COMM_NULL) obj = &c->comm;
		else if (bind == MPI_T_BIND_MPI_WIN && c->have_win) obj = &c->win;
		else if (bind != MPI_T_BIND_NO_OBJECT) continue;
		if (MPI_T_pvar_handle_alloc(p->s, i, obj, &v->h, &v->count) != MPI_SUCCESS) continue;
		if (v->count < 1 || v->count > SK_PVAR_MAX_COUNT || !(v->start = calloc((size_t)v->count, sizeof(double)))) {
			MPI_T_pvar_handle_free(p->s, &v->h);
			continue;
		}
		if ((!cont && MPI_T_pvar_start(p->s, v->h) != MPI_SUCCESS) || read_all(p, v, v->start) != MPI_SUCCESS) {
			MPI_T_pvar_handle_free(p->s, &v->h);
			free(v->start);
			continue;
		}
		p->n++;
	}
	*out = p;
	return MPI_SUCCESS;
}

int sk_pvars_count(const struct sk_pvars *p) { return p ? p->n : 0; }

/* sk_pvars_get: variable i's name, class (MPI_T_PVAR_CLASS_*), element count, and its
 * elements at the start and now (start and end hold count doubles each). */
int sk_pvars_get(struct sk_pvars *p, int i, const char **name, int *cls, int *count, double *start, double *end) {
	if (!p || i < 0 || i >= p->n) return SK_ERR_ARGS;
	pvar *v = &p->v[i];
	*name = v->name;
	*cls = v->cls;
	*count = v->count;
	if (start) memcpy(start, v->start, sizeof(double) * (size_t)v->count);
	return end ? read_all(p, v, end) : MPI_SUCCESS;
}

int sk_pvars_is_delta(int cls) {
	return cls == MPI_T_PVAR_CLASS_COUNTER || cls == MPI_T_PVAR_CLASS_AGGREGATE || cls == MPI_T_PVAR_CLASS_TIMER;
}

void sk_pvars_free(struct sk_pvars *p) {
	if (!p) return;
	for (int i = 0; i < p->n; i++) {
		MPI_T_pvar_handle_free(p->s, &p->v[i].h);
		free(p->v[i].start);
	}
	free(p->v);
	MPI_T_pvar_session_free(&p->s);
	free(p);
}
