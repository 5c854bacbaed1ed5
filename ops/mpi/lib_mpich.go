//go:build mpi && mpich

package mpi

// MPICH (make build MPI=mpich; Debian's libmpich-dev).

/*
// MPICH defines MPI_STATUS(ES)_IGNORE as (MPI_Status *)1, which gcc 12 takes for a
// zero-sized array (-Wstringop-overflow): a false alarm on every MPI_Wait(all).
#cgo CFLAGS: -Wno-stringop-overflow
*/
import "C"

// Build names the MPI library this binary is built against.
const Build = "mpich"
