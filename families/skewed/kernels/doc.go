// Package kernels is the skewed all-to-all's timed step (cgo, build tag mpi) with its
// own data check, in a table of its own that joins ops/mpi's engine when the package
// is linked in. Without MPI it is empty.
package kernels
