//go:build mpi

/* MPI-IO (SKaMPI's MPI_IO measurements, IMB-IO): every process of the communicator
 * works on its own block of one file, msg_bytes at offset rank * msg_bytes, so no two
 * blocks overlap; or (the private kernels, IMB-IO's P_*_priv) each its own file, at
 * offset 0, opened on MPI_COMM_SELF. The file is the point's (the request's
 * io_path, in the directory under test): prepare creates it (and, for the reads, writes every block with check_data's
 * pattern), close closes and deletes it.
 *
 * Errors: a file system that is full or read-only fails a call on some ranks and not
 * on others, and a rank that returned from a step while the others go on would leave
 * them waiting. So a step never returns an error: it keeps the first one (io->err,
 * sk_failure) and goes on; after every run (quiesce, outside the timing, every rank of
 * the job) the ranks agree, and all return SK_ERR_FAILED with the first failing rank's
 * message. prepare agrees the same way before it returns.
 *
 * _sync kernels call MPI_File_sync after the write, inside the time; the others leave
 * the data to the library and the operating system. _imb kernels (method imb) end the
 * write with IMB-IO's sync, barrier, sync (imb_sync), inside the time: IMB's
 * non-aggregate mode. Given a window of N (sk_args.window, IMB's aggregate mode) a
 * step is N writes then imb_sync once, and the time per write is the step's over N
 * (calls_per_step). Write j of a step goes where IMB puts a rank's j-th write: its
 * block of the j-th row of blocks, off + j * nprocs * msg_bytes (explicit offsets,
 * individual pointers, the ordered shared pointer), the shared pointer's next free
 * block, or j * msg_bytes in a file of its own. Shared-pointer kernels set the
 * pointer back to 0 before each step (MPI_File_seek_shared, collective), outside the
 * time: they time the calls alone (SK_K_OWN_RESULT). With check_data, after every run each rank reads back what it
 * wrote (writes) or compares what it read (reads) with the pattern; with or without, the
 * file's size after a run of writes must cover them (io_check.c: a library may report
 * a write to a full file system as done). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io.h"
#include "sk_common.h"

/* agree: every rank of comm learns whether any failed, and the first one's message. */
static int agree(MPI_Comm comm, int failed) {
	int me, who, n;
	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	int mine = failed ? me : n;
	CK(MPI_Allreduce(&mine, &who, 1, MPI_INT, MPI_MIN, comm));
	if (who == n) return MPI_SUCCESS;
	CK(MPI_Bcast(sk_failure, SK_FAILURE_LEN, MPI_CHAR, who, comm));
	sk_failure[SK_FAILURE_LEN - 1] = 0;
	return SK_ERR_FAILED;
}

static void read_hints(sk_ctx *c) {
	MPI_Info info;
	int nkeys = 0;
	if (MPI_File_get_info(IOS(c)->fh, &info) != MPI_SUCCESS) return;
	char *h = calloc(1, IO_HINTS);
	if (!h) return;
	size_t used = 0;
	MPI_Info_get_nkeys(info, &nkeys);
	for (int i = 0; i < nkeys; i++) {
		char key[MPI_MAX_INFO_KEY + 1], val[1024];
		int flag = 0;
		if (MPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS) continue;
		if (MPI_Info_get(info, key, (int)sizeof val - 1, val, &flag) != MPI_SUCCESS || !flag) continue;
		int w = snprintf(h + used, IO_HINTS - used, "%s=%s\n", key, val);
		if (w < 0 || (size_t)w >= IO_HINTS - used) break;
		used += (size_t)w;
	}
	MPI_Info_free(&info);
	IOS(c)->hints = h;
}

static int open_file(sk_ctx *c) {
	int rc = MPI_File_open(IOS(c)->priv ? MPI_COMM_SELF : c->comm, IO_PATH(c), MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &IOS(c)->fh);
	if (rc == MPI_SUCCESS) IOS(c)->open = 1;
	return rc;
}

