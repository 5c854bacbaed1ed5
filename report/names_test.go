package report

import (
	"slices"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// The setting values a point may record are inputs' own.
func TestNamesAreTheSettings(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want []string
	}{
		{"timer", timers, []string{inputs.TimerGlobalLoop, inputs.TimerIteration}},
		{"rma_window", rmaWins, ops.RMAWindows},
		{"cache", caches, []string{inputs.CacheWarm, inputs.CacheCold}},
		{"recv_slots", recvSlots, []string{inputs.RecvSlotsShared, inputs.RecvSlotsPerMessage}},
		{"poll", polls, ops.Polls},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %v, inputs has %v", c.name, c.got, c.want)
		}
	}
	for _, s := range syncs {
		if _, err := inputs.Parse("t.toml", []byte("[settings]\nsync = \""+s+"\"\n[[measurement]]\nname = \"b\"\nop = \"Barrier\"\nsizes = [0]\n")); err != nil {
			t.Errorf("sync %q: %v", s, err)
		}
	}
	if _, err := inputs.Parse("t.toml", []byte("[settings]\nsync = \"sundial\"\n[[measurement]]\nname = \"b\"\nop = \"Barrier\"\nsizes = [0]\n")); err == nil {
		t.Error("an unknown sync is accepted by inputs: the list here cannot be checked")
	}
}
