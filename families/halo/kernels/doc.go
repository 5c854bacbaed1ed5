// Package kernels is the halo exchanges' timed steps (cgo, build tag mpi): two-sided,
// and one-sided on the engine's window under PSCW and fences, each computing for
// halo_compute while its rows are in flight, in a table of their own that joins
// ops/mpi's engine when the package is linked in. Without MPI it is empty.
package kernels
