//go:build mpi && shmem

/* OpenSHMEM locks (named in shmem.c's table): a lock is a symmetric long in the point's
 * symmetric buffer (zero on every PE when the point starts). The members of the
 * communicator take part; the others only allocate the buffer (and may serve the lock).
 *
 * Where the lock sits decides who serves it: Open MPI's OSHMEM keeps a lock's queue on
 * the PE (heap offset of the lock / 8) % npes (oshmem/shmem/c/shmem_lock.c,
 * shmem_lock_get_server), so a lock at an arbitrary place may be served by any PE, and
 * "uncontended" by one PE may be a remote lock. Each point places its lock so that a
 * chosen PE serves it (lock_place.c): the communicator's first PE (`local`, the
 * default), or the PE after it (`remote`), and checks where OSHMEM really serves it
 * before any step (sk_shmem_prepare_lock). */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "skampi.h"
#include "shmem_kernels.h"
#include "sk_common.h"

#define GO_TAG 6

/* The buffer: the holder's marker (a cache line), the lock's offset and the probe's
 * verdict (a cache line), then SK_SHMEM_LOCK_SLOTS longs, one of which is the lock:
 * consecutive longs have consecutive servers, so npes of them reach every PE. */
#define LOCK_AREA 128
static long *marker_of(sk_ctx *c) { return (long *)c->sym; }
static long *lock_offset(sk_ctx *c) { return (long *)(c->sym + 64); }
static long *verdict_of(sk_ctx *c) { return (long *)(c->sym + 72); }
static long *lock_of(sk_ctx *c) { return (long *)(c->sym + *lock_offset(c)); }

/* heap_base finds the start of the mapping that holds p (/proc/self/maps): OSHMEM's
 * symmetric heap is one mapping of its own (sshmem_base_start_address, 0xFF000000 by
 * default), and a lock's heap offset is counted from its start. 0: not found. */
static uintptr_t heap_base(const void *p) {
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f) return 0;
	char line[512];
	uintptr_t base = 0, a = (uintptr_t)p;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi) {
			base = lo;
			break;
		}
		/* a line longer than the buffer: skip its rest */
		while (!strchr(line, '\n') && fgets(line, sizeof line, f))
			;
	}
	fclose(f);
	return base;
}

/* probe: the communicator's first PE takes the lock with shmem_test_lock (nobody else
 * touches it) and reads every other PE's copy of the lock word: OSHMEM's server keeps
 * the queue's tail in its copy (shmem_test_lock's compare-and-swap goes there), so the
 * one other PE whose copy changed serves it; none: the prober itself. Then it clears
 * the lock (every copy back to 0). Returns the server, or -1 if the lock was not free,
 * -2 if more than one copy changed. */
static long probe(sk_ctx *c) {
	int me = shmem_my_pe(), n = shmem_n_pes();
	if (shmem_test_lock(lock_of(c)) != 0) return -1;
	long server = me;
	int changed = 0;
	for (int pe = 0; pe < n; pe++)
		if (pe != me && shmem_long_g(lock_of(c), pe) != 0) {
			server = pe;
			changed++;
		}
	shmem_clear_lock(lock_of(c));
	return changed > 1 ? -2 : server;
}

/* sk_shmem_prepare_lock allocates the point's buffer on every PE and places the lock so
 * that PE `want` serves it, then has the communicator's first PE check where OSHMEM
 * serves it and tell every PE (a put each): all of them fail the point together when
 * the lock is not where it was placed (SK_ERR_LOCK_SERVER; the first PE says why on
 * stderr), so the records of a point measured say truly which PE served its lock. */
