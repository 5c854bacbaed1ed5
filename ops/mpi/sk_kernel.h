/* A kernel: one line of a table (its steps, hooks and facts), and the tables that the
 * engine's files and each family's kernels hand to the engine. Included by skampi.h,
 * after sk_args, sk_ctx's name and sk_step. */
#ifndef SKAMPI_KERNEL_H
#define SKAMPI_KERNEL_H

/* Facts about a kernel that change how it is prepared or how its time is read. */
enum {
	/* A collective: takes a datatype, a reduction operator and a root. */
	SK_K_COLLECTIVE = 1 << 0,
	/* One step is an operation from every process in turn: the time per operation is
	 * the step's divided by nprocs. */
	SK_K_PER_PROCESS_STEP = 1 << 1,
	/* The step adds its own time to c->result (only it knows when the operation ended);
	 * the loop's clock is not the result. */
	SK_K_OWN_RESULT = 1 << 2,
	/* Needs the node of every rank (sk_args.node_of). */
	SK_K_NODE_AWARE = 1 << 3,
	/* Non-blocking: post starts the operation, MPI_Waitall completes it; the kernel
	 * runs the measurement nb_phase names (nonblocking.c). */
	SK_K_NONBLOCKING = 1 << 4,
	/* Takes a datatype and a reduction operator, without being a collective. */
	SK_K_TYPED = 1 << 5,
	/* Reads or writes its window memory directly: needs the unified memory model. */
	SK_K_UNIFIED = 1 << 8,
	/* The prepare and close hooks run on idle ranks too (OpenSHMEM's symmetric
	 * allocation is collective over every PE). */
	SK_K_ALL_RANKS = 1 << 9,
	/* One-sided kernels that create and free windows of their own in the step: no
	 * window is prepared for them. */
	SK_K_OWN_WINDOW = 1 << 11,
	/* One-sided kernels whose window holds a block for every process (transposes). */
	SK_K_PER_PROCESS_WINDOW = 1 << 12,
};

/* What a data layout replaces in a kernel that takes one (sk_kernel.layout,
 * datatypes.c); SK_LAY_NONE: the kernel moves contiguous bytes only. */
enum { SK_LAY_NONE = 0, SK_LAY_PINGPONG, SK_LAY_ALLTOALL, SK_LAY_PUT, SK_LAY_GET, SK_LAY_ACCUMULATE };

/* What a kernel receives, for check_data (check.c): who sent which bytes where. */
enum {
	SK_CHECK_NONE = 0,      /* not checked (reductions, barriers, self-tests of hangs) */
	SK_CHECK_PEER,          /* both of a pair receive the peer's message in rbuf (its slots) */
	SK_CHECK_RESPONDER,     /* only the responder receives (bandwidth) */
	SK_CHECK_INITIATOR,     /* only the initiator receives (a non-blocking receive) */
	SK_CHECK_REPLACE,       /* Sendrecv_replace: rbuf is sent and received in place */
	SK_CHECK_BCAST,         /* every sbuf ends with the root's */
	SK_CHECK_BCAST_FIRST,   /* rounds over all roots: each passes on rank 0's, received first */
	SK_CHECK_GATHER,        /* the root's rbuf holds block 0 of every rank's sbuf */
	SK_CHECK_GATHER_OTHERS, /* the same but the root's own block */
	SK_CHECK_ALLGATHER,     /* every rbuf holds block 0 of every rank's sbuf */
	SK_CHECK_SCATTER,       /* every rbuf holds its block of the root's sbuf */
	SK_CHECK_ALLTOALL,      /* block i of every rbuf is this rank's block of rank i's sbuf */
	SK_CHECK_OWN,           /* the kernel's own: its fill and verify hooks (a family's kernels) */
};

