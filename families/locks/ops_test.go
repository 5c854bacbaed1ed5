package locks

import (
	"testing"

	"github.com/skampi/skampi/ops"
)

// The locks and counters are one-sided operations of every process of the
// communicator, rank 0 the target: one process alone has nobody to contend with.
func TestLocksOps(t *testing.T) {
	for _, name := range []string{"Lock_Contention", "Lock_Held", "Counter_Fetch_and_op", "Counter_Lock_Get_Put"} {
		in, ok := ops.Lookup(name)
		if !ok || in.Family != "locks" || !in.OneSided || in.Pattern != ops.PatternAll || in.MinProcs != 2 || !in.NoData {
			t.Errorf("%s: %+v", name, in)
		}
	}
	if held, _ := ops.Lookup("Lock_Held"); !held.LockHold || held.Pattern != ops.PatternAll {
		t.Errorf("Lock_Held: %+v", held)
	}
	if lc, _ := ops.Lookup("Lock_Contention"); len(lc.MethodNames()) != 2 || lc.KernelFor("shared") != "lock_contention" {
		t.Errorf("Lock_Contention's methods %v", lc.MethodNames())
	}
}
