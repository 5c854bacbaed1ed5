/* Timed loops and thin helpers for ops/mpi. Every timed loop runs entirely in C:
 * Go prepares an operation once per point (sk_prepare), calls sk_run once per
 * repetition, outside the timed interval, and releases it (sk_release). */
#ifndef SKAMPI_MPI_H
#define SKAMPI_MPI_H

#include <mpi.h>
#include <signal.h>

enum { SK_TIMER_GLOBAL_LOOP = 0, SK_TIMER_ITERATION = 1 };
/* The measurements of a non-blocking operation (nonblocking.c); the values are
 * ops.Phase's. */
enum { SK_NB_FULL = 0, SK_NB_POST = 1, SK_NB_WAIT = 2, SK_NB_OVERLAP = 3, SK_NB_COMPUTE = 4 };
enum { SK_ROLE_IDLE = -1, SK_ROLE_INITIATOR = 0, SK_ROLE_RESPONDER = 1 };

/* Errors of our own, refused before any MPI call. Negative, so they never collide with
 * an MPI error code (MPI_SUCCESS is 0, the library's codes are positive). */
enum {
	SK_ERR_ARGS = -1,     /* a count, size, root or iteration count out of range */
	SK_ERR_KERNEL = -2,   /* no kernel of that name */
	SK_ERR_DATATYPE = -3, /* no datatype of that name */
	SK_ERR_REDUCE_OP = -4, /* no reduction operator of that name */
	SK_ERR_NODES = -5,    /* a node-aware kernel without the node of every rank */
	SK_ERR_NOMEM = -6,
	SK_ERR_COMM = -7,     /* the communicator's size is not the one asked for */
	SK_ERR_MODEL = -10,   /* the kernel needs the unified memory model of RMA windows */
	SK_ERR_LOCK_SERVER = -11, /* an OpenSHMEM lock is not served by the PE it was placed for */
	SK_ERR_MODE = -14,        /* no synchronisation mode of that name, or none the kernel has */
	SK_ERR_WINDOW = -15,      /* no kind of window of that name */
	SK_ERR_PHASE = -16,       /* no non-blocking measurement of that name */
	SK_ERR_LAYOUT = -17,      /* no data layout of that name, or one the kernel does not take */
	SK_ERR_POLL = -18,        /* no busy target's poll of that name, or one its mode cannot make */
	SK_ERR_BUSY = -19,        /* a busy target (busy_spin) asked of a kernel that cannot keep one */
	SK_ERR_UNSUPPORTED = -21, /* the MPI library lacks a routine the kernel calls (sk_kernel_missing says which) */
	SK_ERR_FAILED = -22,      /* a family's kernel failed on some rank: sk_failure says which call and why, on every rank */
	SK_ERR_THREADS = -23,     /* a multi-threaded kernel's threads could not start (or MPI is not MULTIPLE) */
	SK_ERR_PARAM = -24,       /* a parameter by name no kernel reads, given twice, or out of its range */
};

/* One-sided synchronisation modes (rma.c), resolved from the names the catalogue's
 * methods give them (Method.Mode) by sk_prepare; C's own numbering, never Go's.
 * _EPOCH: one epoch per step; _FLUSH(_LOCAL): an epoch held through the point, a flush
 * per step; _PINGPONG: both sides in turn, two per step. */
enum { SK_SYNC_NONE = 0, SK_SYNC_FENCE_EPOCH, SK_SYNC_PSCW_EPOCH, SK_SYNC_LOCK_EXCLUSIVE, SK_SYNC_LOCK_SHARED,
       SK_SYNC_LOCK_ALL_FLUSH, SK_SYNC_LOCK_ALL_FLUSH_LOCAL, SK_SYNC_SHARED_FLUSH, SK_SYNC_SHARED_FLUSH_LOCAL,
       SK_SYNC_LOCK_ALL_EPOCH, SK_SYNC_FENCE_PINGPONG, SK_SYNC_PSCW_PINGPONG, SK_SYNC_COUNT };
/* A busy passive target's poll call (sk_args.poll): DEFAULT, the transport's own
 * (iprobe for MPI, quiet for OpenSHMEM). */
enum { SK_POLL_DEFAULT = 0, SK_POLL_IPROBE, SK_POLL_FLUSH, SK_POLL_QUIET };
/* Kinds of window, resolved from sk_args.rma_window's name (ops.RMAWindows). */
enum { SK_WIN_ALLOCATE = 0, SK_WIN_CREATE = 1, SK_WIN_DYNAMIC = 2 };
/* Window bytes past the data: a flag, a counter, a marker. */
enum { SK_RMA_SPARE = 64 };

/* What Go asks for (ops.Request): one operation at one point on this rank. The names
 * are the catalogue's (ops.Info.Kernel, ops.Method.Mode, ops.Datatypes, ops.ReduceOps,
 * ops.RMAWindows, ops.Phase); sk_prepare resolves them in its own tables and keeps
 * nothing the caller owns. */
