// Package kernels is the MPI-IO family's timed steps (cgo, build tag mpi): SKaMPI's
// MPI_IO measurements and IMB-IO's, a table of their own that joins ops/mpi's engine
// when the package is linked in, and the family's words for a failed call (a full or
// read-only file system). Without MPI it is empty.
package kernels
