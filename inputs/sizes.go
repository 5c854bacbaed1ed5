package inputs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/skampi/skampi/ops"
)

const sizesExample = `{ from = "1B", to = "64KiB", step = "*2" }`

// sizes expands `sizes`: a table {from, to, step} or an explicit list of sizes. Every
// size must fit the buffer the suite sets (for per-process operations, all their blocks
// at the job's process count: Plan.check), or where it sets none, the most skampi gives
// a point by itself (RankMemoryCap); per-message receive slots of a window must also fit
// this machine's memory.
func (d *decoder) sizes(path string, v any, m Measurement) []int64 {
	out := d.sizeList(path, v, m)
	if s := m.Settings; len(out) > 0 && s.Slots(m.Op) > 1 {
		if err := fitsRecvSlots(slices.Max(out), s.Slots(m.Op)); err != nil {
			d.errAt(path, "%v", err)
		}
	}
	return out
}

func (d *decoder) sizeList(path string, v any, m Measurement) []int64 {
	// one reads a size at path and checks that it fits; ok is false after an error.
	one := func(p string, e any) (int64, bool) {
		n, err := size(e)
		if err != nil {
			d.errAt(p, "%v", err)
			return 0, false
		}
		s := m.Settings
		if ts := s.TypeSize(m.Op); n%ts != 0 {
			d.errAt(p, "%s is not a whole number of %s elements (%d bytes each)", FormatSize(n), s.DatatypeFor(m.Op), ts)
			return 0, false
		}
		if m.Op.BufferBytes(n, 1, 1) <= s.Buffer {
			return n, d.fitsCount(p, n)
		}
		if !s.BufferSet { // skampi sizes the buffer: a message and its receive buffer within the cap
			if 2*m.Op.BufferBytes(n, 1, 1) <= rankCapMax {
				return n, true
			}
			d.errAt(p, "%s is more than skampi sizes a buffer to by itself (%s per rank for send and receive): set buffer to measure it", FormatSize(n), FormatSize(rankCapMax))
			return 0, false
		}
		d.errAt(p, "%s does not fit the buffer (%s): raise buffer", FormatSize(n), FormatSize(s.Buffer))
		return 0, false
	}
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			d.errAt(path, "the list of sizes is empty")
		}
		if len(x) > maxPoints {
			d.errAt(path, "the list has %d sizes, more than the limit of %d", len(x), maxPoints)
			return nil
		}
		var out []int64
		seen := map[int64]int{}
		for i, e := range x {
			p := path + "." + strconv.Itoa(i)
			n, ok := one(p, e)
			if !ok {
				continue
			}
			if j, dup := seen[n]; dup {
				d.errAt(p, "%s is listed twice (also as sizes.%d)", FormatSize(n), j)
				continue
			}
			seen[n] = i
			out = append(out, n)
		}
		return out
	case map[string]any:
		return d.sizeRange(path, x, m, one)
	}
	d.errAt(path, "must be a table such as %s or a list of sizes, got %s", sizesExample, typeName(v))
	return nil
}

// fitsCount reports a message larger than MPI counts in one call (ops.MaxBytes), which
// the kernels would refuse only once the job runs.
func (d *decoder) fitsCount(path string, n int64) bool {
	if n <= ops.MaxBytes {
		return true
	}
	d.errAt(path, "%s is more than one MPI call moves: its count of bytes is a C int, at most %d bytes", FormatSize(n), int64(ops.MaxBytes))
	return false
}

func (d *decoder) sizeRange(path string, x map[string]any, m Measurement, one func(string, any) (int64, bool)) []int64 {
	for _, k := range sortedKeys(x) {
		if k != "from" && k != "to" && k != "step" {
			d.unknownKey(path+"."+k, k, []string{"from", "to", "step"})
		}
	}
	ok := true
	for _, k := range []string{"from", "to", "step"} {
		if _, present := x[k]; !present {
			d.errAt(path, "missing %q (sizes = %s)", k, sizesExample)
			ok = false
		}
	}
	if !ok {
		return nil
	}
	from, okFrom := one(path+".from", x["from"])
	var to int64
	okTo := true
	if s, isStr := x["to"].(string); isStr && s == "max" {
		to = m.Settings.Buffer
		okTo = d.fitsCount(path+".to", to)
	} else if isStr && strings.EqualFold(s, "max") {
		d.errAt(path+".to", `%q is not a size: write "max" in lower case`, s)
		okTo = false
	} else {
		to, okTo = one(path+".to", x["to"])
	}
	var st Step
	s, isStr := x["step"].(string)
	err := fmt.Errorf(`must be a string such as "*2" or "+1KiB", got %s`, typeName(x["step"]))
	if isStr {
		st, err = ParseStep(s)
	}
	if err != nil {
		d.errAt(path+".step", "%v", err)
	}
	if !okFrom || !okTo || err != nil {
		return nil
	}
	out, err := Expand(from, to, st)
	if err != nil {
		d.errAt(path, "%v", err)
	}
	return out
}
