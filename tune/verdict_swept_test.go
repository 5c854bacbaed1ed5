package tune

import (
	"slices"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// A tune sweeping settings matches points without the setup fields they set: the
// core's by its own table, a family's as the family says (lock_hold: hold_s; the busy
// target's computation: its time, poll and period); a setting held at one value, or a
// library parameter, leaves every field in.
func TestSweptSetupFields(t *testing.T) {
	two := []string{"a", "b"}
	tu := &inputs.Tune{Params: []inputs.Param{
		{Kind: "setting", Name: "timer", Values: two},
		{Kind: "setting", Name: "lock_hold", Values: two},
		{Kind: "setting", Name: "target_busy", Values: two},
		{Kind: "setting", Name: "delay", Values: []string{"a"}},
		{Kind: "mca", Name: "btl_vader_eager_limit", Values: two},
		{Kind: "setting", Name: "io_dir", Values: two},
	}}
	want := []string{"timer", "hold_s", "target_busy_s", "poll", "poll_every"}
	if got := swept(tu); !slices.Equal(got, want) {
		t.Errorf("swept %v, want %v", got, want)
	}
}
