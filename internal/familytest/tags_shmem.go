//go:build shmem

package familytest

const buildTags = "mpi,shmem"
