//go:build mpi

/* The tables a request's names are resolved in: the kernels (every file's table,
 * joined: a kernel is found by the name the catalogue gives it, ops.Info.Kernel and
 * ops.Method.Kernel), the datatypes and reduction operators (ops.Datatypes,
 * ops.ReduceOps), the synchronisation modes (ops.Method.Mode), the kinds of window
 * (ops.RMAWindows) and the non-blocking measurements (ops.Phase). Go's tests check
 * every table against the catalogue in both directions; nothing on the measuring
 * path reads them but sk_prepare. */
#include <string.h>
#include "kernels.h"
#include "names.h"

#define LEN(x) ((int)(sizeof(x) / sizeof((x)[0])))

/* Every file's kernels; a file of kernels adds its table here, an operation never. */
static const sk_table *const tables[] = {
	&sk_pt2pt_table,   &sk_coll_table,       &sk_nonblocking_table,
	&sk_coll_v_table, &sk_persistent_table,
};

/* The catalogue's datatypes (ops.Datatypes), sizes as the C types have them. The first
 * is the unit of the point-to-point kernels. */
const struct sk_datatype sk_datatypes[] = {
	{"byte", MPI_BYTE, 1},
	{"char", MPI_CHAR, (int)sizeof(char)},
	{"int", MPI_INT, (int)sizeof(int)},
	{"long", MPI_LONG, (int)sizeof(long)},
	{"float", MPI_FLOAT, (int)sizeof(float)},
	{"double", MPI_DOUBLE, (int)sizeof(double)},
};

/* The catalogue's reduction operators (ops.ReduceOps). The first stands in for the
 * kernels that reduce nothing. */
const struct sk_reduce_op sk_reduce_ops[] = {
	{"sum", MPI_SUM}, {"prod", MPI_PROD}, {"min", MPI_MIN}, {"max", MPI_MAX},
	{"band", MPI_BAND}, {"bor", MPI_BOR}, {"bxor", MPI_BXOR},
};

/* Other packages' tables (a family's kernels), in the order they
 * were registered. */
enum { MAX_EXTRA = 64 };
static const sk_table *extra[MAX_EXTRA];
static int nextra;

int sk_register_kernels(const sk_table *const *more, int n) {
	for (int i = 0; i < n; i++) {
		int dup = 0; /* a package registering again adds nothing */
		for (int j = 0; j < nextra; j++) dup |= extra[j] == more[i];
		if (dup) continue;
		if (nextra == MAX_EXTRA) return SK_ERR_ARGS;
		extra[nextra++] = more[i];
	}
	return MPI_SUCCESS;
}

static const sk_table *table_at(int t) { return t < LEN(tables) ? tables[t] : extra[t - LEN(tables)]; }

int sk_kernel_count(void) {
	int n = 0;
	for (int t = 0; t < LEN(tables) + nextra; t++) n += table_at(t)->n;
	return n;
}

const sk_kernel *sk_kernel_at(int i) {
	if (i < 0) return NULL;
	for (int t = 0; t < LEN(tables) + nextra; t++) {
		if (i < table_at(t)->n) return &table_at(t)->k[i];
		i -= table_at(t)->n;
	}
	return NULL;
}

const char *sk_kernel_missing(const sk_kernel *k) { return k && k->missing ? k->missing() : NULL; }

int sk_datatype_count(void) { return LEN(sk_datatypes); }
int sk_reduce_op_count(void) { return LEN(sk_reduce_ops); }

const char *sk_datatype_name(int i, int *size) {
	if (i < 0 || i >= LEN(sk_datatypes)) return NULL;
	*size = sk_datatypes[i].size;
	return sk_datatypes[i].name;
}

const char *sk_reduce_op_name(int i) { return i >= 0 && i < LEN(sk_reduce_ops) ? sk_reduce_ops[i].name : NULL; }

