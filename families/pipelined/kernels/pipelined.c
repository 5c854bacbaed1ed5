//go:build mpi

/* Pipelined broadcasts written with point-to-point calls, as a collective library's
 * own segmented algorithms are: the message cut into segments of segment_bytes, each
 * passed on as soon as it arrives, so that the links of a chain carry different
 * segments at once. Beside MPI_Bcast they show what the library's choice is worth at
 * a segment size the user picks. */
#include <limits.h>
#include <stdlib.h>
#include "skampi.h"

enum { PIPE_TAG = 0x7069 };

/* A point's pipeline: its segments, this rank's neighbours in the chain, and a request
 * per segment sent plus two for the receives. */
typedef struct {
	int seg;  /* elements per segment */
	int tsize; /* bytes per element */
	int nseg; /* segments in the message (at least one: an empty message still travels) */
	int prev, next;
	MPI_Request *req;
} pipe_state;

static void release_chain(sk_ctx *c) {
	pipe_state *p = c->fam;
	if (!p) return;
	free(p->req);
	free(p);
	c->fam = NULL;
}

/* The chain runs from the root through the ranks in order: rank root+1 receives from
 * the root, rank root+2 from root+1, and so on (mod nprocs). */
static int prepare_chain(sk_ctx *c) {
	double seg_bytes = c->kparam[0];
	if (!(seg_bytes >= 1) || seg_bytes > INT_MAX) return SK_ERR_PARAM;
	int tsize = 0;
	int rc = MPI_Type_size(c->dt, &tsize);
	if (rc != MPI_SUCCESS) return rc;
	if (tsize < 1) return SK_ERR_ARGS;
	pipe_state *p = calloc(1, sizeof *p);
	if (!p) return SK_ERR_NOMEM;
	c->fam = p;
	p->tsize = tsize;
	p->seg = (int)seg_bytes / tsize;
	if (p->seg < 1) p->seg = 1;
	p->nseg = c->count > 0 ? (c->count - 1) / p->seg + 1 : 1;
	int n = c->nprocs, v = (c->rank - c->a.root + n) % n;
	p->prev = v == 0 ? MPI_PROC_NULL : (c->rank - 1 + n) % n;
	p->next = v == n - 1 ? MPI_PROC_NULL : (c->rank + 1) % n;
	p->req = calloc((size_t)p->nseg + 2, sizeof(MPI_Request));
	return p->req ? MPI_SUCCESS : SK_ERR_NOMEM;
}

/* segment s: its first element and its count */
static inline char *seg_at(const sk_ctx *c, const pipe_state *p, int s, int *count) {
	long long first = (long long)s * p->seg;
	long long left = c->count - first;
	*count = left < p->seg ? (int)(left > 0 ? left : 0) : p->seg;
	return c->a.sbuf + first * p->tsize;
}

/* One broadcast: the root sends every segment down the chain; every other rank
 * receives segment s+1 while it passes segment s on. */
static int step_chain(sk_ctx *c) {
	pipe_state *p = c->fam;
	MPI_Request *sreq = p->req, *rreq = p->req + p->nseg;
	int nsent = 0, rc, cnt;
	char *buf;
	if (p->prev != MPI_PROC_NULL) {
		buf = seg_at(c, p, 0, &cnt);
		if ((rc = MPI_Irecv(buf, cnt, c->dt, p->prev, PIPE_TAG, c->comm, &rreq[0])) != MPI_SUCCESS) return rc;
	}
	for (int s = 0; s < p->nseg; s++) {
		if (p->prev != MPI_PROC_NULL) {
			if (s + 1 < p->nseg) {
				buf = seg_at(c, p, s + 1, &cnt);
				rc = MPI_Irecv(buf, cnt, c->dt, p->prev, PIPE_TAG, c->comm, &rreq[(s + 1) % 2]);
				if (rc != MPI_SUCCESS) return rc;
			}
			if ((rc = MPI_Wait(&rreq[s % 2], MPI_STATUS_IGNORE)) != MPI_SUCCESS) return rc;
		}
		if (p->next != MPI_PROC_NULL) {
			buf = seg_at(c, p, s, &cnt);
			rc = MPI_Isend(buf, cnt, c->dt, p->next, PIPE_TAG, c->comm, &sreq[nsent++]);
			if (rc != MPI_SUCCESS) return rc;
		}
	}
	return MPI_Waitall(nsent, sreq, MPI_STATUSES_IGNORE);
}

static const char *const chain_params[] = {"segment_bytes", NULL};

static const sk_kernel kernels[] = {
	{.name = "bcast_pipelined_chain", .step = step_chain, .prepare = prepare_chain, .flags = SK_K_COLLECTIVE,
	 .check = SK_CHECK_BCAST, .params = chain_params, .release = release_chain},
};

static const sk_table table = SK_TABLE(kernels);
static const sk_table *const tables[] = {&table};

const sk_table *const *sk_pipelined_tables(int *n) {
	*n = (int)(sizeof tables / sizeof tables[0]);
	return tables;
}
