// Package kernels is the collectives with one late rank (cgo, build tag mpi), in a
// table of their own that joins ops/mpi's engine when the package is linked in.
// Without MPI it is empty.
package kernels
