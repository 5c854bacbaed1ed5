/* What io.c and io_check.c share (MPI-IO kernels): the open file of a point, and the
 * errors and checks io_check.c keeps for io.c. */
#ifndef SKAMPI_IO_H
#define SKAMPI_IO_H

#include "kernels.h"

enum { IO_MSG = 768, IO_HINTS = 8192 };

struct sk_io {
	MPI_File fh;
	int open;          /* fh is open */
	int priv;          /* a file of this process's own (path.rankN), opened on MPI_COMM_SELF */
	char *path;        /* our copy of a.io_path */
	MPI_Offset off;    /* this rank's block */
	int nw;            /* writes a step: method imb's window (IMB's aggregate mode), else 1 */
	MPI_Offset stride; /* from a step's write to its next: a row of every process's blocks */
	int err;           /* the first error a call returned on this rank (0: none) */
	char *hints;       /* "key=value\n"... of MPI_File_get_info */
	MPI_Status st;     /* of the last data call: how many bytes it moved */
};

/* io_check.c: the last agreed failure's message (every rank's copy); note keeps the
 * first failure of this rank, moved also a data call's short count (IO, IOD). */
extern char sk_io_last_msg[IO_MSG];
void sk_io_note(sk_ctx *c, int rc, const char *call);
void sk_io_moved(sk_ctx *c, int rc, const char *call);
#define IO(call, name) sk_io_note(c, (call), name)
#define IOD(call, name) sk_io_moved(c, (call), name)

/* check_data (the kernels' .check; check.c fills sbuf with this run's pattern, and
 * has counted the run in c->rep by the time quiesce checks it). */
enum { IO_CHECK_WRITE = 100, IO_CHECK_WRITE_ANYWHERE, IO_CHECK_READ, IO_CHECK_READ_ANY };
/* io_check.c: check_data's check after a run (verify), and the file's size after a
 * run of writes (written, collective over comm). */
void sk_io_verify(sk_ctx *c);
void sk_io_written(sk_ctx *c);

#endif
