//go:build mpi

/* Data layouts (layout.h): the strided patches of Global Arrays. msg_bytes stays the
 * payload, n elements; in memory element k lies at k * stride elements, so a message
 * spans msg_bytes * stride bytes. It moves as one derived datatype, built and committed
 * once per point (outside every timed interval) and freed at its close:
 *   vector   MPI_Type_vector(n, 1, stride, elem)
 *   indexed  MPI_Type_indexed, the same places given element by element
 *   struct   MPI_Type_create_struct, the same places; where the element is 8 bytes and
 *            untyped, pairs of MPI_INT and single MPI_DOUBLEs in turn (SKaMPI's
 *            Datatype_complex_mixed mixes them so)
 *   packed   the baseline: MPI_Pack of the vector into a contiguous buffer before every
 *            send and MPI_Unpack after every receive, inside the timed step
 * each resized to the span, so an all-to-all's blocks follow one another. The element
 * is the point's datatype for collectives and typed one-sided operations (an accumulate
 * must combine whole elements of one type), a double otherwise. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kernels.h"
#include "layout.h"
#include "sk_common.h"

#define TAG 1

static const char *const names[] = {"contiguous", "vector", "indexed", "struct", "packed"};
enum { NLAYOUTS = (int)(sizeof(names) / sizeof(names[0])) };

int sk_layout_count(void) { return NLAYOUTS; }
const char *sk_layout_name(int kind) { return kind >= 0 && kind < NLAYOUTS ? names[kind] : NULL; }
int sk_find_layout(const char *name) {
	if (!name || !*name) return SK_DL_CONTIGUOUS;
	for (int i = 0; i < NLAYOUTS; i++)
		if (!strcmp(names[i], name)) return i;
	return -1;
}

int sk_layout_resolve(sk_ctx *c) {
	c->span = c->a.bytes;
	int kind = sk_find_layout(c->a.data_layout);
	if (kind < 0) return SK_ERR_LAYOUT;
	c->a.data_layout = names[kind]; /* ours, not the caller's string */
	if (kind == SK_DL_CONTIGUOUS) return MPI_SUCCESS;
	if (!c->k->layout) return SK_ERR_LAYOUT;
	int typed = c->k->flags & (SK_K_COLLECTIVE | SK_K_TYPED);
	MPI_Datatype elem = typed ? c->dt : MPI_DOUBLE;
	int esize = 0;
	CK(MPI_Type_size(elem, &esize));
	if (esize < 1 || c->a.bytes < esize || c->a.bytes % esize || c->a.stride < 1) return SK_ERR_ARGS;
	struct sk_layout *l = calloc(1, sizeof *l);
	if (!l) return SK_ERR_NOMEM;
	c->lay = l;
	l->kind = kind;
	l->elem = elem;
	l->esize = esize;
	l->n = c->a.bytes / esize;
	l->stride = c->a.stride;
	l->type = MPI_DATATYPE_NULL;
	c->span = (long long)c->a.bytes * l->stride;
	return MPI_SUCCESS;
}

/* build makes the unresolved type of one message's places. */
static int build(sk_ctx *c, MPI_Datatype *t) {
	struct sk_layout *l = c->lay;
	int n = l->n, rc;
	if (l->kind == SK_DL_VECTOR || l->kind == SK_DL_PACKED) return MPI_Type_vector(n, 1, l->stride, l->elem, t);
	int *len = malloc(sizeof(int) * (size_t)n), *at = malloc(sizeof(int) * (size_t)n);
	MPI_Aint *disp = malloc(sizeof(MPI_Aint) * (size_t)n);
	MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)n);
	if (!len || !at || !disp || !types) {
		rc = SK_ERR_NOMEM;
		goto out;
	}
	int mixed = l->kind == SK_DL_STRUCT && l->esize == 8 && !(c->k->flags & (SK_K_COLLECTIVE | SK_K_TYPED));
	for (int k = 0; k < n; k++) {
		len[k] = 1;
		at[k] = k * l->stride;
		disp[k] = (MPI_Aint)k * l->stride * l->esize;
		types[k] = l->elem;
		if (mixed && k % 2 == 0) {
			len[k] = 2;
			types[k] = MPI_INT;
		}
	}
	if (l->kind == SK_DL_INDEXED)
		rc = MPI_Type_indexed(n, len, at, l->elem, t);
	else
		rc = MPI_Type_create_struct(n, len, disp, types, t);