static void free_io(sk_ctx *c) {
	if (!IOS(c)) return;
	free(IOS(c)->hints);
	free(IOS(c));
	c->fam = NULL;
}

/* close_io closes and deletes the point's file (collective over comm). */
static int close_io(sk_ctx *c) {
	if (!IOS(c)) return MPI_SUCCESS;
	int rc = MPI_SUCCESS;
	if (IOS(c)->open) {
		rc = MPI_File_close(&IOS(c)->fh);
		IOS(c)->open = 0;
	}
	MPI_Barrier(c->comm);
	/* gone already is fine */
	if (c->rank == 0 || IOS(c)->priv) MPI_File_delete(IO_PATH(c), MPI_INFO_NULL);
	free_io(c);
	return rc;
}

/* prefill writes every rank's block with the pattern of repetition 0 and makes it
 * visible to all (sync, barrier, sync: MPI's sequential consistency recipe). */
static void prefill(sk_ctx *c) {
	long long n = c->a.bytes;
	sk_pattern_fill(c->a.sbuf, n, c->rank, n, 0, 0);
	IOD(MPI_File_write_at(IOS(c)->fh, IOS(c)->off, c->a.sbuf, (int)n, MPI_BYTE, &IOS(c)->st), "MPI_File_write_at (filling the file)");
	IO(MPI_File_sync(IOS(c)->fh), "MPI_File_sync");
	MPI_Barrier(c->comm);
	IO(MPI_File_sync(IOS(c)->fh), "MPI_File_sync");
}

enum { KEEP_OPEN = 0, PREFILL = 1, KEEP_CLOSED = 2, PRIVATE = 4, WINDOW = 8 };

static int prepare_io(sk_ctx *c, int how) {
	if (!IO_PATH(c) || !*IO_PATH(c)) return SK_ERR_ARGS;
	int priv = how & PRIVATE, nw = how & WINDOW && c->a.window > 1 ? c->a.window : 1;
	how &= ~(PRIVATE | WINDOW);
	/* A window's rows of blocks must end inside a file offset (the plan refuses such a
	 * file before start, inputs); the same bound on every rank, so all refuse alike. */
	long long row = (long long)c->nprocs * (long long)c->a.bytes;
	if (nw > 1 && row > 0 && (long long)nw > (LLONG_MAX / 4) / row) return SK_ERR_ARGS;
	if (!(c->fam = calloc(1, sizeof *IOS(c)))) return SK_ERR_NOMEM;
	IOS(c)->priv = priv != 0;
	IOS(c)->off = priv ? 0 : (MPI_Offset)c->rank * (MPI_Offset)c->a.bytes;
	IOS(c)->stride = priv ? (MPI_Offset)c->a.bytes : (MPI_Offset)row;
	IOS(c)->nw = nw;
	c->calls_per_step = nw; /* the time is per write */
	int rc = open_file(c);
	IO(rc, "MPI_File_open (MPI_MODE_CREATE | MPI_MODE_RDWR)");
	if (rc == MPI_SUCCESS) {
		read_hints(c);
		if (how == PREFILL) prefill(c);
		else sk_pattern_fill(c->a.sbuf, c->a.bytes, c->rank, c->a.bytes, 0, 0);
		if (how == KEEP_CLOSED) {
			IO(MPI_File_close(&IOS(c)->fh), "MPI_File_close");
			IOS(c)->open = 0;
		}
	}
	int arc = agree(c->comm, IOS(c)->err != 0);
	if (arc != MPI_SUCCESS) {
		if (priv) { /* its own file: no barrier, where a rank whose open failed has none to meet */
			if (IOS(c)->open) MPI_File_close(&IOS(c)->fh);
			if (rc == MPI_SUCCESS) MPI_File_delete(IO_PATH(c), MPI_INFO_NULL);
			free_io(c);
		} else if (rc == MPI_SUCCESS) close_io(c);
		else free_io(c);
		return arc;
	}
	return MPI_SUCCESS;
}
static int prepare_open(sk_ctx *c) { return prepare_io(c, KEEP_OPEN); }
static int prepare_read(sk_ctx *c) { return prepare_io(c, PREFILL); }
static int prepare_closed(sk_ctx *c) { return prepare_io(c, KEEP_CLOSED); }
static int prepare_private(sk_ctx *c) { return prepare_io(c, KEEP_OPEN | PRIVATE); }
static int prepare_private_read(sk_ctx *c) { return prepare_io(c, PREFILL | PRIVATE); }
static int prepare_imb(sk_ctx *c) { return prepare_io(c, KEEP_OPEN | WINDOW); }
static int prepare_private_imb(sk_ctx *c) { return prepare_io(c, KEEP_OPEN | PRIVATE | WINDOW); }

