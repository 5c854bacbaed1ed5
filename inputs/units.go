package inputs

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1},
}

// maxSize bounds every size so products (size*window, size*steps) cannot overflow.
const maxSize = int64(1) << 50

// ParseSize reads a byte count: a plain integer ("4096") or a number with a binary unit
// ("1B", "64KiB", "1.5MiB", "4 MiB"). The result must be a whole number of bytes.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, fmt.Errorf("empty size")
	}
	// The number is the leading run of numeric characters; the rest is the unit.
	i := strings.IndexFunc(t, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+' || r == '_')
	})
	num, unit := t, ""
	if i >= 0 {
		num, unit = strings.TrimSpace(t[:i]), strings.TrimSpace(t[i:])
	}
	mult := int64(0)
	for _, u := range sizeUnits {
		if unit == u.suffix || unit == "" && u.mult == 1 {
			mult = u.mult
		}
	}
	if mult == 0 {
		if num == "" {
			return 0, fmt.Errorf("size %q: %q is not a number", s, t)
		}
		return 0, fmt.Errorf("size %q: unknown unit %q (use B, KiB, MiB, GiB or TiB)", s, unit)
	}
	if num == "" {
		return 0, fmt.Errorf("size %q has a unit but no number", s)
	}
	if n, err := strconv.ParseInt(num, 10, 64); err == nil {
		return checkSize(s, float64(n), n, mult)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("size %q: %q is not a number", s, num)
	}
	return checkSize(s, f*float64(mult), 0, 0)
}

// checkSize validates n*mult (integer path, mult>0) or the float product (mult==0).
func checkSize(s string, f float64, n, mult int64) (int64, error) {
	if f < 0 {
		return 0, fmt.Errorf("size %q is negative", s)
	}
	if mult > 0 {
		if n > maxSize/mult {
			return 0, fmt.Errorf("size %q is too large (limit %s)", s, FormatSize(maxSize))
		}
		return n * mult, nil
	}
	if f > float64(maxSize) {
		return 0, fmt.Errorf("size %q is too large (limit %s)", s, FormatSize(maxSize))
	}
	if f != math.Trunc(f) {
		return 0, fmt.Errorf("size %q is not a whole number of bytes", s)
	}
	return int64(f), nil
}

// FormatSize prints a byte count with the largest binary unit that divides it exactly.
func FormatSize(n int64) string {
	for _, u := range sizeUnits {
		if u.mult > 1 && n >= u.mult && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// Step advances a size sequence: multiply by Factor (when > 0) or add Add bytes.
type Step struct {
	Factor float64
	Add    int64
	Text   string
}

// ParseStep reads "*2", "*sqrt2", "*1.5", "+1KiB" or "+64".
func ParseStep(s string) (Step, error) {
	t := strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(t, "*"):
		arg := strings.TrimSpace(t[1:])
		var f float64
		if arg == "sqrt2" {
			f = math.Sqrt2
		} else {
			v, err := strconv.ParseFloat(arg, 64)
			if err == nil && math.IsInf(v, 0) {
				return Step{}, fmt.Errorf("step %q: the factor must be a finite number", s)
			}
			if err != nil || math.IsNaN(v) {
				return Step{}, fmt.Errorf("step %q: %q is not a number (use *2, *sqrt2, *X or +N)", s, arg)
			}
			f = v
		}
		if f <= 1 {
			return Step{}, fmt.Errorf("step %q never advances: the factor must be greater than 1", s)
		}
		return Step{Factor: f, Text: t}, nil
	case strings.HasPrefix(t, "+"):
		if strings.HasPrefix(strings.TrimSpace(t[1:]), "-") {
			return Step{}, fmt.Errorf("step %q never advances: the increment must be positive", s)
		}
		n, err := ParseSize(t[1:])
		if err != nil {
			return Step{}, fmt.Errorf("step %q: %v", s, err)
		}
		if n <= 0 {
			return Step{}, fmt.Errorf("step %q never advances: the increment must be positive", s)
		}
		return Step{Add: n, Text: t}, nil
	}
	return Step{}, fmt.Errorf("step %q: must start with * or + (for example *2, *sqrt2, +1KiB)", s)
}

// maxPoints bounds one measurement's size list so a typo cannot plan millions of points.
const maxPoints = 10000

// maxFactorSteps bounds the multiplications a * step may take from `from` to `to`: a
// factor barely above 1 would otherwise spin for ages on sizes that round alike.
const maxFactorSteps = 1_000_000

// Expand lists the sizes from..to (inclusive) following step. Factors are applied to a
// real-valued size and rounded, so *sqrt2 gives 1, 2, 3, 4, 6, 8, 11, 16, ...;
// repeated sizes after rounding are dropped. The result is strictly increasing and
// holds at most maxPoints sizes.
func Expand(from, to int64, st Step) ([]int64, error) {
	switch {
	case from < 0:
		return nil, fmt.Errorf("from (%d) is negative", from)
	case to > maxSize:
		return nil, fmt.Errorf("to (%s) is larger than the %s limit", FormatSize(to), FormatSize(maxSize))
	case st.Add <= 0 && !(st.Factor > 1):
		return nil, fmt.Errorf("step %q never advances", st.Text)
	case to < from:
		return nil, fmt.Errorf("to (%s) is smaller than from (%s)", FormatSize(to), FormatSize(from))
	}
	var out []int64
	add := func(n int64) error {
		out = append(out, n)
		if len(out) > maxPoints {
			return fmt.Errorf("more than %d sizes from %s to %s with step %q", maxPoints, FormatSize(from), FormatSize(to), st.Text)
		}
		return nil
	}
	if st.Add > 0 {
		for n := from; ; n += st.Add {
			if err := add(n); err != nil {
				return nil, err
			}
			if n > to-st.Add { // next would pass `to` (written so it cannot overflow)
				return out, nil
			}
		}
	}
	if from == 0 {
		return nil, fmt.Errorf("step %q never advances from 0 bytes: start at 1 or use a + step", st.Text)
	}
	if steps := math.Log(float64(to)/float64(from)) / math.Log(st.Factor); steps > maxFactorSteps {
		return nil, fmt.Errorf("step %q grows too slowly: it takes more than %d multiplications from %s to %s (use a larger factor)",
			st.Text, maxFactorSteps, FormatSize(from), FormatSize(to))
	}
	// Compare in floating point: a huge factor makes x too large for an int64. The
	// loop is bounded by itself too: a factor a hair above 1 may need ~1e15
	// multiplications to round to the next size, whatever the guard above estimated.
	for x, i := float64(from), 0; i <= maxFactorSteps+1; x, i = x*st.Factor, i+1 {
		r := math.Round(x)
		if r > float64(to) {
			return out, nil
		}
		if n := int64(r); len(out) == 0 || n != out[len(out)-1] {
			if err := add(n); err != nil {
				return nil, err
			}
			if n == to { // the next distinct size is past `to`
				return out, nil
			}
		}
	}
	return nil, fmt.Errorf("step %q grows too slowly from %s: it takes more than %d multiplications to reach the next size (use a larger factor)",
		st.Text, FormatSize(from), maxFactorSteps)
}

// ParseDuration reads a Go duration ("5s", "250ms", "1m30s") that must be positive.
func ParseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("duration %q: use a number with a unit such as 500ms, 5s or 2m", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("duration %q must be positive", s)
	}
	return d, nil
}
