//go:build mpi && !mpich && !mpicc

package mpi

// The library comes from its pkg-config file; the build tag, not only the file, picks
// it, so Go's build cache never hands an Open MPI object to an MPICH build. With the
// mpicc tag the flags come from the wrapper instead (CGO_CFLAGS, CGO_LDFLAGS: make
// build MPICC=...), and Go's cache keys on those.

/*
#cgo pkg-config: ompi-c
*/
import "C"