/* After every run, on every rank of the job: the ranks agree whether any call failed,
 * then the data check (its errors are agreed after the next run). */
static int quiesce_io(sk_ctx *c) {
	if (IOS(c) && IOS(c)->open && (c->k->check == IO_CHECK_WRITE || c->k->check == IO_CHECK_WRITE_ANYWHERE))
		sk_io_written(c);
	int rc = agree(MPI_Comm_f2c(c->a.world), IOS(c) && IOS(c)->err);
	if (IOS(c)) IOS(c)->err = 0;
	/* Only when no rank failed: the check's sync is collective. */
	if (rc == MPI_SUCCESS && IOS(c) && c->a.check && c->k->check != SK_CHECK_NONE && IOS(c)->open) sk_io_verify(c);
	if (IOS(c) && c->a.check && (c->k->check == IO_CHECK_READ || c->k->check == IO_CHECK_READ_ANY))
		memset(c->a.rbuf, 0, (size_t)c->a.bytes); /* the next run must read it again */
	return rc;
}

/* The steps. fh, off, n, buffers: */
#define FH IOS(c)->fh
#define OFF IOS(c)->off
#define N ((int)c->a.bytes)
#define SB c->a.sbuf
#define RB c->a.rbuf
#define ST (&IOS(c)->st)
/* method imb: the writes of a step, and where write j goes */
#define NW (IOS(c)->nw)
#define AT(j) (OFF + (MPI_Offset)(j) * IOS(c)->stride)

static int step_open_close(sk_ctx *c) {
	IO(open_file(c), "MPI_File_open");
	if (IOS(c)->open) IO(MPI_File_close(&FH), "MPI_File_close");
	IOS(c)->open = 0;
	return MPI_SUCCESS;
}

/* Open timed, close not; close timed, open not (SK_K_OWN_RESULT). */
static int step_open(sk_ctx *c) {
	double t0 = sk_now();
	IO(open_file(c), "MPI_File_open");
	c->result += sk_now() - t0;
	if (IOS(c)->open) IO(MPI_File_close(&FH), "MPI_File_close");
	IOS(c)->open = 0;
	return MPI_SUCCESS;
}

static int step_close(sk_ctx *c) {
	IO(open_file(c), "MPI_File_open");
	double t0 = sk_now();
	if (IOS(c)->open) IO(MPI_File_close(&FH), "MPI_File_close");
	c->result += sk_now() - t0;
	IOS(c)->open = 0;
	return MPI_SUCCESS;
}

static int step_set_view(sk_ctx *c) { IO(MPI_File_set_view(FH, OFF, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL), "MPI_File_set_view"); return MPI_SUCCESS; }

static void sync_file(sk_ctx *c) { IO(MPI_File_sync(FH), "MPI_File_sync"); }

/* IMB-IO's completion of a write (IMB 3.1 on, every P_ and C_ write): MPI_File_sync,
 * MPI_Barrier on the file's communicator (MPI_COMM_SELF for a private file), then
 * MPI_File_sync again, timed with the write (the method imb); with a window, once
 * after the step's NW writes (IMB's aggregate mode). */
static void imb_sync(sk_ctx *c) {
	sync_file(c);
	IO(MPI_Barrier(IOS(c)->priv ? MPI_COMM_SELF : c->comm), "MPI_Barrier");
	sync_file(c);
}

