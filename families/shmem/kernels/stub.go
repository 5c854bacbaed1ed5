//go:build !(mpi && shmem)

package kernels

import (
	"errors"
	"time"

	"github.com/skampi/skampi/ops/mpi"
)

// Available reports whether this build links OpenSHMEM.
const Available = false

// Missing says why this build cannot run OpenSHMEM operations: a run records their
// points as denied with it, and never starts OpenSHMEM.
func Missing() string { return missingText(mpi.Build) }

// The runtime is registered without OpenSHMEM too: the run denies its operations
// with Missing.
func init() {
	mpi.RegisterRuntime(mpi.Runtime{Name: mpi.SHMEM, Available: Available, Missing: Missing,
		Start:    func(*mpi.World) error { return errors.New(Missing()) },
		InitTime: func() time.Duration { return 0 },
		Library:  func() (string, string) { return "", "" }})
}