out:
	free(len);
	free(at);
	free(disp);
	free(types);
	return rc;
}

/* The steps a layout puts in place of its kernel's. */
static int pingpong_typed(sk_ctx *c) {
	const sk_args *a = &c->a;
	MPI_Datatype t = c->lay->type;
	if (a->role == SK_ROLE_INITIATOR) {
		CK(MPI_Send(a->sbuf, 1, t, a->peer, TAG, c->comm));
		return MPI_Recv(a->rbuf, 1, t, a->peer, TAG, c->comm, MPI_STATUS_IGNORE);
	}
	CK(MPI_Recv(a->rbuf, 1, t, a->peer, TAG, c->comm, MPI_STATUS_IGNORE));
	return MPI_Send(a->sbuf, 1, t, a->peer, TAG, c->comm);
}

static int pack_send(sk_ctx *c) {
	const struct sk_layout *l = c->lay;
	int pos = 0;
	CK(MPI_Pack(c->a.sbuf, 1, l->type, l->pack, l->psize, &pos, c->comm));
	return MPI_Send(l->pack, pos, MPI_PACKED, c->a.peer, TAG, c->comm);
}

static int recv_unpack(sk_ctx *c) {
	const struct sk_layout *l = c->lay;
	int pos = 0;
	CK(MPI_Recv(l->unpack, l->psize, MPI_PACKED, c->a.peer, TAG, c->comm, MPI_STATUS_IGNORE));
	return MPI_Unpack(l->unpack, l->psize, &pos, c->a.rbuf, 1, l->type, c->comm);
}

static int pingpong_packed(sk_ctx *c) {
	if (c->a.role == SK_ROLE_INITIATOR) {
		CK(pack_send(c));
		return recv_unpack(c);
	}
	CK(recv_unpack(c));
	return pack_send(c);
}

static int alltoall_typed(sk_ctx *c) {
	MPI_Datatype t = c->lay->type;
	return MPI_Alltoall(c->a.sbuf, 1, t, c->a.rbuf, 1, t, c->comm);
}

static int alltoall_packed(sk_ctx *c) {
	const struct sk_layout *l = c->lay;
	int p = c->nprocs, all = l->psize * p;
	for (int i = 0; i < p; i++) {
		int pos = i * l->psize;
		CK(MPI_Pack(c->a.sbuf + (size_t)i * (size_t)c->span, 1, l->type, l->pack, all, &pos, c->comm));
	}
	CK(MPI_Alltoall(l->pack, l->psize, MPI_PACKED, l->unpack, l->psize, MPI_PACKED, c->comm));
	for (int i = 0; i < p; i++) {
		int pos = i * l->psize;
		CK(MPI_Unpack(l->unpack, all, &pos, c->a.rbuf + (size_t)i * (size_t)c->span, 1, l->type, c->comm));
	}
	return MPI_SUCCESS;
}

/* A packed put or accumulate packs a copy per operation of the epoch (an operation's
 * origin buffer is the library's until the epoch ends), then runs the epoch; a packed
 * get runs it, then unpacks each result into its place. The peer's window holds the
 * packed, contiguous form: a target that does not take part cannot unpack. */
static int origin_side(const sk_ctx *c) {
	return c->a.role == SK_ROLE_INITIATOR || c->mode == SK_SYNC_FENCE_PINGPONG || c->mode == SK_SYNC_PSCW_PINGPONG;
}

static int pack_then_epoch(sk_ctx *c) {
	const struct sk_layout *l = c->lay;
	if (origin_side(c))
		for (int i = 0; i < l->slots; i++) {
			int pos = 0;
			CK(MPI_Pack(c->a.sbuf, 1, l->type, l->pack + (size_t)i * (size_t)l->psize, l->psize, &pos, c->comm));
		}
	return l->inner(c);
}

static int epoch_then_unpack(sk_ctx *c) {
	const struct sk_layout *l = c->lay;
	CK(l->inner(c));
	if (origin_side(c))
		for (int i = 0; i < l->slots; i++) {
			int pos = 0;
			CK(MPI_Unpack(l->pack + (size_t)i * (size_t)l->psize, l->psize, &pos,
			              c->result_buf + (size_t)i * (size_t)c->span, 1, l->type, c->comm));
		}
	return MPI_SUCCESS;
}

