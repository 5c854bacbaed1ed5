package record

import (
	"reflect"
	"testing"
)

// A point's family settings key its setup in name order, come back as fields after the
// built-in ones, and one can be left out of the key (Without) like a built-in.
func TestFamilySettingsInSetup(t *testing.T) {
	p := Point{Op: "X", MsgBytes: 8, NProcs: 2, Timer: "iteration"}
	p.SetFamilySetting("segment", "1024")
	p.SetFamilySetting("depth", "3")
	q := p
	q.FamilySettings = map[string]string{"depth": "3", "segment": "1024"}
	if p.Setup() != q.Setup() {
		t.Errorf("setups of equal settings differ: %+v, %+v", p.Setup(), q.Setup())
	}
	q.FamilySettings = map[string]string{"depth": "4", "segment": "1024"}
	if p.Setup() == q.Setup() {
		t.Error("setups of different settings are equal")
	}
	want := []Field{{"timer", "iteration"}, {"depth", "3"}, {"segment", "1024"}}
	if got := p.Setup().Settings(); !reflect.DeepEqual(got, want) {
		t.Errorf("settings %v, want %v", got, want)
	}
	if got := p.Setup().Without("depth").Settings(); !reflect.DeepEqual(got, []Field{{"timer", "iteration"}, {"segment", "1024"}}) {
		t.Errorf("without depth: %v", got)
	}
	var none Point
	if got := none.Setup().FamilySettings; got != "" {
		t.Errorf("no family settings keyed %q", got)
	}
}
