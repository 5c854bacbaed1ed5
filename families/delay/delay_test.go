package delay

import (
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/inputs"
)

// delay: a late partner's busy wait, zero allowed (none), at most a second; it applies
// to the operations with a late partner only.
func TestDelaySetting(t *testing.T) {
	parse := func(op, delay string) (*inputs.Plan, error) {
		return inputs.Parse("d.toml", []byte("[[measurement]]\nname = \"m\"\nop = \""+op+"\"\nsizes = [8]\ndelay = "+delay+"\n"))
	}
	for in, want := range map[string]time.Duration{`"0s"`: 0, `"0"`: 0, `"0us"`: 0, `"20us"`: 20 * time.Microsecond, `"1s"`: time.Second} {
		p, err := parse("Win_start", in)
		if err != nil {
			t.Errorf("delay = %s: %v", in, err)
			continue
		}
		if got := delayOf(p.Measurements[0].Settings); got != want {
			t.Errorf("delay = %s: %v, want %v", in, got, want)
		}
	}
	for _, in := range []string{`"2s"`, `"-5us"`, `20`, `"soon"`} {
		if _, err := parse("Win_start", in); err == nil || !strings.Contains(err.Error(), "delay") {
			t.Errorf("delay = %s accepted (%v)", in, err)
		}
	}
	if _, err := parse("Win_post", `"20us"`); err == nil || !strings.Contains(err.Error(), "delay") {
		t.Errorf("delay on an operation without a late partner: %v", err)
	}
}
