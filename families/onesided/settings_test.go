package onesided

import (
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// rma_window: "allocate" by default, the suite's otherwise; one of the engine's kinds
// of window, for one-sided operations only; listed before lock_hold, where the core had
// it, so a one-line suite's text is what it was.
func TestWindowSetting(t *testing.T) {
	if got := window(inputs.Defaults()); got != "allocate" {
		t.Errorf("default window %q", got)
	}
	p, err := inputs.Parse("s.toml", []byte("[settings]\nrma_window = \"dynamic\"\n\n[[measurement]]\nname = \"m\"\nop = \"Put\"\nsizes = [8]\n"))
	if err != nil || window(p.Measurements[0].Settings) != "dynamic" {
		t.Fatalf("%v", err)
	}
	for text, want := range map[string]string{
		"[[measurement]]\nname = \"m\"\nop = \"Put\"\nsizes = [8]\nrma_window = \"shared\"\n":                `s.toml:5:14: measurement 1: rma_window: "shared" is not one of "allocate", "create", "dynamic"`,
		"[[measurement]]\nname = \"m\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\nrma_window = \"create\"\n": "rma_window applies to one-sided MPI operations",
	} {
		if _, err := inputs.Parse("s.toml", []byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	var keys []string
	for _, st := range inputs.SettingList() {
		keys = append(keys, st.Key)
	}
	if i := slices.Index(keys, settingWindow); i < 0 || keys[i+1] != "lock_hold" {
		t.Errorf("settings %v: rma_window not just before lock_hold", keys)
	}
}
