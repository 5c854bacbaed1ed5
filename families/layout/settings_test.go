package layout

import (
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// data_layout and stride: known layouts only, on the operations that take one; a
// strided layout lays out whole elements (doubles, or the datatype's), and stride
// means something only with a strided layout.
func TestDataLayoutSetting(t *testing.T) {
	parse := func(op, sizes, extra string) (*inputs.Plan, error) {
		return inputs.Parse("l.toml", []byte("[[measurement]]\nname = \"m\"\nop = \""+op+"\"\nsizes = "+sizes+"\n"+extra))
	}
	p, err := parse("Put", "[64, 4096]", "data_layout = \"indexed\"\nstride = 4\n")
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Measurements[0].Settings; layoutOf(s) != "indexed" || strideOf(s) != 4 || commitOf(s) != "once" {
		t.Errorf("layout %q stride %d commit %q", layoutOf(s), strideOf(s), commitOf(s))
	}
	if p, err := parse("Pingpong_Send_Recv", "[1, 3]", ""); err != nil || layoutOf(p.Measurements[0].Settings) != "contiguous" {
		t.Errorf("the default: %v", err)
	}
	for _, c := range []struct{ op, sizes, extra, want string }{
		{"Put", "[64]", `data_layout = "diagonal"`, "data_layout"},
		{"Bcast", "[64]", `data_layout = "vector"`, "data_layout applies to"},
		{"Pingpong_Send_Recv", "[64]", "stride = 3", "stride applies to"},
		{"Pingpong_Send_Recv", "[64]", "data_layout = \"vector\"\nstride = 0", "stride"},
		{"Pingpong_Send_Recv", "[12]", `data_layout = "packed"`, "multiple of 8 bytes"},
		{"Pingpong_Send_Recv", "[0]", `data_layout = "struct"`, "multiple of 8 bytes"},
		{"Alltoall", "[4]", "data_layout = \"vector\"\ndatatype = \"double\"", "whole number of double elements"},
	} {
		if _, err := parse(c.op, c.sizes, c.extra+"\n"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s %q: %v, want %q", c.op, c.sizes, c.extra, err, c.want)
		}
	}
	if _, err := parse("Accumulate", "[12]", "data_layout = \"vector\"\ndatatype = \"int\"\n"); err != nil {
		t.Errorf("3 ints: %v", err)
	}
}

// The settings keep the place the core gave them, before target_busy; a strided
// layout's grain is its element, and its message spans stride times its payload.
func TestLayoutSettingsPlaceAndSpan(t *testing.T) {
	var keys []string
	for _, st := range inputs.SettingList() {
		keys = append(keys, st.Key)
	}
	i := slices.Index(keys, settingLayout)
	if i < 0 || !slices.Equal(keys[i:min(len(keys), i+4)], []string{settingLayout, settingCommit, settingStride, "target_busy"}) {
		t.Errorf("settings %v", keys)
	}
	p, err := inputs.Parse("l.toml", []byte("[[measurement]]\nname = \"m\"\nop = \"Pingpong_Send_Recv\"\nsizes = [64]\ndata_layout = \"vector\"\nstride = 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	pp, _ := ops.Lookup("Pingpong_Send_Recv")
	if g := p.Measurements[0].Settings.SizeGrain(pp); g != 8 {
		t.Errorf("grain %d", g)
	}
	if g := inputs.Defaults().SizeGrain(pp); g != 1 {
		t.Errorf("contiguous grain %d", g)
	}
	// The one-line form's default sizes start at the element.
	text, err := inputs.OneLine{Ops: []string{"Pingpong_Send_Recv"}, Settings: [][2]string{{"data_layout", "vector"}}}.Suite()
	if err == nil {
		_, err = inputs.ParseOneLine(text)
	}
	if err != nil {
		t.Errorf("one-line strided ping-pong with its default sizes: %v", err)
	}
}
