package report

import (
	"fmt"
	"math"
)

// Seconds prints a duration in seconds with a unit that keeps 3-4 significant digits.
func Seconds(s float64) string {
	a := math.Abs(s)
	switch {
	case a == 0:
		return "0"
	case a < 1e-6:
		return fmt.Sprintf("%.1f ns", s*1e9)
	case a < 1e-3:
		return fmt.Sprintf("%.3f µs", s*1e6)
	case a < 1:
		return fmt.Sprintf("%.3f ms", s*1e3)
	}
	return fmt.Sprintf("%.3f s", s)
}

// Bytes prints a byte count with a binary unit when it is an exact multiple.
func Bytes(n int64) string {
	units := []struct {
		s string
		m int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}}
	for _, u := range units {
		if n >= u.m && n%u.m == 0 {
			return fmt.Sprintf("%d %s", n/u.m, u.s)
		}
	}
	return fmt.Sprintf("%d B", n)
}

// Rate prints bytes per second in decimal units, as bandwidths are usually quoted.
func Rate(bps float64) string {
	switch {
	case bps >= 1e9:
		return fmt.Sprintf("%.2f GB/s", bps/1e9)
	case bps >= 1e6:
		return fmt.Sprintf("%.2f MB/s", bps/1e6)
	case bps >= 1e3:
		return fmt.Sprintf("%.2f kB/s", bps/1e3)
	}
	return fmt.Sprintf("%.0f B/s", bps)
}

// Count is n with its noun, in the plural unless n is 1: "1 run", "3 runs".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
