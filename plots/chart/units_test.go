package chart

import (
	"math"
	"testing"
)

// Sizes read as a user writes them; a tick computed as -0 (a one-point axis around
// 0 B) is 0 B.
func TestFmtBytes(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{0, "0 B"}, {math.Copysign(0, -1), "0 B"}, {512, "512 B"}, {4096, "4 KiB"}, {1.5 * (1 << 20), "1.5 MiB"}} {
		if got := FormatBytes(c.v); got != c.want {
			t.Errorf("FormatBytes(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
