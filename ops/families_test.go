package ops_test

// The coverage table (skampi_shmem.go), the deny-list and the symmetric memory name
// OpenSHMEM's operations, which families/shmem registers: ops' tests hold them to a
// catalogue with that family's operations in it.
import _ "github.com/skampi/skampi/families/shmem"
