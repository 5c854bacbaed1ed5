//go:build mpi

package ring

import (
	"testing"

	"github.com/skampi/skampi/internal/familytest"
)

// The built binary measures the ring allgather with every received block checked, at
// 2 to 4 processes (an odd count included) and int elements: every point is measured,
// none with a fault.
func TestMeasured(t *testing.T) {
	for _, np := range []int{2, 3, 4} {
		res := familytest.Run(t, np, "Allgather_Ring", "--sizes", "4,4KiB,64KiB", "--datatype", "int", "--check-data",
			"--max-time-per-point", "2s")
		if len(res.Points) != 3 {
			t.Errorf("np %d: %d points, want 3", np, len(res.Points))
		}
		for _, p := range res.Points {
			if p.NProcs != np || !(p.TimeS > 0) {
				t.Errorf("np %d: a point of %d processes, time %g", np, p.NProcs, p.TimeS)
			}
		}
	}
}
