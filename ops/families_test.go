package ops_test

// The coverage table (skampi_shmem.go), the deny-list and the symmetric memory name
// operations the families register (OpenSHMEM's): ops' tests hold the catalogue as
// skampi has it, every family linked in.
import _ "github.com/skampi/skampi/families/all"
