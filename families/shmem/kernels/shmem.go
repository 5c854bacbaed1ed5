//go:build mpi && shmem

package kernels

/*
#cgo CFLAGS: -O2 -I${SRCDIR}/../../../ops/mpi
#cgo LDFLAGS: -loshmem
#include "shmem_kernels.h"
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/skampi/skampi/ops/mpi"
)

// Available reports whether this build links OpenSHMEM.
const Available = true

// Missing is empty: this build runs OpenSHMEM operations.
func Missing() string { return "" }

// The kernels join ops/mpi's engine, which prepares and runs them like its own, and
// OpenSHMEM's runtime is registered, when the program starts (no OpenSHMEM call).
func init() {
	var n C.int
	t := C.sk_shmem_tables(&n)
	mpi.RegisterKernels(unsafe.Pointer(t), int(n))
	mpi.RegisterRuntime(mpi.Runtime{Name: mpi.SHMEM, Available: Available, Missing: Missing,
		Start: start, InitTime: func() time.Duration { return initTime }, Library: library})
}

// start starts OpenSHMEM on every rank of a running MPI world (collective):
// shmem_init, and shmem_finalize before MPI's own finalisation. PE numbers must be
// the world's ranks.
func start(w *mpi.World) error {
	t0 := time.Now()
	rc := C.sk_shmem_init(C.int(w.Rank()), C.int(w.Size()))
	initTime = time.Since(t0)
	mpi.RearmCrashReport() // over any handler the transport installed
	if rc != 0 {
		return fmt.Errorf("shmem_init: OpenSHMEM's PE numbers are not MPI_COMM_WORLD's ranks (PE %d of %d)", w.Rank(), w.Size())
	}
	w.BeforeFinalize(func() { C.sk_shmem_finalize() })
	return nil
}

// initTime: how long shmem_init took in start on this PE (after MPI_Init; skampi
// startup).
var initTime time.Duration

// library names the OpenSHMEM library (shmem_info_get_name) and the version of the
// specification it implements.
func library() (name, version string) {
	var buf [256]C.char
	var major, minor C.int
	C.sk_shmem_info(&buf[0], C.int(len(buf)), &major, &minor)
	return C.GoString(&buf[0]), fmt.Sprintf("%d.%d", major, minor)
}