typedef struct {
	const char *kernel;
	const char *mode;       /* a synchronisation mode ("": the kernel's own) */
	const char *datatype;   /* collectives and typed one-sided operations */
	const char *reduce_op;  /* the same */
	const char *rma_window; /* one-sided kernels: the kind of window ("": allocate) */
	const char *phase;      /* non-blocking kernels: the measurement ("": full) */
	int role;
	int peer;
	int bytes;
	int window;
	long long slot_stride; /* windowed receives: bytes between slots; 0 = one slot shared by the window */
	int check;             /* check_data: fill sends with a pattern, check receives after each run */
	/* cache = "cold": every step uses the next of cold_regions regions, cold_stride
	 * bytes apart, of sbuf and rbuf (an area larger than the last-level cache); 0 warm */
	long long cold_stride;
	int cold_regions;
	int timer;
	int nprocs; /* processes of comm, known to idle ranks too: bounds the root */
	char *sbuf;
	char *rbuf;
	MPI_Fint comm;
	MPI_Fint world; /* the job's communicator: the barrier before a repetition spans it */
	int root;
	int task; /* per-task kernels (bcast_ack): the rank of comm measured; others ignore it */
	long long barrier_above; /* ordered all-to-all: barrier between phases above this size; < 0 never */
	const int *node_of;      /* node index of every rank of comm (node-aware kernels) */
	int nnodes;
	/* A family's numbers by name (ops.Request.Params), nparams of them: each name one
	 * meaning, resolved by sk_prepare into the context (sk_ctx's "by name" block). */
	int nparams;
	const char *const *param_names;
	const double *param_values;
	/* Non-blocking kernels and a busy target: MPI_Testall (the poll call) every
	 * progress_every spin iterations of the computation (0: never). */
	long long progress_every;
	/* The cost of one timer interval (sk_timer_overhead), taken off every interval the
	 * non-blocking measurements time per call; 0 leaves them raw. */
	double timer_overhead;
	/* data_layout (datatypes.c): how a message's payload lies in memory ("": contiguous),
	 * its elements stride elements apart */
	const char *data_layout;
	int stride;
	int every_call; /* type_commit = "every_call": the type built and freed in every step */
	/* A busy passive target (rma_busy.c, families/shmem/kernels/busy.c; sk_ctx.busy_spin): the
	 * call it makes every progress_every spin iterations ("iprobe", "flush", "quiet";
	 * "" the transport's own). */
	const char *poll;
	/* OSU's collective loop (method osu, run.c): every step timed alone, an MPI_Barrier
	 * on the point's communicator after it, outside its timer pair. */
	int barrier_each;
	/* A family's words by name (ops.Request.Strings: a file's path), nstrings of them,
	 * resolved by sk_prepare into c->kstring as the numbers are into c->kparam. */
	int nstrings;
	const char *const *string_names;
	const char *const *string_values;
	/* And its lists of integers by name (ops.Request.Ints: a topology's edges), each
	 * array_lens[i] long, into c->karray (our copies). */
	int narrays;
	const char *const *array_names;
	const long long *const *array_values;
	const int *array_lens;
} sk_args;

typedef struct sk_ctx sk_ctx;
typedef int (*sk_step)(sk_ctx *c);

#include "sk_kernel.h"


