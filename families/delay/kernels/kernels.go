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
const sk_table *const *sk_delay_tables(int *n);
*/
import "C"

import (
	"unsafe"

	"github.com/skampi/skampi/ops/mpi"
)

// The table joins the engine's when the program starts (no MPI call).
func init() {
	var n C.int
	t := C.sk_delay_tables(&n)
	mpi.RegisterKernels(unsafe.Pointer(t), int(n))
}
