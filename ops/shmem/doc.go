// Package shmem runs OpenSHMEM operations (cgo, build tags mpi and shmem): its C
// kernels join ops/mpi's kernel table and run on its engine, with symmetric buffers
// from shmem_malloc. Without the tags a stub says so.
package shmem
