package skewed

import (
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// ratio: 4 by default, 1 to 2^20, for Alltoallv_Skewed only; listed before
// halo_compute, where the core had it (a one-line suite's text, skampi run --help).
func TestRatioSetting(t *testing.T) {
	if got := ratioOf(inputs.Defaults()); got != 4 {
		t.Errorf("default ratio %d", got)
	}
	parse := func(op, v string) (*inputs.Plan, error) {
		return inputs.Parse("r.toml", []byte("[[measurement]]\nname = \"m\"\nop = \""+op+"\"\nsizes = [8]\nratio = "+v+"\n"))
	}
	if p, err := parse("Alltoallv_Skewed", "16"); err != nil || ratioOf(p.Measurements[0].Settings) != 16 {
		t.Errorf("ratio = 16: %v", err)
	}
	for _, v := range []string{"0", "2000000", `"4"`} {
		if _, err := parse("Alltoallv_Skewed", v); err == nil || !strings.Contains(err.Error(), "ratio") {
			t.Errorf("ratio = %s accepted (%v)", v, err)
		}
	}
	if _, err := parse("Alltoallv", "4"); err == nil || !strings.Contains(err.Error(), "ratio applies to Alltoallv_Skewed") {
		t.Errorf("ratio of Alltoallv: %v", err)
	}
	var keys []string
	for _, st := range inputs.SettingList() {
		keys = append(keys, st.Key)
	}
	if i := slices.Index(keys, settingRatio); i < 0 || i+1 >= len(keys) || keys[i+1] != "halo_compute" {
		t.Errorf("settings %v: ratio not just before halo_compute", keys)
	}
}
