// Package kernels is the neighbourhood collectives' timed steps (cgo, build tag mpi):
// the topology made in C from the edges the family computed, the steps, the data
// checks, a table of their own that joins ops/mpi's engine when the package is linked
// in. Without MPI it is empty.
package kernels