static int prepare_lock(sk_ctx *c, int want) {
	int n = shmem_n_pes(), first = TARGET_PE(c);
	CK(sk_shmem_alloc(c, LOCK_AREA + 8LL * SK_SHMEM_LOCK_SLOTS));
	uintptr_t base = heap_base(c->sym);
	/* the slot whose heap offset / 8 is want modulo n: the same on every PE, since
	 * symmetric objects have the same heap offset everywhere */
	long long k = -1;
	if (base) {
		long long first_slot = (long long)(((uintptr_t)c->sym + LOCK_AREA - base) / 8);
		k = (((long long)want - first_slot) % n + n) % n;
		if (k >= SK_SHMEM_LOCK_SLOTS) k = -1;
	}
	*lock_offset(c) = LOCK_AREA + 8 * (k < 0 ? 0 : k);
	shmem_barrier_all(); /* every copy zero and placed before the probe */
	if (shmem_my_pe() == first) {
		long verdict = k < 0 ? -3 : probe(c);
		if (verdict != want) {
			if (verdict == -3)
				fprintf(stderr, "skampi: PE %d: the lock cannot be placed to be served by PE %d (heap base %s, %d PEs)\n",
				        first, want, base ? "found" : "not found in /proc/self/maps", n);
			else
				fprintf(stderr, "skampi: PE %d: a lock placed to be served by PE %d is served by %s%ld\n", first, want,
				        verdict < 0 ? "no single PE: " : "PE ", verdict);
		}
		for (int pe = 0; pe < n; pe++) shmem_long_p(verdict_of(c), verdict == want ? 1 : -1, pe);
		shmem_quiet();
	}
	shmem_barrier_all();
	if (*(volatile long *)verdict_of(c) != 1) {
		shmem_free(c->sym); /* collective: every PE fails here */
		c->sym = NULL;
		return SK_ERR_LOCK_SERVER;
	}
	return MPI_SUCCESS;
}

/* The communicator's first PE serves the lock (procs = 1: the PE's own lock). */
int sk_shmem_prepare_lock(sk_ctx *c) { return prepare_lock(c, TARGET_PE(c)); }
/* The PE after it serves the lock (procs = 1: an idle PE, a remote lock). */
int sk_shmem_prepare_lock_remote(sk_ctx *c) { return prepare_lock(c, (TARGET_PE(c) + 1) % shmem_n_pes()); }

/* Every member sets and clears the one lock at once: acquisition + release per PE,
 * contended by all the others (one member: uncontended). */
int sk_shmem_lock_contention(sk_ctx *c) {
	shmem_set_lock(lock_of(c));
	shmem_clear_lock(lock_of(c));
	return MPI_SUCCESS;
}

/* shmem_set_lock alone (SK_K_OWN_RESULT), the clear after it untimed: with several
 * members, the wait for the others' holds is part of it. */
int sk_shmem_set_lock(sk_ctx *c) {
	double t0 = sk_now();
	shmem_set_lock(lock_of(c));
	c->result += sk_now() - t0;
	shmem_clear_lock(lock_of(c));
	return MPI_SUCCESS;
}

/* shmem_clear_lock alone (SK_K_OWN_RESULT), after an untimed set: with several members
 * the release hands the lock to a waiting one. */
int sk_shmem_clear_lock(sk_ctx *c) {
	shmem_set_lock(lock_of(c));
	double t0 = sk_now();
	shmem_clear_lock(lock_of(c));
	c->result += sk_now() - t0;
	return MPI_SUCCESS;
}

/* shmem_test_lock spun until it succeeds, then shmem_clear_lock, by every member at
 * once: acquisition by polling, not one test. */
int sk_shmem_test_lock_spin(sk_ctx *c) {
	while (shmem_test_lock(lock_of(c)) != 0)
		;
	shmem_clear_lock(lock_of(c));
	return MPI_SUCCESS;
}

/* One shmem_test_lock on a lock another PE holds (the method paper's Fig. 9b): the
 * communicator's first PE, which also serves the lock, sets it and tells every other
 * member (an MPI message); each of them times exactly one shmem_test_lock, which must
 * return 1 (held): a 0 got the lock while the holder had it, a violation (cleared
 * again, counted, and the point fails after the run: sk_shmem_after_locks). Each tells the
 * holder it is done; the holder then clears the lock. A tester's time is its mean
 * (SK_K_OWN_RESULT); the point's the slowest tester's. */
