//go:build mpi

package kernels

// The engine's header, and the library's flags as ops/mpi takes them (pkg-config by
// the build tag; with mpicc, the wrapper's in CGO_CFLAGS). MPICH's MPI_STATUSES_IGNORE
// is a zero-sized array: -Wstringop-overflow's false alarm on every MPI_Waitall.

/*
#cgo CFLAGS: -O2 -I${SRCDIR}/../../../ops/mpi
#cgo !mpich,!mpicc pkg-config: ompi-c
#cgo mpich,!mpicc pkg-config: mpich
#cgo mpich CFLAGS: -Wno-stringop-overflow
#include "skampi.h"
const sk_table *const *sk_io_tables(int *n);
const char *sk_io_hints(const sk_ctx *c);
*/
import "C"

import (
	"strings"
	"unsafe"

	"github.com/skampi/skampi/ops/mpi"
)

// The table joins the engine's when the program starts (no MPI call), with the
// family's words for a failure.
func init() {
	var n C.int
	t := C.sk_io_tables(&n)
	mpi.RegisterKernels(unsafe.Pointer(t), int(n), explain)
}

// Hints are the hints the library reported for an MPI-IO operation's file
// (MPI_File_get_info after the open: cb_buffer_size, romio_cb_write, striping_unit,
// ...), as this rank saw them, read from its prepared C context (mpi.Op.Ctx); nil
// without one.
func Hints(ctx unsafe.Pointer) map[string]string {
	if ctx == nil {
		return nil
	}
	h := map[string]string{}
	for _, line := range strings.Split(C.GoString(C.sk_io_hints((*C.sk_ctx)(ctx))), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			h[k] = v
		}
	}
	return h
}
