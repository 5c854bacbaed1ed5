/* Timed loops and thin helpers for ops/mpi. Every timed loop runs entirely in C:
 * Go calls sk_run once per repetition, outside the timed interval. */
#ifndef SKAMPI_MPI_H
#define SKAMPI_MPI_H

#include <mpi.h>
#include <signal.h>

enum {
	SK_OP_PINGPONG_SEND_RECV,
	SK_OP_PINGPONG_SEND_IPROBE_RECV,
	SK_OP_PINGPONG_SEND_IRECV,
	SK_OP_PINGPONG_SEND_RECV_AT,
	SK_OP_PINGPONG_SSEND_RECV,
	SK_OP_PINGPONG_ISEND_RECV,
	SK_OP_PINGPONG_ISSEND_RECV,
	SK_OP_PINGPONG_SENDRECV,
	SK_OP_PINGPONG_SENDRECV_REPLACE,
	SK_OP_PINGPING_SEND_RECV,
	SK_OP_BANDWIDTH_ISEND_IRECV,
	SK_OP_BIBANDWIDTH_ISEND_IRECV,
	SK_OP_MULTIPAIR_BANDWIDTH,
	SK_OP_SELFTEST_HANG,
	SK_OP_SELFTEST_CRASH,
	/* collectives (coll.c) */
	SK_OP_BARRIER,
	SK_OP_BCAST,
	SK_OP_REDUCE,
	SK_OP_ALLREDUCE,
	SK_OP_REDUCE_SCATTER,
	SK_OP_REDUCE_SCATTER_BLOCK,
	SK_OP_ALLTOALL,
	SK_OP_ALLTOALLV,
	SK_OP_GATHER,
	SK_OP_GATHERV,
	SK_OP_ALLGATHER,
	SK_OP_ALLGATHERV,
	SK_OP_SCATTER,
	SK_OP_SCATTERV,
	SK_OP_SCAN,
	SK_OP_EXSCAN,
	SK_OP_BCAST_USING_SEND_RECV,
	SK_OP_ALLTOALL_USING_ISEND_IRECV,
	SK_OP_GATHER_USING_SEND_RECV,
	SK_OP_ALLREDUCE_USING_REDUCE_BCAST,
	SK_OP_ALLTOALL_ORDERED,
	SK_OP_ALLTOALL_ORDERED_NODES,
	/* broadcast timing methods */
	SK_OP_BCAST_BARRIER,
	SK_OP_BCAST_ROUNDS,
	SK_OP_BCAST_ACK,
	SK_OP_COUNT
};

enum { SK_TIMER_GLOBAL_LOOP = 0, SK_TIMER_ITERATION = 1 };
enum { SK_DT_BYTE, SK_DT_CHAR, SK_DT_INT, SK_DT_LONG, SK_DT_FLOAT, SK_DT_DOUBLE };
enum { SK_RED_SUM, SK_RED_PROD, SK_RED_MIN, SK_RED_MAX, SK_RED_BAND, SK_RED_BOR, SK_RED_BXOR };
enum { SK_ROLE_IDLE = -1, SK_ROLE_INITIATOR = 0, SK_ROLE_RESPONDER = 1 };

typedef struct {
	int op;
	int role;
	int peer;
	int bytes;
	long long iters;
	int window;
	int timer;
	char *sbuf;
	char *rbuf;
	MPI_Fint comm;
	/* collectives */
	int dtype;
	int redop;
	int root;
	long long barrier_above; /* ordered all-to-all: barrier between phases above this size; < 0 never */
	const int *node_of;      /* node index of every rank (node-aware kernels) */
	int nnodes;
	/* window synchronisation: start at `start`, be done by `stop` (local clock, s);
	 * 0 = start at once, no deadline. A late start or an overrun gives NaN. */
	double start, stop;
} sk_args;

/* sk_run runs a.iters operations and stores this rank's time per operation (seconds)
 * in *per_op. Returns an MPI error code (MPI_SUCCESS on success); -1 for bad arguments. */
int sk_run(const sk_args *a, double *per_op);

/* The loop state shared by the kernels of pt2pt.c and coll.c. */
typedef struct {
	const sk_args *a;
	MPI_Comm comm;
	MPI_Request *req; /* 2*max(window, nprocs) requests */
	char ack;
	/* collectives */
	MPI_Datatype dt;
	MPI_Op op;
	int count; /* elements per process block */
	int rank, nprocs;
	int *counts, *displs; /* nprocs each, for the v-variants: equal counts */
	/* Kernels whose time is not the loop's: "rounds" divides by the operations in a
	 * step; "ack" computes its own value (sum over steps) on the root. */
	int ops_per_step;
	int own_result;
	double result;
	double *ack_s; /* one-way acknowledgement time to each rank (s), measured in setup */
} sk_ctx;

typedef int (*sk_step)(sk_ctx *c);
extern const sk_step sk_coll_steps[SK_OP_COUNT];
int sk_coll_setup(sk_ctx *c);
void sk_coll_free(sk_ctx *c);

extern volatile sig_atomic_t sk_in_op;
int sk_install_crash_handlers(int rank);

double sk_now(void);

int sk_clock_client(MPI_Fint comm, int server, int n, double delay, double *send, double *remote,
                    double *recv, double *model, int words);
int sk_clock_server(MPI_Fint comm, int client, int n, const double *model, int words);
double sk_tick(void);

int sk_init(int *provided);
int sk_finalize(void);
void sk_abort(int code);
int sk_comm_dup_world(MPI_Fint *out);
int sk_comm_split(MPI_Fint parent, int member, int key, MPI_Fint *out);
int sk_rank(MPI_Fint comm, int *rank);
int sk_size(MPI_Fint comm, int *size);
int sk_barrier(MPI_Fint comm);
int sk_gather_double(MPI_Fint comm, double v, double *out);
int sk_bcast_ll(MPI_Fint comm, long long *v);
int sk_allgather_names(MPI_Fint comm, char *out, int stride);
void sk_error_string(int code, char *out, int len);
void sk_library_version(char *out, int len, int *version, int *subversion);
int sk_alloc(long long bytes, char **out);
int sk_free(char *p);

#endif
