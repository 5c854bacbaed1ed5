// Package kernels is the multi-threaded operations' C (cgo, build tag mpi): their
// threads (mt.c), what each thread does in a step (mt_steps.c), and the table that
// joins ops/mpi's engine when the package is linked in; ThreadStats reads what the
// threads did. Without MPI it is a stub.
package kernels