/* make_type builds the message's type, resized to the span, and commits it; the wire
 * form of a strided (not packed) operation is that type. */
static int make_type(sk_ctx *c) {
	struct sk_layout *l = c->lay;
	MPI_Datatype t;
	CK(build(c, &t));
	int rc = MPI_Type_create_resized(t, 0, (MPI_Aint)c->span, &l->type);
	MPI_Type_free(&t);
	CK(rc);
	CK(MPI_Type_commit(&l->type));
	if (l->kind != SK_DL_PACKED) l->dt = l->type;
	return MPI_SUCCESS;
}

/* type_commit = "every_call": every step builds, commits and frees its type around
 * the operation (an application that describes each transfer anew pays that), timed. */
static int every_call(sk_ctx *c) {
	struct sk_layout *l = c->lay;
	CK(make_type(c));
	int rc = l->outer(c);
	int frc = MPI_Type_free(&l->type);
	return rc != MPI_SUCCESS ? rc : frc;
}

int sk_layout_prepare(sk_ctx *c) {
	struct sk_layout *l = c->lay;
	if (!l) return MPI_SUCCESS;
	MPI_Datatype t;
	CK(make_type(c));
	int lay = c->k->layout, onesided = lay == SK_LAY_PUT || lay == SK_LAY_GET || lay == SK_LAY_ACCUMULATE;
	l->count = 1;
	if (l->kind == SK_DL_PACKED) {
		CK(MPI_Pack_size(1, l->type, c->comm, &l->psize));
		l->slots = lay == SK_LAY_ALLTOALL ? c->nprocs : onesided && c->a.window > 1 ? c->a.window : 1;
		/* page-aligned, as the message buffers are: a packed message is one */
		size_t all = (size_t)l->psize * (size_t)l->slots, page = (size_t)sysconf(_SC_PAGESIZE);
		if (posix_memalign((void **)&l->pack, page, all ? all : 1) || posix_memalign((void **)&l->unpack, page, all ? all : 1))
			return SK_ERR_NOMEM;
		l->count = l->psize; /* bytes as they were packed (homogeneous: the payload) */
		l->dt = MPI_BYTE;
		if (lay == SK_LAY_ACCUMULATE) { /* combines elements: the packed ones, n of them */
			l->count = l->n;
			l->dt = l->elem;
		}
	}
	switch (lay) {
	case SK_LAY_PINGPONG:
		c->step = l->kind == SK_DL_PACKED ? pingpong_packed : pingpong_typed;
		break;
	case SK_LAY_ALLTOALL:
		c->step = l->kind == SK_DL_PACKED ? alltoall_packed : alltoall_typed;
		break;
	case SK_LAY_PUT:
	case SK_LAY_ACCUMULATE:
	case SK_LAY_GET:
		if (l->kind == SK_DL_PACKED) {
			l->inner = c->step;
			c->step = lay == SK_LAY_GET ? epoch_then_unpack : pack_then_epoch;
		}
		if (c->have_win) {
			int *model, found = 0;
			CK(MPI_Win_get_attr(c->win, MPI_WIN_MODEL, &model, &found));
			l->unified = found && *model == MPI_WIN_UNIFIED;
		}
		if (c->a.check && lay == SK_LAY_GET) {
			sk_layout_fill_window(c);
			CK(MPI_Barrier(c->comm)); /* filled before anyone gets from it */
		}
		break;
	default:
		return SK_ERR_LAYOUT;
	}
	if (c->a.every_call) { /* built in every step: the one of the preparation sized the packing */
		l->outer = c->step;
		c->step = every_call;
		CK(MPI_Type_free(&l->type));
	}
	return MPI_SUCCESS;
}

int sk_layout_close(sk_ctx *c) {
	if (!c->lay || c->lay->type == MPI_DATATYPE_NULL) return MPI_SUCCESS;
	return MPI_Type_free(&c->lay->type);
}

void sk_layout_release(sk_ctx *c) {
	if (!c->lay) return;
	free(c->lay->pack);
	free(c->lay->unpack);
	free(c->lay);
	c->lay = NULL;
}
