package onesided_test

import (
	"slices"
	"testing"

	_ "github.com/skampi/skampi/families/all" // the locks' section between the family's
	"github.com/skampi/skampi/ops"
)

// The family's sections keep the catalogue's order (skampi list): the windows' and
// synchronisations' operations, then the locks' (families/locks), then the transposes,
// then the synchronisation calls timed apart, and the many-origin and IMB-RMA
// patterns after the imbalance operations.
func TestOnesidedOrder(t *testing.T) {
	var names []string
	for _, in := range ops.All() {
		if in.OneSided {
			names = append(names, in.Name)
		}
	}
	at := func(name string) int { return slices.Index(names, name) }
	for _, pair := range [][2]string{
		{"Put", "Get"}, {"Win_create_dynamic_free", "Lock_Contention"}, {"Counter_Lock_Get_Put", "Transpose_Put"},
		{"Transpose_Get", "Win_fence_open"}, {"Win_free", "Put_passive_concurrent"}, {"Put_fence_bidirectional", "Put_one_to_all"},
	} {
		if at(pair[0]) < 0 || at(pair[0])+1 != at(pair[1]) {
			t.Errorf("%s is not just before %s among the one-sided operations: %v", pair[0], pair[1], names)
		}
	}
}