/* Explicit offsets. */
static int step_write_at(sk_ctx *c) { IOD(MPI_File_write_at(FH, OFF, SB, N, MPI_BYTE, ST), "MPI_File_write_at"); return MPI_SUCCESS; }
static int step_write_at_sync(sk_ctx *c) { step_write_at(c); sync_file(c); return MPI_SUCCESS; }
static int step_write_at_imb(sk_ctx *c) {
	for (int j = 0; j < NW; j++) IOD(MPI_File_write_at(FH, AT(j), SB, N, MPI_BYTE, ST), "MPI_File_write_at");
	imb_sync(c);
	return MPI_SUCCESS;
}
static int step_read_at(sk_ctx *c) { IOD(MPI_File_read_at(FH, OFF, RB, N, MPI_BYTE, ST), "MPI_File_read_at"); return MPI_SUCCESS; }
static int step_write_at_all(sk_ctx *c) { IOD(MPI_File_write_at_all(FH, OFF, SB, N, MPI_BYTE, ST), "MPI_File_write_at_all"); return MPI_SUCCESS; }
static int step_write_at_all_sync(sk_ctx *c) { step_write_at_all(c); sync_file(c); return MPI_SUCCESS; }
static int step_write_at_all_imb(sk_ctx *c) {
	for (int j = 0; j < NW; j++) IOD(MPI_File_write_at_all(FH, AT(j), SB, N, MPI_BYTE, ST), "MPI_File_write_at_all");
	imb_sync(c);
	return MPI_SUCCESS;
}
static int step_read_at_all(sk_ctx *c) { IOD(MPI_File_read_at_all(FH, OFF, RB, N, MPI_BYTE, ST), "MPI_File_read_at_all"); return MPI_SUCCESS; }

/* Individual file pointers: MPI_File_seek to the block (local), then the call. IMB
 * sets a view of the rank's blocks and lets the pointer run through it; skampi keeps
 * the byte view and seeks (local) before each write, to the same place. */
static void seek_to(sk_ctx *c, MPI_Offset at) { IO(MPI_File_seek(FH, at, MPI_SEEK_SET), "MPI_File_seek"); }
static void seek(sk_ctx *c) { seek_to(c, OFF); }
static int step_write(sk_ctx *c) { seek(c); IOD(MPI_File_write(FH, SB, N, MPI_BYTE, ST), "MPI_File_write"); return MPI_SUCCESS; }
static int step_write_sync(sk_ctx *c) { step_write(c); sync_file(c); return MPI_SUCCESS; }
static int step_write_imb(sk_ctx *c) {
	for (int j = 0; j < NW; j++) {
		seek_to(c, AT(j));
		IOD(MPI_File_write(FH, SB, N, MPI_BYTE, ST), "MPI_File_write");
	}
	imb_sync(c);
	return MPI_SUCCESS;
}
static int step_read(sk_ctx *c) { seek(c); IOD(MPI_File_read(FH, RB, N, MPI_BYTE, ST), "MPI_File_read"); return MPI_SUCCESS; }
static int step_write_all(sk_ctx *c) { seek(c); IOD(MPI_File_write_all(FH, SB, N, MPI_BYTE, ST), "MPI_File_write_all"); return MPI_SUCCESS; }
static int step_write_all_sync(sk_ctx *c) { step_write_all(c); sync_file(c); return MPI_SUCCESS; }
static int step_write_all_imb(sk_ctx *c) {
	for (int j = 0; j < NW; j++) {
		seek_to(c, AT(j));
		IOD(MPI_File_write_all(FH, SB, N, MPI_BYTE, ST), "MPI_File_write_all");
	}
	imb_sync(c);
	return MPI_SUCCESS;
}
static int step_read_all(sk_ctx *c) { seek(c); IOD(MPI_File_read_all(FH, RB, N, MPI_BYTE, ST), "MPI_File_read_all"); return MPI_SUCCESS; }

