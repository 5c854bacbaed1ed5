package chart

import "math"

func zeroOf(q Quantity) string {
	if q == Bytes {
		return "0 B"
	}
	return "a value"
}

// SpansDecade says whether the positive values span more than a factor of ten: what
// AutoScale draws on a log axis.
func SpansDecade(vs []float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if v > 0 {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return hi > 10*lo
}

func useLog(s Scale, vs []float64) bool {
	switch s {
	case Log:
		return true
	case Linear:
		return false
	}
	return SpansDecade(vs)
}

// makeAxis chooses the unit from the values (in base units): from the geometric middle
// of a log axis, from the largest magnitude of a linear one.
func makeAxis(s AxisSpec, log bool, vs []float64) Axis {
	lo, hi := math.Inf(1), 0.0
	for _, v := range vs {
		if a := math.Abs(v); a > 0 {
			lo, hi = math.Min(lo, a), math.Max(hi, a)
		}
	}
	ref := hi
	if log && hi > 0 {
		ref = math.Sqrt(lo * hi)
	}
	u := chooseUnit(s.Quantity, ref)
	label := s.Label
	if u.name != "" {
		label += " [" + u.name + "]"
	}
	return Axis{Quantity: s.Quantity, Label: label, Unit: u.name, Div: u.div, Log: log}
}

func scaled(vs []float64, div float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = v / div
	}
	return out
}

// valueRange pads a value axis: 5% of the decades on a log axis; on a linear axis it
// starts at zero (or below, for negative values) and leaves 6% above.
func valueRange(lo, hi float64, log bool, q Quantity) (float64, float64) {
	if log {
		l, h := math.Log10(lo), math.Log10(hi)
		pad := math.Max(h-l, 0.3) * 0.05
		return math.Pow(10, l-pad), math.Pow(10, h+pad)
	}
	if q != Ratio {
		lo = math.Min(lo, 0)
	}
	span := hi - lo
	if span == 0 {
		span = math.Max(math.Abs(hi), 1)
	}
	if lo < 0 || q == Ratio {
		lo -= 0.06 * span
	}
	return lo, hi + 0.06*span
}

// positionRange pads a position axis (sizes, processes) so markers are not cut.
func positionRange(lo, hi float64, log bool) (float64, float64) {
	if log {
		l, h := math.Log10(lo), math.Log10(hi)
		pad := math.Max(h-l, 0.3) * 0.03
		return math.Pow(10, l-pad), math.Pow(10, h+pad)
	}
	span := hi - lo
	if span == 0 {
		span = math.Max(math.Abs(hi), 1)
	}
	return lo - 0.04*span, hi + 0.04*span
}
