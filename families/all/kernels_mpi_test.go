//go:build mpi

package all

import (
	"maps"
	"slices"
	"testing"

	shmem "github.com/skampi/skampi/families/shmem/kernels"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/ops/mpi"
)

// With every family linked in, as in skampi, the kernel tables and the catalogue
// agree: every kernel an operation or one of its methods names is in a table (the
// engine's or a family's own), and every kernel of a table serves some operation.
// Reads the tables only: no MPI_Init.
func TestCatalogueKernelsRegistered(t *testing.T) {
	used := map[string][]string{}
	for _, in := range ops.All() {
		if in.SHMEM && !shmem.Available {
			continue // this build has no OpenSHMEM: its operations are denied
		}
		used[in.Kernel] = append(used[in.Kernel], in.Name)
		for _, m := range in.Methods {
			used[m.Kernel] = append(used[m.Kernel], in.Name+", method "+m.Name)
		}
	}
	kernels := mpi.Kernels()
	for _, k := range slices.Sorted(maps.Keys(used)) {
		if !slices.Contains(kernels, k) {
			t.Errorf("kernel %q (%v) is in no kernel table", k, used[k])
		}
	}
	for _, k := range kernels {
		if _, ok := used[k]; !ok {
			t.Errorf("kernel %q serves no operation of the catalogue", k)
		}
	}
}