/* Split collectives. */
static int step_write_all_begin_end(sk_ctx *c) {
	seek(c);
	IO(MPI_File_write_all_begin(FH, SB, N, MPI_BYTE), "MPI_File_write_all_begin");
	IOD(MPI_File_write_all_end(FH, SB, ST), "MPI_File_write_all_end");
	return MPI_SUCCESS;
}
static int step_read_all_begin_end(sk_ctx *c) {
	seek(c);
	IO(MPI_File_read_all_begin(FH, RB, N, MPI_BYTE), "MPI_File_read_all_begin");
	IOD(MPI_File_read_all_end(FH, RB, ST), "MPI_File_read_all_end");
	return MPI_SUCCESS;
}

/* Non-blocking: the post and MPI_Wait. */
static int wait_req(sk_ctx *c, int rc, const char *call) {
	IO(rc, call);
	if (rc == MPI_SUCCESS) IOD(MPI_Wait(&c->req[0], ST), call);
	return MPI_SUCCESS;
}
static int step_iwrite_at(sk_ctx *c) { return wait_req(c, MPI_File_iwrite_at(FH, OFF, SB, N, MPI_BYTE, &c->req[0]), "MPI_File_iwrite_at"); }
static int step_iread_at(sk_ctx *c) { return wait_req(c, MPI_File_iread_at(FH, OFF, RB, N, MPI_BYTE, &c->req[0]), "MPI_File_iread_at"); }
static int step_iwrite_at_all(sk_ctx *c) { return wait_req(c, MPI_File_iwrite_at_all(FH, OFF, SB, N, MPI_BYTE, &c->req[0]), "MPI_File_iwrite_at_all"); }
static int step_iread_at_all(sk_ctx *c) { return wait_req(c, MPI_File_iread_at_all(FH, OFF, RB, N, MPI_BYTE, &c->req[0]), "MPI_File_iread_at_all"); }

/* Shared file pointers: the pointer set back to 0 (collective), untimed; the call timed
 * (method imb: NW calls, the pointer running on from each to the next, as IMB's). */
#define SHARED(name_, call_, what_, sync_)                                            \
	static int name_(sk_ctx *c) {                                                      \
		IO(MPI_File_seek_shared(FH, 0, MPI_SEEK_SET), "MPI_File_seek_shared");        \
		double t0 = sk_now();                                                          \
		for (int j_ = 0; j_ < (sync_ == 2 ? NW : 1); j_++) IOD(call_, what_);          \
		if (sync_ == 1) sync_file(c);                                                  \
		if (sync_ == 2) imb_sync(c);                                                   \
		c->result += sk_now() - t0;                                                    \
		return MPI_SUCCESS;                                                            \
	}
SHARED(step_write_shared, MPI_File_write_shared(FH, SB, N, MPI_BYTE, ST), "MPI_File_write_shared", 0)
SHARED(step_write_shared_sync, MPI_File_write_shared(FH, SB, N, MPI_BYTE, ST), "MPI_File_write_shared", 1)
SHARED(step_write_shared_imb, MPI_File_write_shared(FH, SB, N, MPI_BYTE, ST), "MPI_File_write_shared", 2)
SHARED(step_read_shared, MPI_File_read_shared(FH, RB, N, MPI_BYTE, ST), "MPI_File_read_shared", 0)
SHARED(step_write_ordered, MPI_File_write_ordered(FH, SB, N, MPI_BYTE, ST), "MPI_File_write_ordered", 0)
SHARED(step_write_ordered_sync, MPI_File_write_ordered(FH, SB, N, MPI_BYTE, ST), "MPI_File_write_ordered", 1)
SHARED(step_write_ordered_imb, MPI_File_write_ordered(FH, SB, N, MPI_BYTE, ST), "MPI_File_write_ordered", 2)
SHARED(step_read_ordered, MPI_File_read_ordered(FH, RB, N, MPI_BYTE, ST), "MPI_File_read_ordered", 0)

/* The kernels of this file (kernels.go hands the table to the engine). W: a write kernel on an open
 * file; R: a read of the prefilled file; OWN: timed by the step itself. */