int sk_shmem_test_lock_held(sk_ctx *c) {
	char go = 0;
	if (c->rank == 0) {
		shmem_set_lock(lock_of(c));
		for (int r = 1; r < c->nprocs; r++) {
			int rc = MPI_Send(&go, 0, MPI_BYTE, r, GO_TAG, c->comm);
			if (rc != MPI_SUCCESS) return rc;
		}
		for (int r = 1; r < c->nprocs; r++) {
			int rc = MPI_Recv(&go, 0, MPI_BYTE, r, GO_TAG, c->comm, MPI_STATUS_IGNORE);
			if (rc != MPI_SUCCESS) return rc;
		}
		shmem_clear_lock(lock_of(c));
		return MPI_SUCCESS;
	}
	int rc = MPI_Recv(&go, 0, MPI_BYTE, 0, GO_TAG, c->comm, MPI_STATUS_IGNORE);
	if (rc != MPI_SUCCESS) return rc;
	double t0 = sk_now();
	int held = shmem_test_lock(lock_of(c));
	c->result += sk_now() - t0;
	if (held == 0) {
		c->lock_violations++;
		shmem_clear_lock(lock_of(c));
	}
	return MPI_Send(&go, 0, MPI_BYTE, 0, GO_TAG, c->comm);
}

/* The holder's side of a test in turns: tell tester r to test, wait until it has. */
static int let_test(sk_ctx *c, int r) {
	char go = 0;
	int rc = MPI_Send(&go, 0, MPI_BYTE, r, GO_TAG, c->comm);
	return rc != MPI_SUCCESS ? rc : MPI_Recv(&go, 0, MPI_BYTE, r, GO_TAG, c->comm, MPI_STATUS_IGNORE);
}

/* A tester's side: once told by holder h, one shmem_test_lock timed alone, which must
 * return 1 (held; a 0 is a violation, cleared again), weighted by share (each step's
 * tests of one PE add up to its mean), then tell the holder. */
static int test_once(sk_ctx *c, int h, double share) {
	char go = 0;
	int rc = MPI_Recv(&go, 0, MPI_BYTE, h, GO_TAG, c->comm, MPI_STATUS_IGNORE);
	if (rc != MPI_SUCCESS) return rc;
	double t0 = sk_now();
	int held = shmem_test_lock(lock_of(c));
	c->result += (sk_now() - t0) * share;
	if (held == 0) {
		c->lock_violations++;
		shmem_clear_lock(lock_of(c));
	}
	return MPI_Send(&go, 0, MPI_BYTE, h, GO_TAG, c->comm);
}

/* SKaMPI's Shmem_Lock_Test_Busy_Turns: the first PE holds the lock (and serves it),
 * the others test it one after the other, never two at once (each told by the holder
 * when the one before is done): a test without contention from other testers, beside
 * Shmem_Test_Lock where they test together. */
int sk_shmem_test_lock_turns(sk_ctx *c) {
	if (c->rank != 0) return test_once(c, 0, 1);
	shmem_set_lock(lock_of(c));
	for (int r = 1; r < c->nprocs; r++) CK(let_test(c, r));
	shmem_clear_lock(lock_of(c));
	return MPI_SUCCESS;
}

/* SKaMPI's Shmem_Lock_Test_Busy_Round: every member holds the lock in turn and the
 * others test it one after the other, so each tests a lock held by every other PE
 * once per step (the lock is still served by the first PE). A PE's time is the mean of
 * its nprocs-1 tests. A holder clears before the next one sets: the next waits in
 * shmem_set_lock if it has to, after its own test of this round. */
int sk_shmem_test_lock_round(sk_ctx *c) {
	double share = 1.0 / (c->nprocs - 1);
	for (int h = 0; h < c->nprocs; h++) {
		if (c->rank != h) {
			CK(test_once(c, h, share));
			continue;
		}
		shmem_set_lock(lock_of(c));
		for (int r = 0; r < c->nprocs; r++)
			if (r != h) CK(let_test(c, r));
		shmem_clear_lock(lock_of(c));
	}
	return MPI_SUCCESS;
}

/* A held lock: the communicator's first PE sets the lock, marks its marker, tells
 * every other member (an MPI message), keeps the lock for c->hold_spin spins, clears the
 * marker and the lock. A waiter, told, times until shmem_set_lock returns, then reads
 * the holder's marker with shmem_long_g: set means the lock was not exclusive. The
 * holder waits for every waiter before the next step. A waiter's time is its mean
 * wait (SK_K_OWN_RESULT); the point's the slowest waiter's. */
