/* Data layouts (the setting data_layout): a message's payload of msg_bytes, n elements,
 * lying stride elements apart in memory, moved by a committed derived datatype or packed
 * by hand. datatypes.c builds them and steps through them; datatypes_check.c checks
 * where the payload landed; rma.c's put, get and accumulate read the wire form below. */
#ifndef SKAMPI_LAYOUT_H
#define SKAMPI_LAYOUT_H

#include "skampi.h"

/* The layouts, by the names of ops.DataLayouts. */
enum { SK_DL_CONTIGUOUS = 0, SK_DL_VECTOR, SK_DL_INDEXED, SK_DL_STRUCT, SK_DL_PACKED };

struct sk_layout {
	int kind;          /* SK_DL_*, never contiguous */
	MPI_Datatype type; /* one message in memory, resized to span bytes (committed) */
	MPI_Datatype elem; /* its element: the point's datatype (typed, collective), else double */
	int esize, n, stride;
	/* What one operation moves on the wire: (1, type), or packed (psize bytes, or n
	 * elements for an accumulate) from pack. */
	int count;
	MPI_Datatype dt;
	/* packed: MPI_Pack_size of one message; pack and unpack hold slots of psize each
	 * (one per message in flight: a window's, or one per process of an all-to-all) */
	int psize, slots;
	char *pack, *unpack;
	sk_step inner; /* a packed one-sided step: the epoch it packs before or unpacks after */
	sk_step outer; /* type_commit every_call: the step it builds the type around */
	int unified;   /* the window's memory is its public copy: the target may read it */
};

/* The origin buffer of one-sided operation i: its packed slot, or the user's memory. */
static inline char *sk_lay_origin(const struct sk_layout *l, char *user, int i) {
	return l->pack ? l->pack + (size_t)i * (size_t)l->psize : user;
}

int sk_find_layout(const char *name);
const char *sk_layout_name(int kind);
int sk_layout_count(void);
/* sk_layout_resolve (before the kernel's prepare): checks the request's layout against
 * the kernel and the size, sets c->span and, unless contiguous, allocates c->lay. */
int sk_layout_resolve(sk_ctx *c);
/* sk_layout_prepare (after it, members only): builds and commits the type, the packing
 * buffers, the step; fills a get's window for check_data. */
int sk_layout_prepare(sk_ctx *c);
/* sk_layout_close frees the committed type (an MPI call: before finalize);
 * sk_layout_release the memory (no MPI call). */
int sk_layout_close(sk_ctx *c);
void sk_layout_release(sk_ctx *c);
/* check_data (datatypes_check.c): the pattern at the payload's places, distinct bytes
 * in the gaps; after a run, every payload byte where the layout puts it and every gap
 * untouched. */
void sk_layout_fill(sk_ctx *c);
void sk_layout_fill_window(sk_ctx *c);
int sk_layout_verify(sk_ctx *c);

#endif