/* An operation prepared for one point: everything the timed loop touches. */
struct sk_ctx {
	const sk_kernel *k;
	sk_args a; /* a copy; its names point into our own tables */
	/* By name (sk_args.param_names, sk_params in run.c): each field one meaning.
	 * overlap_spin: a non-blocking operation's busy computation, in spin iterations
	 * ("overlap_spin"); hold_spin: how long a lock holder keeps the lock
	 * ("hold_spin"); late_spin: how late a late partner enters ("late_spin"); delay: how late (s)
	 * the last rank enters a delayed collective ("delay_s"); partitions: a partitioned message's
	 * parts ("partitions"); a busy passive target's computation in every step
	 * ("busy_spin"; 0: it idles in the library: rma_busy.c, families/shmem/kernels/busy.c). */
	long long overlap_spin, hold_spin, late_spin, busy_spin;
	double delay;
	int partitions;
	/* the request's names, resolved: SK_SYNC_*, SK_WIN_*, SK_NB_* */
	int mode, win_kind, phase;
	MPI_Comm comm;
	MPI_Request *req; /* 2*max(window, nprocs) requests */
	char ack;
	/* collectives */
	MPI_Datatype dt;
	MPI_Op op;
	int count; /* elements per process block */
	int rank, nprocs;
	int *counts, *displs; /* nprocs each, for the v-variants: equal counts */
	MPI_Aint extent;      /* of one element of dt, for kernels that place blocks by displs */
	int *node_of;         /* our copy of a.node_of */
	double result;        /* SK_K_OWN_RESULT: the time the steps computed, per run */
	double *ack_s;        /* one-way acknowledgement time to each rank (s), measured in prepare */
	/* check_data: repetitions run so far, and the first received byte that differed */
	long long rep;
	int bad, bad_from, bad_slot, bad_expected, bad_actual;
	long long bad_offset, bad_rep;
	/* cache = "cold": the buffers' first regions, and the region the next step uses */
	char *sbase, *rbase;
	int region;
	int nreq; /* non-blocking: requests the post started */
	int calls_per_step; /* set by a prepare hook when a step is that many operations (0: one) */
	sk_step step; /* the timed step: the kernel's, or one its prepare hook specialised */
	/* one-sided */
	MPI_Win win;
	int have_win, have_group, locked_all, locked_peer;
	char *wbase;          /* this rank's window memory */
	MPI_Aint rma_base;    /* the peer's window base for displacements (dynamic windows) */
	MPI_Aint *rma_bases;  /* every rank's (dynamic windows; NULL otherwise) */
	MPI_Group peer_group; /* the peer alone, for post-start-complete-wait */
	int rma_peer;
	long long win_bytes, flag_off;
	char *result_buf, *compare_buf;
	char flag_value, flag_seen;
	/* OpenSHMEM's kernels (families/shmem/kernels): lock_violations, times a waiter
	 * held a lock its holder still had; protocol_errors, times a send-receive read a
	 * size or offset its partner had not sent; order_violations, times a broadcast
	 * started before the previous one had ended where it must have; order_clock is set
	 * when the ranks compared share a clock (one host), order_t the step's timestamps */
	long long lock_violations, protocol_errors;
	long long order_violations;
	int order_clock;
	double order_t[32];
	/* OpenSHMEM: this point's symmetric buffer (shmem_malloc'd on every PE), its size,
	 * and a step counter for flags */
	char *sym;
	long long sym_bytes, seq;
	void *shmem_ctx; /* a private OpenSHMEM context (shmem_ctx_t), or NULL */
	/* IMB-P2P's random traffic (pt2pt.c): the pseudo-random state every rank advances
	 * alike, and Corandom's ring of all ranks in its current order */
	unsigned long long rng;
	int *ring;
	/* Pingpong_Bsend_Recv: the buffer attached for MPI_Bsend, detached at close */
	char *bsend_buf;
	/* data_layout (datatypes.c, layout.h): the committed type and packing buffers of a
	 * layout other than contiguous (NULL: contiguous), and the bytes of memory one
	 * message spans (msg_bytes when contiguous, msg_bytes * stride when strided) */
	struct sk_layout *lay;
	long long span;
	/* A busy passive target (rma_busy.c): the step it wraps, the call it polls with
	 * (SK_POLL_*), whether it holds a lock on its own window for that call; with
	 * own_result set, the steps add their time to result (as SK_K_OWN_RESULT). */
	sk_step busy_inner;
	int poll, poll_locked, own_result;
	sk_step each_inner; /* barrier_each: the step it times */
	/* An OpenSHMEM busy target (families/shmem/kernels/busy.c): whether this PE is the target, the
	 * other PEs' numbers (the target's to release them), and the steps met so far. */
	int busy_is_target, busy_npes;
	int *busy_pes;
	long busy_seq;
	/* Alltoallw (coll_v.c): every process's displacement and type */
	MPI_Aint *wdispls;
	MPI_Datatype *wtypes;
	int *bdispls;         /* Alltoallw: every process's block, in bytes (coll_v.c) */
	/* Persistent operations (persistent.c): the requests made once per point, and
	 * how many are live. */
	MPI_Request preq[2];
	int npreq;
	/* A family's own kernel: its numbers by name (sk_kernel.params, in that order) and
	 * its state, opaque to the engine (sk_kernel.release frees it). */
	double kparam[SK_KPARAMS];
	char *kstring[SK_KSTRINGS]; /* our copies */
	long long *karray[SK_KARRAYS]; /* our copies, karray_len[i] long (NULL where none came) */
	int karray_len[SK_KARRAYS];
	void *fam;
};

/* sk_prepare resolves and checks a, then (unless this rank is idle) allocates what the
 * timed loop needs and runs the kernel's prepare hook. On success *out owns it all;
 * on failure *out is NULL. Returns MPI_SUCCESS, an MPI error code or an SK_ERR_*. */
int sk_prepare(const sk_args *a, sk_ctx **out);
/* sk_param_known: 1 when sk_prepare resolves a parameter of that name (sk_args.param_names). */
int sk_param_known(const char *name);
/* A failure a family's kernel agreed on over its ranks (SK_ERR_FAILED): which rank, call
 * and file, and the library's words. The kernel writes it (every rank's copy, idle ones
 * too); the engine's Go reads it. */
