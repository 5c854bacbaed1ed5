//go:build !shmem

package familytest

// buildTags: the tags skampi is built with for a test that has no SKAMPI_BIN; a test
// built for OpenSHMEM (tag shmem) gets a skampi that has it (tags_shmem.go).
const buildTags = "mpi"
