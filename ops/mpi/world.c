//go:build mpi

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "skampi.h"
#include "runtime.h"

/* The watchdog's step counter (SK_STEP_DONE, skampi.h): moved by the timed loops of
 * kernels.c and nonblocking.c, read by world.go's Progress. */
unsigned long long sk_steps = 0;
unsigned long long sk_progress(void) { return __atomic_load_n(&sk_steps, __ATOMIC_RELAXED); }

double sk_now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double sk_tick(void) {
	struct timespec ts;
	clock_getres(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* sk_init initialises MPI: with MPI_Init when required < 0, as OSU, IMB and SKaMPI do
 * (in Open MPI 4.1 a thread level above SINGLE requested through MPI_Init_thread slows
 * shared-memory messages), otherwise with MPI_Init_thread. *provided is the level the
 * library reports either way. */
int sk_init(int required, int *provided) {
	int rc = required < 0 ? MPI_Init(NULL, NULL) : MPI_Init_thread(NULL, NULL, required, provided);
	if (rc != MPI_SUCCESS) return rc;
	rc = MPI_Query_thread(provided);
	if (rc != MPI_SUCCESS) return rc;
	/* Errors come back as codes and become Go errors with MPI's own message. */
	return MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

int sk_finalize(void) {
	int done = 0;
	MPI_Finalized(&done);
	if (done) return MPI_SUCCESS;
	return MPI_Finalize();
}

void sk_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

int sk_finalized(void) {
	int done = 0;
	MPI_Finalized(&done);
	return done;
}

int sk_comm_dup_world(MPI_Fint *out) {
	MPI_Comm c;
	int rc = MPI_Comm_dup(MPI_COMM_WORLD, &c);
	if (rc != MPI_SUCCESS) return rc;
	rc = MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
	*out = MPI_Comm_c2f(c);
	return rc;
}

int sk_comm_split(MPI_Fint parent, int member, int key, MPI_Fint *out) {
	MPI_Comm c;
	int rc = MPI_Comm_split(MPI_Comm_f2c(parent), member ? 0 : MPI_UNDEFINED, key, &c);
	if (rc != MPI_SUCCESS) return rc;
	if (c != MPI_COMM_NULL) rc = MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
	*out = MPI_Comm_c2f(c);
	return rc;
}

/* sk_comm_free frees a communicator we made (a member's sub-communicator or our
 * duplicate of the world); MPI_COMM_NULL, a non-member's, is left alone. Freeing is
 * collective over comm: every member frees its communicators in the same order. */
int sk_comm_free(MPI_Fint *comm) {
	int done = 0;
	MPI_Finalized(&done); /* no handle conversion after MPI_Finalize */
	if (done) return MPI_SUCCESS;
	MPI_Comm c = MPI_Comm_f2c(*comm);
	if (c == MPI_COMM_NULL) return MPI_SUCCESS;
	int rc = MPI_Comm_free(&c);
	*comm = MPI_Comm_c2f(c); /* MPI_COMM_NULL once freed */
	return rc;
}

int sk_rank(MPI_Fint comm, int *rank) { return MPI_Comm_rank(MPI_Comm_f2c(comm), rank); }
int sk_size(MPI_Fint comm, int *size) { return MPI_Comm_size(MPI_Comm_f2c(comm), size); }

int sk_gather_double(MPI_Fint comm, double v, double *out) {
	return MPI_Gather(&v, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, MPI_Comm_f2c(comm));
}

int sk_bcast_ll(MPI_Fint comm, long long *v) {
	return MPI_Bcast(v, 1, MPI_LONG_LONG, 0, MPI_Comm_f2c(comm));
}

int sk_allgather_names(MPI_Fint comm, char *out, int stride) {
	char name[MPI_MAX_PROCESSOR_NAME + 1];
	int len = 0;
	memset(name, 0, sizeof name);
	int rc = MPI_Get_processor_name(name, &len);
	if (rc != MPI_SUCCESS) return rc;
	char mine[stride];
	memset(mine, 0, stride);
	strncpy(mine, name, stride - 1);
	return MPI_Allgather(mine, stride, MPI_CHAR, out, stride, MPI_CHAR, MPI_Comm_f2c(comm));
}

/* sk_gather_strv gathers every rank's string, of any length, to rank 0 by rank: the
 * lengths first, then the bytes with MPI_Gatherv, so that nothing is cut. On rank 0
 * lens gets each rank's length and *out a malloc'ed buffer of the strings back to back
 * (the caller frees it); on the others both are untouched. */
int sk_gather_strv(MPI_Fint comm, const char *mine, int len, int *lens, char **out) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	int rank, size;
	int rc = MPI_Comm_rank(c, &rank);
	if (rc == MPI_SUCCESS) rc = MPI_Comm_size(c, &size);
	if (rc == MPI_SUCCESS) rc = MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, c);
	if (rc != MPI_SUCCESS) return rc;
	int *displs = NULL;
	char *buf = NULL;
	if (rank == 0) {
		displs = malloc((size_t)size * sizeof *displs);
		long long total = 0;
		for (int i = 0; i < size; i++) {
			displs[i] = (int)total;
			total += lens[i];
		}
		buf = malloc((size_t)total + 1);
	}
	rc = MPI_Gatherv((void *)mine, len, MPI_CHAR, buf, lens, displs, MPI_CHAR, 0, c);
	free(displs);
	if (rank == 0 && rc == MPI_SUCCESS) {
		*out = buf;
	} else {
		free(buf);
	}
	return rc;
}

/* sk_error_info describes an MPI error code in the library's own terms: its class
 * (portable: the same failure has the same class in every library) and its text. */
void sk_error_info(int code, int *class, char *out, int len) {
	char msg[MPI_MAX_ERROR_STRING];
	int n = 0;
	if (MPI_Error_class(code, class) != MPI_SUCCESS) *class = MPI_ERR_UNKNOWN;
	if (MPI_Error_string(code, msg, &n) != MPI_SUCCESS) {
		snprintf(out, (size_t)len, "unknown MPI error code %d", code);
		return;
	}
	strncpy(out, msg, len - 1);
	out[len - 1] = 0;
}

void sk_library_version(char *out, int len, int *version, int *subversion) {
	char lib[MPI_MAX_LIBRARY_VERSION_STRING];
	int n = 0;
	MPI_Get_library_version(lib, &n);
	strncpy(out, lib, len - 1);
	out[len - 1] = 0;
	MPI_Get_version(version, subversion);
}

int sk_alloc(long long bytes, char **out) {
	if (bytes < 1) bytes = 1;
	int rc = MPI_Alloc_mem((MPI_Aint)bytes, MPI_INFO_NULL, out);
	if (rc == MPI_SUCCESS) memset(*out, 1, (size_t)bytes); /* touch every page before timing */
	return rc;
}

int sk_free(char *p) { return MPI_Free_mem(p); }

/* The job's start: ranks still leaving MPI_Init, a launcher's daemons, page faults in
 * fresh buffers make the first collectives slow by milliseconds (the first point of a
 * job at np 16 once read 8 ms for a 4 us barrier). sk_settle runs rounds of
 * SETTLE_BARRIERS barriers, each timed alone, until the slowest rank's median barrier of
 * a round is within a quarter of the round before and not above twice the fastest
 * round's, or max_s has passed on some rank; every rank decides alike (Allreduce).
 * *rounds: the rounds run; *median: the last round's slowest median (s). */
#define SETTLE_BARRIERS 32
static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int sk_settle(MPI_Fint f, double max_s, int *rounds, double *median) {
	MPI_Comm comm = MPI_Comm_f2c(f);
	double t[SETTLE_BARRIERS], prev = -1, best = -1, start = sk_now();
	*rounds = 0;
	*median = 0;
	for (;;) {
		for (int i = 0; i < SETTLE_BARRIERS; i++) {
			double t0 = sk_now();
			int rc = MPI_Barrier(comm);
			if (rc != MPI_SUCCESS) return rc;
			t[i] = sk_now() - t0;
			SK_STEP_DONE();
		}
		qsort(t, SETTLE_BARRIERS, sizeof t[0], cmp_double);
		double mine[2] = {t[SETTLE_BARRIERS / 2], sk_now() - start >= max_s ? 1 : 0}, all[2];
		int rc = MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, comm);
		if (rc != MPI_SUCCESS) return rc;
		double m = all[0];
		(*rounds)++;
		*median = m;
		if (best < 0 || m < best) best = m;
		if (prev >= 0 && m <= 1.25 * prev && m >= 0.75 * prev && m <= 2 * best) return MPI_SUCCESS;
		if (all[1] > 0) return MPI_SUCCESS; /* out of time: the points' own checks go on */
		prev = m;
	}
}
