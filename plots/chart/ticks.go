package chart

import (
	"math"

	"gonum.org/v1/plot"
)

// pow2Ticks marks every power of two in range and labels every step-th one
// (1 B, 8 B, 64 B, ... or 1 B, 16 B, 256 B, ...), at most maxLabels of them.
type pow2Ticks struct{}

const maxLabels = 8

func (pow2Ticks) Ticks(min, max float64) []plot.Tick {
	lo := int(math.Ceil(math.Log2(min) - 1e-9))
	hi := int(math.Floor(math.Log2(max) + 1e-9))
	if hi < lo {
		return []plot.Tick{{Value: min, Label: FormatBytes(min)}, {Value: max, Label: FormatBytes(max)}}
	}
	n := hi - lo + 1
	step := (n + maxLabels - 1) / maxLabels
	for _, s := range []int{1, 2, 3, 4, 5, 10} {
		if s >= step {
			step = s
			break
		}
	}
	var ticks []plot.Tick
	for k := lo; k <= hi; k++ {
		t := plot.Tick{Value: math.Ldexp(1, k)}
		if ((k%step)+step)%step == 0 {
			t.Label = FormatBytes(t.Value)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// bytesLinearTicks marks multiples of a power of two on a linear size axis.
type bytesLinearTicks struct{}

func (bytesLinearTicks) Ticks(min, max float64) []plot.Tick {
	step := 1.0
	for (max-min)/step > maxLabels-1 {
		step *= 2
	}
	var ticks []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: FormatBytes(v)})
	}
	return ticks
}

// logTicks marks a log axis of plotted values: decades when the range spans enough
// of them, else 1-2-5 or every digit, and linear ticks for a very narrow range.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	sets := [][]float64{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}
	var major []float64
	var set int
	for set = range sets {
		major = major[:0]
		for e := lo; e <= hi; e++ {
			for _, m := range sets[set] {
				if v := decimal(m, e); v >= min*(1-1e-9) && v <= max*(1+1e-9) {
					major = append(major, v)
				}
			}
		}
		if len(major) >= 3 {
			break
		}
	}
	if len(major) < 2 {
		return linearTicks{}.Ticks(min, max)
	}
	// Every decade on the axis is labelled (a reader finds 1, 10, 100 and knows the
	// axis is logarithmic); the other values greedily, a tenth of the axis (in
	// decades) away from any label.
	gap := math.Log10(max/min) / 10
	labelled := map[float64]bool{}
	for _, v := range major {
		if l := math.Log10(v); math.Abs(l-math.Round(l)) < 1e-9 {
			labelled[v] = true
		}
	}
	near := func(v float64) bool {
		for w := range labelled {
			if math.Abs(math.Log10(v)-math.Log10(w)) < gap*(1-1e-9) {
				return true
			}
		}
		return false
	}
	for _, v := range major {
		if !labelled[v] && !near(v) {
			labelled[v] = true
		}
	}
	var ticks []plot.Tick
	for _, v := range major {
		t := plot.Tick{Value: v}
		if labelled[v] {
			t.Label = fmtNum(v)
		}
		ticks = append(ticks, t)
	}
	if set < 2 {
		for e := lo; e <= hi; e++ {
			for m := 2.0; m <= 9; m++ {
				if v := decimal(m, e); v >= min && v <= max && !(set == 1 && (m == 2 || m == 5)) {
					ticks = append(ticks, plot.Tick{Value: v})
				}
			}
		}
	}
	return ticks
}

// linearTicks labels a linear axis at 1, 2, 2.5 or 5 times a power of ten, 4 to 8
// labels, with a minor tick between labels.
type linearTicks struct{}

func (linearTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return []plot.Tick{{Value: min, Label: fmtNum(min)}}
	}
	raw := (max - min) / 7
	e := int(math.Floor(math.Log10(raw)))
	step := decimal(10, e)
	for _, m := range []float64{1, 2, 2.5, 5} {
		if s := decimal(m, e); s >= raw*(1-1e-9) {
			step = s
			break
		}
	}
	var ticks []plot.Tick
	for i := math.Ceil(min / step); i*step <= max*(1+1e-12); i++ {
		v := i * step
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: fmtNum(v)})
		if mid := v + step/2; mid <= max {
			ticks = append(ticks, plot.Tick{Value: mid})
		}
	}
	if first := math.Ceil(min/step)*step - step/2; first >= min {
		ticks = append(ticks, plot.Tick{Value: first})
	}
	return ticks
}

// countTicks marks the values present (numbers of processes).
type countTicks []float64

func (c countTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for _, v := range c {
		if v >= min && v <= max {
			ticks = append(ticks, plot.Tick{Value: v, Label: fmtNum(v)})
		}
	}
	return ticks
}

// shareTicks label a share axis from 0 to 1 only: above 1 is room for annotations.
type shareTicks struct{}

func (shareTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (linearTicks{}).Ticks(min, math.Min(max, 1)) {
		if t.Value <= 1+1e-9 {
			out = append(out, t)
		}
	}
	return out
}
