package all

import (
	"testing"

	"github.com/skampi/skampi/inputs"
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

// Every family setting listed before another names one some family registers: none is
// left at the end of the list (skampi run --help, a one-line suite's text).
func TestSettingsPlaced(t *testing.T) {
	if left := inputs.SettingsPlaced(); len(left) > 0 {
		t.Errorf("settings placed before a setting nobody registers: %v", left)
	}
}
