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

// Missing says why this build cannot run OpenSHMEM operations: a run records their
// points as denied with it, and never starts OpenSHMEM.
func Missing() string { return missingText(mpi.Build) }

// Start reports that this build has no OpenSHMEM.
func Start(*mpi.World) error { return errors.New(Missing()) }

// InitTime is zero without OpenSHMEM.
func InitTime() time.Duration { return 0 }

// Library is empty without OpenSHMEM.
func Library() (name, version string) { return "", "" }
