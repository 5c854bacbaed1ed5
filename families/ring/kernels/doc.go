// Package kernels is the ring algorithms' timed steps (cgo, build tag mpi): a table of
// its own that joins ops/mpi's engine when the package is linked in. Without MPI it is
// empty.
package kernels
