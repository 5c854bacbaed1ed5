/* What io.c and io_check.c share (MPI-IO kernels): the open file of a point, and the
 * errors and checks io_check.c keeps for io.c. */
#ifndef SKAMPI_IO_H
#define SKAMPI_IO_H

#include "sk_common.h"

enum { IO_HINTS = 8192 };

struct sk_io {
	MPI_File fh;
	int open;          /* fh is open */
	int priv;          /* a file of this process's own (path.rankN), opened on MPI_COMM_SELF */
	MPI_Offset off;    /* this rank's block */
	int nw;            /* writes a step: method imb's window (IMB's aggregate mode), else 1 */
	MPI_Offset stride; /* from a step's write to its next: a row of every process's blocks */
	int err;           /* the first error a call returned on this rank (0: none) */
	char *hints;       /* "key=value\n"... of MPI_File_get_info */
	MPI_Status st;     /* of the last data call: how many bytes it moved */
};

/* The point's state (c->fam) and its file (the request's io_path, c->kstring[0]). */
#define IOS(c) ((struct sk_io *)(c)->fam)
#define IO_PATH(c) ((c)->kstring[0])

/* io_check.c: note keeps the first failure of this rank in sk_failure (agreed after the
 * run), moved also a data call's short count (IO, IOD). */
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
