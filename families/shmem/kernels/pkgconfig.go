//go:build mpi && shmem && !mpicc

package kernels

// Open MPI's OpenSHMEM has no pkg-config file of its own: its headers and libraries
// are Open MPI's (the mpicc tag takes them from the wrapper instead).

/*
#cgo pkg-config: ompi-c
*/
import "C"
