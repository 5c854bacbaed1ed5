package all

import (
	"testing"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/runner"
)

// Every family linked in has some operation of the catalogue.
func TestFamiliesHaveOperations(t *testing.T) {
	owned := map[string]int{}
	for _, op := range ops.All() {
		for _, n := range runner.FamiliesOf(op) {
			owned[n]++
		}
	}
	fams := runner.Families()
	if len(fams) == 0 {
		t.Fatal("no family registered")
	}
	for _, f := range fams {
		if owned[f] == 0 {
			t.Errorf("family %s has no operation of the catalogue", f)
		}
	}
}
