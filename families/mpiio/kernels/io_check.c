//go:build mpi

/* The MPI-IO kernels' errors and checks (io.c): the first failure of a rank in words,
 * a data call that moved fewer bytes than asked, check_data's read-back, and the
 * file's size after writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io.h"
#include "sk_common.h"

const char *sk_io_hints(const sk_ctx *c) { return c && IOS(c) && IOS(c)->hints ? IOS(c)->hints : ""; }

static const char *class_text(int cls) {
	switch (cls) {
	case MPI_ERR_NO_SPACE: return "no space left on the device (ENOSPC)";
	case MPI_ERR_QUOTA: return "quota exceeded (EDQUOT)";
	case MPI_ERR_READ_ONLY: return "read-only file or file system (EROFS)";
	case MPI_ERR_ACCESS: return "permission denied (EACCES)";
	case MPI_ERR_NO_SUCH_FILE: return "no such file or directory (ENOENT)";
	case MPI_ERR_IO: return "input/output error";
	}
	return NULL;
}

/* note keeps the first failure of this rank, with the call and the library's text. */
void sk_io_note(sk_ctx *c, int rc, const char *call) {
	if (rc == MPI_SUCCESS || !IOS(c) || IOS(c)->err) return;
	IOS(c)->err = rc;
	char text[MPI_MAX_ERROR_STRING] = "";
	int len = 0, cls = 0;
	MPI_Error_string(rc, text, &len);
	MPI_Error_class(rc, &cls);
	const char *what = class_text(cls);
	snprintf(sk_failure, sizeof sk_failure, "rank %d: %s on %s: %s%s%s", c->rank, call, IO_PATH(c), what ? what : "",
	         what ? "; the library says: " : "", text);
}

/* moved checks that a data call that returned success moved every byte: Open MPI
 * 4.1.4's ompio returns MPI_SUCCESS from a write the file system refused (ENOSPC),
 * with a short count. */
void sk_io_moved(sk_ctx *c, int rc, const char *call) {
	int got = -1;
	sk_io_note(c, rc, call);
	if (rc != MPI_SUCCESS || IOS(c)->err) return;
	MPI_Get_count(&IOS(c)->st, MPI_BYTE, &got);
	if (got == c->a.bytes) return;
	IOS(c)->err = SK_ERR_FAILED;
	snprintf(sk_failure, sizeof sk_failure, "rank %d: %s on %s moved %d of %d bytes, and the library reported no error", c->rank,
	         call, IO_PATH(c), got, c->a.bytes);
}


static void bad(sk_ctx *c, int from, long long off, long long rep, const char *buf) {
	c->bad = 1;
	c->bad_from = from;
	c->bad_slot = 0;
	c->bad_offset = off;
	c->bad_expected = sk_pattern_byte(from, c->a.bytes, rep, off);
	c->bad_actual = (unsigned char)buf[off];
	c->bad_rep = rep;
}

/* verify reads back what the run wrote, or compares what it read, on this rank. */
void sk_io_verify(sk_ctx *c) {
	long long n = c->a.bytes, rep = c->rep - 1, i;
	int kind = c->k->check, p = c->nprocs;
	if (c->bad || n == 0) return;
	switch (kind) {
	case IO_CHECK_READ:
		if ((i = sk_pattern_find(c->a.rbuf, n, c->rank, n, 0, 0)) >= 0) bad(c, c->rank, i, 0, c->a.rbuf);
		break;
	case IO_CHECK_READ_ANY: /* a shared pointer hands out the blocks in any order */
		for (int r = 0; r < p; r++)
			if (sk_pattern_find(c->a.rbuf, n, r, n, 0, 0) < 0) return;
		bad(c, c->rank, sk_pattern_find(c->a.rbuf, n, c->rank, n, 0, 0), 0, c->a.rbuf);
		break;
	case IO_CHECK_WRITE:
	case IO_CHECK_WRITE_ANYWHERE: {
		/* Every block the step wrote (nw of them, method imb's window), read one at a
		 * time: at its place, or, behind a shared pointer, somewhere among the nw
		 * blocks of every process, nw of which must be ours. */
		int anywhere = kind == IO_CHECK_WRITE_ANYWHERE, nw = IOS(c)->nw;
		long long blocks = anywhere ? (long long)nw * p : nw, ours = 0, first = -1;
		char *buf = malloc(2 * (size_t)n), *miss = buf + n;
		if (!buf) return;
		IO(MPI_File_sync(IOS(c)->fh), "MPI_File_sync (check_data)");
		MPI_Barrier(c->comm);
		IO(MPI_File_sync(IOS(c)->fh), "MPI_File_sync (check_data)");
		for (long long b = 0; b < blocks && !c->bad; b++) {
			MPI_Offset at = anywhere ? (MPI_Offset)b * n : IOS(c)->off + (MPI_Offset)b * IOS(c)->stride;
			memset(buf, 0, (size_t)n);
			IO(MPI_File_read_at(IOS(c)->fh, at, buf, (int)n, MPI_BYTE, MPI_STATUS_IGNORE), "MPI_File_read_at (check_data)");
			long long i = sk_pattern_find(buf, n, c->rank, n, rep, 0);
			if (i < 0) ours++;
			else if (!anywhere) bad(c, c->rank, i, rep, buf);
			else if (first < 0) { /* the first block not ours, to show if too few are */
				first = i;
				memcpy(miss, buf, (size_t)n);
			}
		}
		if (anywhere && ours < nw && first >= 0) bad(c, c->rank, first, rep, miss);
		free(buf);
		break;
	}
	}
}

/* written checks that the file is at least as long as this rank's writes made it (its
 * block of a window's last row; a shared pointer's blocks may be the first): Open MPI
 * 4.1.4's collective writes report every byte written to a full file system. Another
 * process may have written our block (a collective's aggregator), so the members meet
 * first; a file that looks short is synced (sync, barrier, sync: MPI's recipe for
 * seeing others' writes) and looked at again. Collective over comm: every member with
 * the file open calls it. */
void sk_io_written(sk_ctx *c) {
	MPI_Offset n = c->a.bytes, last = (MPI_Offset)(IOS(c)->nw - 1);
	MPI_Offset size = 0, want = c->k->check == IO_CHECK_WRITE ? IOS(c)->off + last * IOS(c)->stride + n : (last + 1) * n;
	int mine = 0, any = 0;
	MPI_Barrier(c->comm);
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			IO(MPI_File_sync(IOS(c)->fh), "MPI_File_sync");
			MPI_Barrier(c->comm);
			IO(MPI_File_sync(IOS(c)->fh), "MPI_File_sync");
		}
		IO(MPI_File_get_size(IOS(c)->fh, &size), "MPI_File_get_size");
		mine = !IOS(c)->err && size < want;
		if (MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, c->comm) != MPI_SUCCESS || !any) return;
	}
	if (!mine) return;
	IOS(c)->err = SK_ERR_FAILED;
	snprintf(sk_failure, sizeof sk_failure, "rank %d: %s on %s: the file holds %lld bytes after writes to byte %lld, and the library reported no error",
	         c->rank, c->k->name, IO_PATH(c), (long long)size, (long long)want);
}