#define IOK(name_, step_, prep_, flags_, check_)                                                              \
	{.name = (name_), .step = (step_), .prepare = (prep_), .flags = SK_K_COLLECTIVE | (flags_), .check = (check_), \
	 .close = close_io, .quiesce = quiesce_io, .strings = io_strings, .release = free_io}
#define W(name_, step_) IOK(name_, step_, prepare_open, 0, IO_CHECK_WRITE)
#define R(name_, step_) IOK(name_, step_, prepare_read, 0, IO_CHECK_READ)
#define OWN SK_K_OWN_RESULT
static const char *const io_strings[] = {"io_path", NULL};
static const sk_kernel kernels[] = {
	IOK("file_open_close", step_open_close, prepare_closed, 0, SK_CHECK_NONE),
	IOK("file_open", step_open, prepare_closed, OWN, SK_CHECK_NONE),
	IOK("file_close", step_close, prepare_closed, OWN, SK_CHECK_NONE),
	IOK("file_set_view", step_set_view, prepare_open, 0, SK_CHECK_NONE),
	W("file_write_at", step_write_at),
	W("file_write_at_sync", step_write_at_sync),
	R("file_read_at", step_read_at),
	W("file_write", step_write),
	W("file_write_sync", step_write_sync),
	R("file_read", step_read),
	IOK("file_write_shared", step_write_shared, prepare_open, OWN, IO_CHECK_WRITE_ANYWHERE),
	IOK("file_write_shared_sync", step_write_shared_sync, prepare_open, OWN, IO_CHECK_WRITE_ANYWHERE),
	IOK("file_read_shared", step_read_shared, prepare_read, OWN, IO_CHECK_READ_ANY),
	W("file_write_all", step_write_all),
	W("file_write_all_sync", step_write_all_sync),
	R("file_read_all", step_read_all),
	W("file_write_at_all", step_write_at_all),
	W("file_write_at_all_sync", step_write_at_all_sync),
	R("file_read_at_all", step_read_at_all),
	IOK("file_write_ordered", step_write_ordered, prepare_open, OWN, IO_CHECK_WRITE),
	IOK("file_write_ordered_sync", step_write_ordered_sync, prepare_open, OWN, IO_CHECK_WRITE),
	IOK("file_read_ordered", step_read_ordered, prepare_read, OWN, IO_CHECK_READ),
	W("file_write_all_begin_end", step_write_all_begin_end),
	R("file_read_all_begin_end", step_read_all_begin_end),
	W("file_iwrite_at", step_iwrite_at),
	R("file_iread_at", step_iread_at),
	W("file_iwrite_at_all", step_iwrite_at_all),
	R("file_iread_at_all", step_iread_at_all),
	/* IMB-IO's synced writes (method imb) */
	IOK("file_write_at_imb", step_write_at_imb, prepare_imb, 0, IO_CHECK_WRITE),
	IOK("file_write_imb", step_write_imb, prepare_imb, 0, IO_CHECK_WRITE),
	IOK("file_write_shared_imb", step_write_shared_imb, prepare_imb, OWN, IO_CHECK_WRITE_ANYWHERE),
	IOK("file_write_all_imb", step_write_all_imb, prepare_imb, 0, IO_CHECK_WRITE),
	IOK("file_write_at_all_imb", step_write_at_all_imb, prepare_imb, 0, IO_CHECK_WRITE),
	IOK("file_write_ordered_imb", step_write_ordered_imb, prepare_imb, OWN, IO_CHECK_WRITE),
	IOK("file_write_private_imb", step_write_at_imb, prepare_private_imb, 0, IO_CHECK_WRITE),
	/* each process its own file at offset 0 (its block, off, is 0) */
	IOK("file_write_private", step_write_at, prepare_private, 0, IO_CHECK_WRITE),
	IOK("file_read_private", step_read_at, prepare_private_read, 0, IO_CHECK_READ),
};
static const sk_table table = SK_TABLE(kernels);
static const sk_table *const tables[] = {&table};
const sk_table *const *sk_io_tables(int *n) {
	*n = 1;
	return tables;
}
