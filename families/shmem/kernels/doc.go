// Package kernels runs OpenSHMEM operations (cgo, build tags mpi and shmem): its C
// kernels join ops/mpi's engine when the package is linked in and run on it, with
// symmetric buffers from shmem_malloc; it registers OpenSHMEM's runtime with ops/mpi
// (mpi.RegisterRuntime), which the run starts. Without the tags a stub registers it
// as missing, saying why.
package kernels
