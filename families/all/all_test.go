package all

import (
	"testing"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/runner"
)

// Every operation of the catalogue belongs to at most one family, and every family
// linked in owns some operation of it.
func TestFamiliesOwnTheCatalogue(t *testing.T) {
	owned := map[string]int{}
	for _, op := range ops.All() {
		names := runner.Owners(op)
		if len(names) > 1 {
			t.Errorf("%s belongs to %d families: %v", op.Name, len(names), names)
		}
		for _, n := range names {
			owned[n]++
		}
	}
	fams := runner.Families()
	if len(fams) == 0 {
		t.Fatal("no family registered")
	}
	for _, f := range fams {
		if owned[f] == 0 {
			t.Errorf("family %s owns no operation of the catalogue", f)
		}
	}
}
