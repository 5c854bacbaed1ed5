//go:build mpi && !mpich

package mpi

// Build names the MPI library this binary is built against.
const Build = "openmpi"
