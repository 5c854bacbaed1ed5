//go:build mpi

/* The library's own view through the MPI tool information interface (MPI_T): its
 * control variables by name and value, read after MPI_Init on rank 0 for the run
 * header. Every call's return code is checked before its output is used: Open MPI 4.1
 * keeps the indices of variables whose component was closed after selection, and a
 * handle that failed to allocate must never be read (reading one crashes it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skampi.h"
#include "runtime.h"

/* sk_mpit_start initialises MPI_T once per process and never finalises it: MPICH
 * 4.0.2 crashes in an MPI_T_init_thread that follows an MPI_T_finalize. It asks for
 * the thread level MPI runs at: Open MPI 4.1.4 takes MPI_T's level for the whole
 * library, and MPI_T at SINGLE under MPI_THREAD_MULTIPLE hung the multi-threaded
 * kernels. */
int sk_mpit_start(void) {
	static int rc = -1;
	if (rc != MPI_SUCCESS) {
		int level = MPI_THREAD_SINGLE, provided;
		int initialized = 0;
		if (MPI_Initialized(&initialized) == MPI_SUCCESS && initialized) MPI_Query_thread(&level);
		rc = MPI_T_init_thread(level, &provided);
	}
	return rc;
}

int sk_mpit_cvar_count(int *n) { return MPI_T_cvar_get_num(n); }

/* sk_mpit_cvar_name: variable i's name (a closed component's variable: an error). */
int sk_mpit_cvar_name(int i, char *name, int len) {
	int nl = len, dl = 0, verb, bind, scope;
	MPI_Datatype dt;
	MPI_T_enum et;
	int rc = MPI_T_cvar_get_info(i, name, &nl, &verb, &dt, &et, NULL, &dl, &bind, &scope);
	if (rc == MPI_SUCCESS && nl <= 0) name[0] = 0;
	return rc;
}

/* enum_name writes the name of enumeration et's item of value v, if it has one. */
static void enum_name(MPI_T_enum et, int v, char *out, int len) {
	int num, nl = 0;
	if (MPI_T_enum_get_info(et, &num, NULL, &nl) != MPI_SUCCESS) return;
	for (int k = 0; k < num; k++) {
		int iv;
		char item[128];
		int il = (int)sizeof item;
		if (MPI_T_enum_get_item(et, k, &iv, item, &il) == MPI_SUCCESS && iv == v) {
			snprintf(out, (size_t)len, "%s", item);
			return;
		}
	}
}

/* sk_mpit_cvar_read: variable i's value as text into out (the library's own words: an
 * enumeration's item name, a string as it is). SK_ERR_ARGS for a variable bound to an
 * object (a communicator's, a window's: no single value) or of a type not read here. */
int sk_mpit_cvar_read(int i, char *out, int len) {
	char name[256];
	int nl = (int)sizeof name, dl = 0, verb, bind, scope, count;
	MPI_Datatype dt;
	MPI_T_enum et;
	out[0] = 0;
	int rc = MPI_T_cvar_get_info(i, name, &nl, &verb, &dt, &et, NULL, &dl, &bind, &scope);
	if (rc != MPI_SUCCESS) return rc;
	if (bind != MPI_T_BIND_NO_OBJECT) return SK_ERR_ARGS;
	MPI_T_cvar_handle h;
	if ((rc = MPI_T_cvar_handle_alloc(i, NULL, &h, &count)) != MPI_SUCCESS) return rc;
	rc = SK_ERR_ARGS;
	if (dt == MPI_CHAR && count > 0 && count < (1 << 20)) {
		char *buf = calloc((size_t)count + 1, 1);
		if (buf && (rc = MPI_T_cvar_read(h, buf)) == MPI_SUCCESS) snprintf(out, (size_t)len, "%s", buf);
		free(buf);
	} else if (count == 1 && (dt == MPI_INT || dt == MPI_UNSIGNED)) {
		int v = 0;
		if ((rc = MPI_T_cvar_read(h, &v)) == MPI_SUCCESS) {
			snprintf(out, (size_t)len, dt == MPI_INT ? "%d" : "%u", v);
			if (et != MPI_T_ENUM_NULL) enum_name(et, v, out, len);
		}
	} else if (count == 1 && (dt == MPI_UNSIGNED_LONG || dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_COUNT)) {
		unsigned long long v = 0;
		if ((rc = MPI_T_cvar_read(h, &v)) == MPI_SUCCESS) snprintf(out, (size_t)len, "%llu", v);
	} else if (count == 1 && dt == MPI_C_BOOL) { /* Open MPI's MCA booleans */
		unsigned char v[16] = {0}; /* a C bool, whatever its size here */
		if ((rc = MPI_T_cvar_read(h, v)) == MPI_SUCCESS) {
			int set = 0;
			for (size_t k = 0; k < sizeof v; k++) set |= v[k];
			snprintf(out, (size_t)len, "%s", set ? "true" : "false");
		}
	} else if (count == 1 && dt == MPI_DOUBLE) {
		double v = 0;
		if ((rc = MPI_T_cvar_read(h, &v)) == MPI_SUCCESS) snprintf(out, (size_t)len, "%g", v);
	}
	MPI_T_cvar_handle_free(&h);
	return rc;
}
