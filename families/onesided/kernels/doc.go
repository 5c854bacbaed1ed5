// Package kernels is the one-sided operations' timed steps (cgo, build tag mpi): each
// RMA operation under every synchronisation mode, the synchronisation calls, SKaMPI's
// and IMB-RMA's patterns, on the engine's window, in tables of their own that join
// ops/mpi's engine when the package is linked in. Without MPI it is empty.
package kernels
