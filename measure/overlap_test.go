package measure

import (
	"math"
	"testing"
)

func TestOverlapRatio(t *testing.T) {
	for _, c := range []struct {
		name            string
		notHidden, full Estimate
		want            Ratio
	}{
		// 10 µs full, 4 µs not hidden: 60 % hidden; se = hypot(0.2/10, 0.4*0.5/10).
		{"partial", Estimate{4e-6, 0.2e-6}, Estimate{10e-6, 0.5e-6}, Ratio{Ratio: 0.6, Raw: 0.6, SE: math.Hypot(0.02, 0.02)}},
		{"none", Estimate{10e-6, 0}, Estimate{10e-6, 0}, Ratio{Ratio: 0, Raw: 0}},
		{"all", Estimate{0, 0}, Estimate{10e-6, 0}, Ratio{Ratio: 1, Raw: 1}},
		// More time in the calls than without computation: negative, clamped, kept raw.
		{"worse", Estimate{12e-6, 0}, Estimate{10e-6, 0}, Ratio{Ratio: 0, Raw: -0.2, Clamped: true}},
		// A subtraction that went below zero: more than everything hidden.
		{"noise", Estimate{-1e-6, 0}, Estimate{10e-6, 0}, Ratio{Ratio: 1, Raw: 1.1, Clamped: true}},
	} {
		got, ok := OverlapRatio(c.notHidden, c.full)
		if !ok || !near(got.Ratio, c.want.Ratio) || !near(got.Raw, c.want.Raw) || !near(got.SE, c.want.SE) || got.Clamped != c.want.Clamped {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	for _, full := range []float64{0, -1, math.NaN()} {
		if _, ok := OverlapRatio(Estimate{1, 0}, Estimate{full, 0}); ok {
			t.Errorf("full %v gave a ratio", full)
		}
	}
}

func TestEstimateSumAgrees(t *testing.T) {
	s := Estimate{3, 0.3}.Sum(Estimate{4, 0.4})
	if !near(s.V, 7) || !near(s.SE, 0.5) {
		t.Errorf("%+v", s)
	}
	if !s.Agrees(Estimate{8.4, 0}, 0) || s.Agrees(Estimate{8.6, 0}, 0) || !s.Agrees(Estimate{8.6, 0}, 0.2) {
		t.Error("3 sigma = 1.5 around 7 (or 20 % of the larger)")
	}
}