int sk_shmem_lock_held(sk_ctx *c) {
	char go = 0;
	int holder = TARGET_PE(c);
	if (c->rank == 0) {
		shmem_set_lock(lock_of(c));
		*(volatile long *)marker_of(c) = 1;
		for (int r = 1; r < c->nprocs; r++) {
			int rc = MPI_Send(&go, 0, MPI_BYTE, r, GO_TAG, c->comm);
			if (rc != MPI_SUCCESS) return rc;
		}
		sk_spin(c->hold_spin);
		*(volatile long *)marker_of(c) = 0;
		shmem_quiet();
		shmem_clear_lock(lock_of(c));
		for (int r = 1; r < c->nprocs; r++) {
			int rc = MPI_Recv(&go, 0, MPI_BYTE, r, GO_TAG, c->comm, MPI_STATUS_IGNORE);
			if (rc != MPI_SUCCESS) return rc;
		}
		return MPI_SUCCESS;
	}
	int rc = MPI_Recv(&go, 0, MPI_BYTE, 0, GO_TAG, c->comm, MPI_STATUS_IGNORE);
	if (rc != MPI_SUCCESS) return rc;
	double t0 = sk_now();
	shmem_set_lock(lock_of(c));
	c->result += sk_now() - t0;
	if (shmem_long_g(marker_of(c), holder) != 0) c->lock_violations++;
	shmem_clear_lock(lock_of(c));
	return MPI_Send(&go, 0, MPI_BYTE, 0, GO_TAG, c->comm);
}

/* sk_shmem_after_locks: after a run, every member learns whether any waiter held the
 * lock while its holder still had it, so all fail the point together. */
int sk_shmem_after_locks(sk_ctx *c, long long iters) {
	(void)iters;
	long long all = c->lock_violations;
	CK(sk_agree_sum(c, &all));
	if (!all) return MPI_SUCCESS;
	snprintf(sk_failure, SK_FAILURE_LEN, "%lld time(s) a waiter held the exclusive lock while its holder still had it", all);
	return SK_ERR_FAILED;
}

/* The kernels of this file (shmem.c joins the tables). */
static const sk_kernel kernels[] = {
	LOCK("shmem_lock_contention", sk_shmem_lock_contention, sk_shmem_prepare_lock, 0),
	LOCK("shmem_lock_contention_remote", sk_shmem_lock_contention, sk_shmem_prepare_lock_remote, 0),
	LOCK("shmem_set_lock", sk_shmem_set_lock, sk_shmem_prepare_lock, SK_K_OWN_RESULT),
	LOCK("shmem_set_lock_remote", sk_shmem_set_lock, sk_shmem_prepare_lock_remote, SK_K_OWN_RESULT),
	LOCK("shmem_clear_lock", sk_shmem_clear_lock, sk_shmem_prepare_lock, SK_K_OWN_RESULT),
	LOCK("shmem_clear_lock_remote", sk_shmem_clear_lock, sk_shmem_prepare_lock_remote, SK_K_OWN_RESULT),
	LOCK("shmem_test_lock_spin", sk_shmem_test_lock_spin, sk_shmem_prepare_lock, 0),
	LOCK("shmem_test_lock_spin_remote", sk_shmem_test_lock_spin, sk_shmem_prepare_lock_remote, 0),
	SHMEM_CHECKED("shmem_test_lock", sk_shmem_test_lock_held, sk_shmem_prepare_lock, SK_K_COLLECTIVE | SK_K_OWN_RESULT, sk_shmem_after_locks),
	SHMEM_CHECKED("shmem_test_lock_turns", sk_shmem_test_lock_turns, sk_shmem_prepare_lock, SK_K_COLLECTIVE | SK_K_OWN_RESULT, sk_shmem_after_locks),
	SHMEM_CHECKED("shmem_test_lock_round", sk_shmem_test_lock_round, sk_shmem_prepare_lock, SK_K_COLLECTIVE | SK_K_OWN_RESULT, sk_shmem_after_locks),
	SHMEM_CHECKED("shmem_lock_held", sk_shmem_lock_held, sk_shmem_prepare_lock, SK_K_COLLECTIVE | SK_K_OWN_RESULT, sk_shmem_after_locks),
};
const sk_table sk_shmem_locks_table = SK_TABLE(kernels);
