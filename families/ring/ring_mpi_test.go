//go:build mpi

package ring

import (
	"testing"

	"github.com/skampi/skampi/internal/familytest"
)

// The built binary measures the ring allgather with every received block checked, at
// 2 to 4 processes (an odd count included) and int elements: every point is measured,
// none with a fault.
//
// The watchdog gets 60 s, as the other oversubscribed tests' does: under go test's
// package parallelism the ring's 4 ranks on 2 busy cores once went 9 s (the default for
// 2 s points) without finishing a step; a hang still ends the job, a minute later.
func TestMeasured(t *testing.T) {
	for _, np := range []int{2, 3, 4} {
		res := familytest.Run(t, np, "Allgather_Ring", "--sizes", "4,4KiB,64KiB", "--datatype", "int", "--check-data",
			"--max-time-per-point", "2s", "--hang-timeout", "60s")
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
