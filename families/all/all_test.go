package all

import (
	"fmt"
	"slices"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
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

// A family's sample value (FamilySetting.Sample) is one a suite may give every operation
// it is offered for: tests that measure the whole catalogue set it.
func TestSampleSettingsParse(t *testing.T) {
	offered := 0
	for _, op := range ops.All() {
		for _, kv := range inputs.SampleSettings(op) {
			offered++
			sizes := "[64]"
			if op.NoData {
				sizes = "[0]"
			}
			text := fmt.Sprintf("[[measurement]]\nname = \"m\"\nop = %q\nsizes = %s\n%s = %s\n", op.Name, sizes, kv[0], kv[1])
			if _, err := inputs.Parse("s.toml", []byte(text)); err != nil {
				t.Errorf("%s, %s = %s: %v", op.Name, kv[0], kv[1], err)
			}
		}
	}
	if offered == 0 {
		t.Error("no family offers a sample setting")
	}
}

// What a family setting says its value sets in a point's setup (FamilySetting.Recorded,
// which a tune sweeping it leaves out when it matches points) names setup fields: the
// record's, or the setting's own name, as Point.SetFamilySetting records it.
func TestRecordedSetupFields(t *testing.T) {
	families := 0
	for _, st := range inputs.SettingList() {
		fields, ok := inputs.RecordedAs(st.Key)
		if !ok {
			continue
		}
		families++
		for _, f := range fields {
			if f != st.Key && !slices.Contains(record.SettingNames, f) {
				t.Errorf("setting %s: recorded as %q, no field of a point's setup", st.Key, f)
			}
		}
	}
	if families == 0 {
		t.Error("no family setting registered")
	}
}