enum { SK_FAILURE_LEN = 768 };
extern char sk_failure[SK_FAILURE_LEN];
/* sk_run runs iters steps and stores this rank's time per operation (s) in *per_op:
 * NaN on an idle rank, or on a start after `start` (local clock, s; 0 = start at once;
 * a long repetition is kept: discarding the slow ones would bias the result down). With barrier set, every rank of the job (idle
 * ones too) first meets in MPI_Barrier, and the timer starts right after it, as the C
 * benchmarks do: returning to Go between the two would let the ranks drift apart. */
int sk_run(sk_ctx *c, long long iters, double start, int barrier, double *per_op);
/* sk_set_phase switches a prepared non-blocking operation to another measurement, by
 * name (between runs). Returns MPI_SUCCESS or SK_ERR_PHASE. */
int sk_set_phase(sk_ctx *c, const char *phase);

/* sk_close ends what a kernel keeps open across runs (a window), collectively on
 * every member; nothing to do for most. Safe after MPI_Finalize (it does nothing). */
int sk_close(sk_ctx *c);
/* sk_release frees c; it makes no MPI call, so it is safe after MPI_Finalize. */
void sk_release(sk_ctx *c);

/* Non-blocking operations (nonblocking.c). */
int sk_run_nonblocking(sk_ctx *c, long long iters, double *total);
/* sk_timer_overhead: seconds one timer interval adds to a per-call timing, measured
 * through the same code (sk_now, a call through a pointer, sk_now) around a call that
 * does nothing; the median of batches. */
double sk_timer_overhead(void);

/* The busy computation (spin.c), of the overlap measurements and of a held lock.
 * sk_spin runs n iterations of a counter loop no compiler can remove, no system call.
 * sk_spin_calibrate returns its cost, ns per iteration. */
void sk_spin(long long n);
double sk_spin_calibrate(void);
/* sk_spin_for: the spin count whose sk_spin call lasts target seconds, calls timed in
 * batches starting from the rate ns_per_iter (sk_spin_calibrate's). */
long long sk_spin_for(double target, double ns_per_iter);

/* check_data (check.c). */
unsigned char sk_pattern_byte(int rank, long long bytes, long long rep, long long offset);
void sk_pattern_fill(char *buf, long long len, int rank, long long bytes, long long rep, long long base);
long long sk_pattern_find(const char *buf, long long len, int rank, long long bytes, long long rep, long long base);
void sk_check_fill(sk_ctx *c);
void sk_check_verify(sk_ctx *c, long long iters);
/* sk_check_mark compares len bytes of a block received from rank from (its slot, at
 * pattern offset base) with the pattern, and keeps the first difference of the run
 * (a kernel's own verify hook calls it). */
/* sk_agree_sum sums a count over the communicator (MPI_Allreduce) into *v: an after
 * hook's verdict every member shares. */
int sk_agree_sum(sk_ctx *c, long long *v);
void sk_check_mark(sk_ctx *c, const char *buf, long long len, int from, int slot, long long base);

/* The routine the library lacks for kernel k (sk_kernel.missing), NULL when it lacks
 * none (kernels.c); sk_prepare refuses k then, Go says why (UnsupportedReason). */
const char *sk_kernel_missing(const sk_kernel *k);
/* What the library offers beyond MPI-3.1, asked through weak references (persistent.c),
 * for skampi version (Capabilities) and TestWeakReferences. */
int sk_persistent_collective(int i, const char **name);
const char *sk_partitioned_missing(void);
int sk_mpix_fallback(void);
const char *sk_weak_routine(int i);

/* The tables, read by Go's tests and by nothing on the measuring path. */
int sk_kernel_count(void);
const sk_kernel *sk_kernel_at(int i);
int sk_datatype_count(void);
const char *sk_datatype_name(int i, int *size);
int sk_reduce_op_count(void);
const char *sk_reduce_op_name(int i);
int sk_mode_count(void);
const char *sk_mode_at(int i);
int sk_window_count(void);
const char *sk_window_at(int i);
int sk_phase_count(void);
const char *sk_phase_at(int i);

/* sk_steps counts the steps this rank has finished (and every sk_run's start and end),
 * for the watchdog, which reads it from another thread and calls a point hung only
 * when it stopped moving: a slow point moves, a blocked one does not. One plain store
 * a step (a relaxed atomic, no lock prefix): make bench-overhead shows its cost. */
extern unsigned long long sk_steps;
#define SK_STEP_DONE() __atomic_store_n(&sk_steps, sk_steps + 1, __ATOMIC_RELAXED)
unsigned long long sk_progress(void);
/* sk_touch writes zeros over p, counting a step every 64 MiB (first touch of buffers). */
void sk_touch(char *p, long long bytes);

double sk_now(void);

#endif