typedef struct {
	const char *name; /* the catalogue's kernel name */
	sk_step step;     /* one timed step */
	/* Once per point after the common preparation, outside every timed interval; may
	 * communicate with the other members of the communicator, never with idle ranks.
	 * NULL: nothing more to prepare. */
	int (*prepare)(sk_ctx *c);
	unsigned flags;
	int check; /* SK_CHECK_* */
	/* Non-blocking kernels: posts c->nreq requests into c->req (MPI_Waitall completes
	 * them); step is then what the responder of a pair does in a step (blocking). */
	sk_step post;
	/* Collective teardown before sk_release (a window's freeing); NULL: none. */
	int (*close)(sk_ctx *c);
	/* Kernels with synchronisation modes: the mode when the request names none, and
	 * (one-sided operations, rma.c) the step under each mode, SK_SYNC_COUNT of them. */
	const char *mode;
	const sk_step *by_mode;
	/* Non-blocking kernels: what completes the posted operation (NULL: MPI_Waitall of
	 * the requests; OpenSHMEM: shmem_quiet). */
	int (*complete)(sk_ctx *c);
	/* Non-blocking kernels: the post and its completion fused into one call, for the
	 * full measurement's loop (NULL: post, then complete). A kernel whose calls are
	 * a few nanoseconds (a SHMEM put + quiet) would otherwise carry two indirect calls
	 * a C loop does not. */
	sk_step full;
	/* After every run, on every rank of the job (idle ones too), outside the timing:
	 * OpenSHMEM's shmem_barrier_all, so no PE waits on another's OpenSHMEM progress
	 * while that one sits in the engine's MPI calls. NULL: nothing. */
	sk_step quiesce;
	/* SK_LAY_*: the data layouts this kernel takes, and what they change in it. */
	int layout;
	/* Kernels that call routines some libraries lack (MPI_Psend_init): names the first
	 * of them the library this process runs with does not provide, NULL when it has
	 * them all; sk_prepare then refuses every request (SK_ERR_UNSUPPORTED). Asked of
	 * the library itself through weak references (persistent.c), never of MPI_VERSION.
	 * NULL: the kernel calls nothing beyond MPI-3.1. */
	const char *(*missing)(void);
	/* The whole repetition, iters steps, in place of sk_run's loop: *total is its time
	 * (the multi-threaded kernels: their threads run the steps, families/mt). NULL: sk_run's. */
	int (*run)(sk_ctx *c, long long iters, double *total);
	/* A family's own kernels (a package of their own, sk_register_kernels): the names
	 * of the numbers the kernel reads beyond the engine's, NULL-terminated, at most
	 * SK_KPARAMS; sk_prepare resolves the request's into c->kparam in this order (0
	 * where it gives none) and refuses a name neither knows. NULL: none. */
	const char *const *params;
	/* And the names of its words (sk_args.string_names), NULL-terminated, at most
	 * SK_KSTRINGS: c->kstring in this order (NULL where the request gives none). */
	const char *const *strings;
	/* And of its lists (sk_args.array_names), at most SK_KARRAYS: c->karray. */
	const char *const *arrays;
	/* SK_CHECK_OWN: fill writes this repetition's pattern into what this rank sends;
	 * verify compares what it received after a repetition of iters steps, keeping the
	 * first difference with sk_check_mark. Called on members only, with check_data. */
	void (*fill)(sk_ctx *c);
	void (*verify)(sk_ctx *c, long long iters);
	/* After every run, on the members, outside the timing: the kernel's own check of
	 * what the run left (a shared counter's increments, a lock held by two, broadcasts
	 * that interleaved), agreed over the communicator (sk_agree_sum), so every member
	 * fails alike: SK_ERR_FAILED with sk_failure. NULL: none. */
	int (*after)(sk_ctx *c, long long iters);
	/* Frees what the prepare hook keeps in c->fam; no MPI call (safe after
	 * MPI_Finalize). NULL: nothing. */
	void (*release)(sk_ctx *c);
} sk_kernel;

enum { SK_KPARAMS = 8, SK_KSTRINGS = 4, SK_KARRAYS = 4 };

/* A table of one file's kernels, for kernels.c to join. */
typedef struct {
	const sk_kernel *k;
	int n;
} sk_table;
#define SK_TABLE(t) {(t), (int)(sizeof(t) / sizeof((t)[0]))}
/* sk_register_kernels adds another package's n tables (a family's) to
 * those of kernels.c; a table registered again is kept once. SK_ERR_ARGS when there
 * are too many. Kernel names must be unique (mpi.RegisterKernels checks). */
int sk_register_kernels(const sk_table *const *tables, int n);

#endif