static int same(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

const sk_kernel *sk_find_kernel(const char *name) {
	for (int i = 0; i < sk_kernel_count(); i++)
		if (same(sk_kernel_at(i)->name, name)) return sk_kernel_at(i);
	return NULL;
}

int sk_find_datatype(const char *name) {
	for (int i = 0; i < LEN(sk_datatypes); i++)
		if (same(sk_datatypes[i].name, name)) return i;
	return -1;
}

int sk_find_reduce_op(const char *name) {
	for (int i = 0; i < LEN(sk_reduce_ops); i++)
		if (same(sk_reduce_ops[i].name, name)) return i;
	return -1;
}

/* The synchronisation modes by the names the catalogue's methods give them
 * (ops.Method.Mode; rma.c says what each does). Where OSU's one-sided latency tests
 * have a sequence the mode has OSU's name; the lock kernels take "exclusive" and
 * "shared". */
static const struct {
	const char *name;
	int mode;
} modes[] = {
	{"flush", SK_SYNC_SHARED_FLUSH},
	{"flush_local", SK_SYNC_SHARED_FLUSH_LOCAL},
	{"lock", SK_SYNC_LOCK_SHARED},
	{"lock_all", SK_SYNC_LOCK_ALL_EPOCH},
	{"fence", SK_SYNC_FENCE_PINGPONG},
	{"pscw", SK_SYNC_PSCW_PINGPONG},
	{"lock_exclusive", SK_SYNC_LOCK_EXCLUSIVE},
	{"lock_all_flush", SK_SYNC_LOCK_ALL_FLUSH},
	{"lock_all_flush_local", SK_SYNC_LOCK_ALL_FLUSH_LOCAL},
	{"fence_epoch", SK_SYNC_FENCE_EPOCH},
	{"pscw_epoch", SK_SYNC_PSCW_EPOCH},
	{"exclusive", SK_SYNC_LOCK_EXCLUSIVE},
	{"shared", SK_SYNC_LOCK_SHARED},
};

int sk_find_mode(const char *name) {
	for (int i = 0; i < LEN(modes); i++)
		if (same(modes[i].name, name)) return modes[i].mode;
	return -1;
}

/* The first name of a mode (a mode may have two: "lock" and "shared"). */
const char *sk_mode_name(int mode) {
	for (int i = 0; i < LEN(modes); i++)
		if (modes[i].mode == mode) return modes[i].name;
	return NULL;
}

int sk_mode_count(void) { return LEN(modes); }
const char *sk_mode_at(int i) { return i >= 0 && i < LEN(modes) ? modes[i].name : NULL; }

/* The kinds of window (ops.RMAWindows). */
static const struct {
	const char *name;
	int kind;
} windows[] = {{"allocate", SK_WIN_ALLOCATE}, {"create", SK_WIN_CREATE}, {"dynamic", SK_WIN_DYNAMIC}};

int sk_find_window(const char *name) {
	for (int i = 0; i < LEN(windows); i++)
		if (same(windows[i].name, name)) return windows[i].kind;
	return -1;
}

int sk_window_count(void) { return LEN(windows); }
const char *sk_window_at(int i) { return i >= 0 && i < LEN(windows) ? windows[i].name : NULL; }

/* The measurements of a non-blocking operation (ops.Phase's names). */
static const struct {
	const char *name;
	int phase;
} phases[] = {{"full", SK_NB_FULL}, {"post", SK_NB_POST}, {"wait", SK_NB_WAIT}, {"overlap", SK_NB_OVERLAP},
              {"compute", SK_NB_COMPUTE}};

int sk_find_phase(const char *name) {
	for (int i = 0; i < LEN(phases); i++)
		if (same(phases[i].name, name)) return phases[i].phase;
	return -1;
}

int sk_phase_count(void) { return LEN(phases); }
const char *sk_phase_at(int i) { return i >= 0 && i < LEN(phases) ? phases[i].name : NULL; }

