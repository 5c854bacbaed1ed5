package chart

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

func ticks(m plot.Ticker, lo, hi float64) (labels []string, all int) {
	for _, t := range m.Ticks(lo, hi) {
		all++
		if t.Label != "" {
			labels = append(labels, t.Label)
		}
	}
	return labels, all
}

func TestTicks(t *testing.T) {
	cases := []struct {
		m      plot.Ticker
		lo, hi float64
		want   string
	}{
		{pow2Ticks{}, 0.9, 4.2e6, "1 B,8 B,64 B,512 B,4 KiB,32 KiB,256 KiB,2 MiB"},
		{pow2Ticks{}, 1000, 300000, "1 KiB,4 KiB,16 KiB,64 KiB,256 KiB"},
		{logTicks{}, 0.5, 2000, "1,10,100,1000"},
		{logTicks{}, 5.8, 32, "6,8,10,20,30"},
		{logTicks{}, 1.1, 1.6, "1.1,1.2,1.3,1.4,1.5,1.6"},
		{logTicks{}, 0.65, 2.2, "0.7,0.8,1,2"}, // the decade always labelled
		{logTicks{}, 0.55, 2.5, "0.6,0.7,1,2"},
		{linearTicks{}, 0, 7.1, "0,2,4,6"},
		{linearTicks{}, 0, 13, "0,2,4,6,8,10,12"},
		{linearTicks{}, 0, 0.031, "0,0.005,0.01,0.015,0.02,0.025,0.03"},
	}
	for _, c := range cases {
		labels, _ := ticks(c.m, c.lo, c.hi)
		if got := strings.Join(labels, ","); got != c.want {
			t.Errorf("%T %g..%g: %s, want %s", c.m, c.lo, c.hi, got, c.want)
		}
	}
	if _, all := ticks(pow2Ticks{}, 0.9, 4.2e6); all != 23 {
		t.Errorf("%d ticks for 23 powers of two", all)
	}
}
