package chart

import (
	"fmt"
	"math"
	"strconv"
)

// Quantity is what an axis shows; it decides the unit and the ticks.
type Quantity int

const (
	Bytes   Quantity = iota // message size in bytes: ticks at powers of two, B/KiB/MiB/GiB
	Seconds                 // time: ns, µs, ms or s, chosen from the data
	Rate                    // bytes per second: MB/s or GB/s, chosen from the data
	Count                   // a count such as processes: ticks at the values present
	Ratio                   // a plain number (a ratio, a fraction)
)

// Scale chooses a linear or a logarithmic axis.
type Scale int

const (
	AutoScale Scale = iota // log when the values are positive and span more than a decade
	Linear
	Log
)

// unit is a display unit: plotted value = value in base units / div.
type unit struct {
	name string
	div  float64
}

// chooseUnit picks the unit in which ref (a typical value, in base units) reads best.
func chooseUnit(q Quantity, ref float64) unit {
	switch q {
	case Seconds:
		for _, u := range []unit{{"s", 1}, {"ms", 1e-3}, {"µs", 1e-6}} {
			if ref >= u.div*(1-1e-9) {
				return u
			}
		}
		return unit{"ns", 1e-9}
	case Rate:
		if ref >= 1e9*(1-1e-9) {
			return unit{"GB/s", 1e9}
		}
		return unit{"MB/s", 1e6}
	}
	return unit{"", 1}
}

// decimal is m×10^e without binary rounding noise (3×10^-1 is 0.3, not 0.30000000000000004).
func decimal(m float64, e int) float64 {
	v, _ := strconv.ParseFloat(fmt.Sprintf("%ge%d", m, e), 64)
	return v
}

// fmtNum prints a tick value plainly: 0.5, 20, 1000, 1e+06.
func fmtNum(v float64) string {
	if a := math.Abs(v); a != 0 && (a < 1e-3 || a >= 1e6) {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if len(s) > 8 { // 0.30000001 from a linear ticker: keep 4 significant digits
		s = strconv.FormatFloat(v, 'g', 4, 64)
	}
	return s
}

// FormatBytes prints a size with a binary unit: 512 B, 4 KiB, 1.5 MiB.
func FormatBytes(v float64) string {
	if v == 0 {
		v = 0 // a tick computed as -0 reads "0 B", not "-0 B"
	}
	for _, u := range []struct {
		s string
		m float64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if math.Abs(v) >= u.m {
			return strconv.FormatFloat(v/u.m, 'g', 4, 64) + " " + u.s
		}
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " B"
}

// ShortSeconds prints a time in two or three digits, for labels: 3.1 µs, 152 µs.
func ShortSeconds(s float64) string {
	u := chooseUnit(Seconds, s)
	v := s / u.div
	if math.Abs(v) < 9.95 {
		return fmt.Sprintf("%.1f %s", v, u.name)
	}
	return fmt.Sprintf("%.0f %s", v, u.name)
}
