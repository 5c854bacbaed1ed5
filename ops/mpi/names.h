/* The names a request carries, resolved (kernels.c): the kernel, the datatype and
 * reduction operator, the synchronisation mode, the kind of window, the non-blocking
 * measurement. Each returns -1 (NULL for a kernel) for a name it does not know. */
#ifndef SKAMPI_NAMES_H
#define SKAMPI_NAMES_H

#include "skampi.h"

const sk_kernel *sk_find_kernel(const char *name);
int sk_find_datatype(const char *name);
int sk_find_reduce_op(const char *name);
int sk_find_mode(const char *name);
const char *sk_mode_name(int mode);
int sk_find_window(const char *name);
int sk_find_phase(const char *name);

extern const struct sk_datatype {
	const char *name;
	MPI_Datatype dt;
	int size;
} sk_datatypes[];
extern const struct sk_reduce_op {
	const char *name;
	MPI_Op op;
} sk_reduce_ops[];

#endif
