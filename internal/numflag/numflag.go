// Package numflag holds the numeric flag values of skampi's verbs: every verb refuses a
// value outside its flag's domain (NaN, an infinity, a count below 1, ...) while
// parsing, as a usage error naming the flag: pflag says
// `invalid argument "NaN" for "--alpha" flag: ...`.
package numflag

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// floatFlag is a finite number in [lo, hi] (an end excluded where open).
type floatFlag struct {
	p              *float64
	lo, hi         float64
	loOpen, hiOpen bool
}

// Float binds a float flag to p, in [lo, hi] (an end excluded where open).
func Float(fs *pflag.FlagSet, p *float64, name string, value, lo, hi float64, loOpen, hiOpen bool, usage string) {
	*p = value
	fs.Var(&floatFlag{p, lo, hi, loOpen, hiOpen}, name, usage)
}

func (f *floatFlag) String() string { return strconv.FormatFloat(*f.p, 'g', -1, 64) }
func (f *floatFlag) Type() string   { return "float" }
func (f *floatFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil && !isRange(err) {
		return fmt.Errorf("not a number")
	}
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("must be a finite number %s", f.domain())
	}
	if v < f.lo || v > f.hi || f.loOpen && v == f.lo || f.hiOpen && v == f.hi {
		return fmt.Errorf("must be %s", f.domain())
	}
	*f.p = v
	return nil
}

func (f *floatFlag) domain() string {
	lo, hi := "[", "]"
	if f.loOpen {
		lo = "("
	}
	if f.hiOpen {
		hi = ")"
	}
	return fmt.Sprintf("in %s%g, %g%s", lo, f.lo, f.hi, hi)
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// intFlag is a whole number in [lo, hi].
type intFlag struct {
	p      *int
	lo, hi int
}

// Int binds a whole-number flag to p, in [lo, hi].
func Int(fs *pflag.FlagSet, p *int, name string, value, lo, hi int, usage string) {
	*p = value
	fs.Var(&intFlag{p, lo, hi}, name, usage)
}

func (f *intFlag) String() string { return strconv.Itoa(*f.p) }
func (f *intFlag) Type() string   { return "int" }
func (f *intFlag) Set(s string) error {
	v, err := parseInt(s, f.lo, f.hi)
	if err == nil {
		*f.p = v
	}
	return err
}

func parseInt(s string, lo, hi int) (int, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil && !isRange(err) {
		return 0, fmt.Errorf("not a whole number")
	}
	if err != nil || v < int64(lo) || v > int64(hi) {
		return 0, fmt.Errorf("must be a whole number from %d to %d", lo, hi)
	}
	return int(v), nil
}

// intsFlag is a comma-separated list of whole numbers, each in [lo, hi].
type intsFlag struct {
	p       *[]int
	lo, hi  int
	changed bool
}

// Ints binds a list of whole numbers to p, each in [lo, hi].
func Ints(fs *pflag.FlagSet, p *[]int, name string, value []int, lo, hi int, usage string) {
	*p = value
	fs.Var(&intsFlag{p: p, lo: lo, hi: hi}, name, usage)
}

func (f *intsFlag) String() string {
	if len(*f.p) == 0 {
		return "" // no default to show
	}
	s := make([]string, len(*f.p))
	for i, v := range *f.p {
		s[i] = strconv.Itoa(v)
	}
	return "[" + strings.Join(s, ",") + "]"
}
func (f *intsFlag) Type() string { return "ints" }

// Set appends: --np 2 --np 4 is --np 2,4 (as pflag's own lists).
func (f *intsFlag) Set(s string) error {
	var out []int
	for _, part := range strings.Split(s, ",") {
		v, err := parseInt(part, f.lo, f.hi)
		if err != nil {
			return fmt.Errorf("%q: %w", strings.TrimSpace(part), err)
		}
		out = append(out, v)
	}
	if !f.changed {
		*f.p, f.changed = nil, true
	}
	*f.p = append(*f.p, out...)
	return nil
}

// durationFlag is a duration in [lo, hi] (lo excluded where open).
type durationFlag struct {
	p      *time.Duration
	lo, hi time.Duration
	loOpen bool
}

// Duration binds a duration flag to p, in [lo, hi] (lo excluded where open).
func Duration(fs *pflag.FlagSet, p *time.Duration, name string, value, lo, hi time.Duration, loOpen bool, usage string) {
	*p = value
	fs.Var(&durationFlag{p, lo, hi, loOpen}, name, usage)
}

func (f *durationFlag) String() string { return f.p.String() }
func (f *durationFlag) Type() string   { return "duration" }
func (f *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("not a duration such as 500ms, 10s or 2m")
	}
	if v < f.lo || v > f.hi || f.loOpen && v == f.lo {
		above := "from " + f.lo.String()
		if f.loOpen {
			above = "above " + f.lo.String()
		}
		return fmt.Errorf("must be %s to %s", above, f.hi)
	}
	*f.p = v
	return nil
}

// Percent binds a share to p, written as a percentage ("5%") or a fraction ("0.05");
// set says it was given.
func Percent(fs *pflag.FlagSet, p *float64, set *bool, name, usage string) {
	fs.Var(&percentFlag{p, set}, name, usage)
}

// percentFlag is a share written as a percentage ("5%") or a fraction below 1
// ("0.05"), finite, from 0 to below 10 (1000 %); set says it was given.
type percentFlag struct {
	p   *float64
	set *bool
}

func (f *percentFlag) String() string {
	if !*f.set {
		return ""
	}
	return strconv.FormatFloat(*f.p*100, 'g', -1, 64) + "%"
}
func (f *percentFlag) Type() string { return "percent" }
func (f *percentFlag) Set(s string) error {
	v, err := parsePercent(s)
	if err == nil {
		*f.p, *f.set = v, true
	}
	return err
}

// parsePercent reads "5%" or a fraction below 1 ("0.05") as 0.05; a bare number of 1
// or more is refused, as "5" could mean 5 % or 500 %. NaN, infinities, negative shares
// and 1000 % or more are refused.
func parsePercent(s string) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	switch {
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || pct && f >= 1000:
		return 0, fmt.Errorf("want a percentage from 0%% to below 1000%% (5%%) or a fraction below 1 (0.05)")
	case pct:
		return f / 100, nil
	case f >= 1:
		return 0, fmt.Errorf("%q is ambiguous: write %s%% for a percentage, or a fraction below 1", s, t)
	}
	return f, nil
}
