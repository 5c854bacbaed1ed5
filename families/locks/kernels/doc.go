// Package kernels is the MPI locks' and shared counters' timed steps (cgo, build tag
// mpi) on the engine's window, with their checks after every run, a table of their
// own that joins ops/mpi's engine when the package is linked in. Without MPI it is
// empty.
package kernels
