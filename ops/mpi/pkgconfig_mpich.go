//go:build mpi && mpich && !mpicc

package mpi

// MPICH from its pkg-config file (see pkgconfig_openmpi.go).

/*
#cgo pkg-config: mpich
*/
import "C"
