//go:build !(mpi && shmem)

package shmem

import (
	"errors"
	"time"

	"github.com/skampi/skampi/ops/mpi"
)

// Available reports whether this build links OpenSHMEM.
const Available = false

// Register does nothing without OpenSHMEM.
func Register() {}

// Start reports that this build has no OpenSHMEM.
func Start(*mpi.World) error {
	return errors.New("this skampi was built without OpenSHMEM: build it with `make build` where shmem.h is installed (go build -tags mpi,shmem)")
}

// InitTime is zero without OpenSHMEM.
func InitTime() time.Duration { return 0 }

// Library is empty without OpenSHMEM.
func Library() (name, version string) { return "", "" }
