package halo

import (
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/inputs"
)

// halo_compute: a halo step's computation, zero allowed (none), at most a second; it
// applies to the halo exchanges only.
func TestHaloComputeSetting(t *testing.T) {
	parse := func(op, v string) (*inputs.Plan, error) {
		return inputs.Parse("h.toml", []byte("[[measurement]]\nname = \"m\"\nop = \""+op+"\"\nsizes = [8]\nhalo_compute = "+v+"\n"))
	}
	for _, op := range []string{"Halo_Twosided", "Halo_Onesided_PSCW", "Halo_Onesided_Fence"} {
		for in, want := range map[string]time.Duration{`"0s"`: 0, `"0"`: 0, `"50us"`: 50 * time.Microsecond, `"1s"`: time.Second} {
			p, err := parse(op, in)
			if err != nil {
				t.Errorf("%s, halo_compute = %s: %v", op, in, err)
				continue
			}
			if got := computeOf(p.Measurements[0].Settings); got != want {
				t.Errorf("%s, halo_compute = %s: %v, want %v", op, in, got, want)
			}
		}
	}
	for _, in := range []string{`"2s"`, `"-5us"`, `20`, `"long"`} {
		if _, err := parse("Halo_Twosided", in); err == nil || !strings.Contains(err.Error(), "halo_compute") {
			t.Errorf("halo_compute = %s accepted (%v)", in, err)
		}
	}
	if _, err := parse("Sendrecv_Shift", `"20us"`); err == nil || !strings.Contains(err.Error(), "halo_compute") {
		t.Errorf("halo_compute on an operation that does not compute: %v", err)
	}
}
