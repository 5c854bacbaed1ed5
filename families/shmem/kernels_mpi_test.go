//go:build mpi && shmem

package shmem

import (
	"slices"
	"testing"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/ops/mpi"
)

// Every OpenSHMEM operation of the catalogue names a kernel of kernels/' table,
// and every kernel of the table serves one. Reads the tables only: no shmem_init.
func TestKernelTableMatchesCatalogue(t *testing.T) {
	kernels := mpi.Kernels()
	used := map[string]bool{}
	for _, in := range ops.All() {
		if !in.SHMEM {
			continue
		}
		for _, k := range append([]string{in.Kernel}, kernelsOf(in)...) {
			used[k] = true
			if !slices.Contains(kernels, k) {
				t.Errorf("%s: kernel %q is not in the table", in.Name, k)
			}
		}
	}
	for _, k := range kernels {
		if len(k) > 6 && k[:6] == "shmem_" && !used[k] {
			t.Errorf("kernel %q serves no operation", k)
		}
	}
}

func kernelsOf(in ops.Info) []string {
	var out []string
	for _, m := range in.Methods {
		out = append(out, m.Kernel)
	}
	return out
}
