//go:build mpi && !mpich

package mpi

// The library comes from its pkg-config file; the build tag, not only the file, picks
// it, so Go's build cache never hands an Open MPI object to an MPICH build.

/*
#cgo pkg-config: ompi-c
*/
import "C"

// Build names the MPI library this binary is built against.
const Build = "openmpi"
