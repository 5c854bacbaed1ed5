package onesided

import (
	"slices"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// The family's built-in suites load and plan at 2 and 4 processes; onesided measures
// one-sided operations beside the two-sided ping-pong, sync-semantics every
// synchronisation call timed apart.
func TestSuites(t *testing.T) {
	for _, name := range []string{"onesided", "sync-semantics"} {
		if !slices.Contains(inputs.BuiltinNames(), name) {
			t.Fatalf("built-in suites %v: no %s", inputs.BuiltinNames(), name)
		}
		plan, err := inputs.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, np := range []int{2, 4} {
			if _, err := plan.Expand(inputs.Job{NProcs: np}); err != nil {
				t.Errorf("%s at %d processes: %v", name, np, err)
			}
		}
		measured := map[string]bool{}
		for _, m := range plan.Measurements {
			measured[m.Op.Name] = true
			if !m.Op.OneSided && m.Op.Name != "Pingpong_Send_Recv" {
				t.Errorf("suite %s measures %s, not a one-sided operation", name, m.Op.Name)
			}
		}
		if name == "sync-semantics" {
			for _, in := range ops.All() {
				if in.OneSided && in.CallTimed && !measured[in.Name] && !slices.Contains(lockCalls, in.Name) {
					t.Errorf("suite %s does not measure %s", name, in.Name)
				}
			}
		}
	}
}

// lockCalls: the lock calls timed apart with no late partner, which the suite onesided
// measures.
var lockCalls = []string{"Win_lock", "Win_unlock"}
