package job

import (
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/ops/mpi"
)

// Refused says why this binary cannot run an operation, "" when it can: OpenSHMEM's
// in a build without it (an MPICH build), an MPI routine the library does not provide
// (MPI_Psend_init in Open MPI 4.1). A run records its points as denied with the same
// reason; skampi list and check say it beforehand.
func Refused(in ops.Info) string {
	if in.SHMEM {
		return shmemRuntime().Missing()
	}
	return mpi.UnsupportedReason(in.Kernel)
}

// shmemRuntime is OpenSHMEM as its kernels registered it with ops/mpi (linked in with
// its family, families/all): the real one, or the stub of a build without it.
func shmemRuntime() mpi.Runtime { return mpi.RuntimeNamed(mpi.SHMEM) }
