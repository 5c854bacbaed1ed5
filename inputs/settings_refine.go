package inputs

import (
	"fmt"
	"strings"
)

// Refine is the setting refine: sizes that refine themselves. After the sizes a
// measurement lists, sizes are added between two measured ones where the curve changes
// by more than MaxGap and is not a straight line there, down to one element where a
// protocol switches (the breakpoint found to the byte), at most MaxPoints per curve.
// Every added point is an ordinary point (its key, resume, its record says refined).
type Refine struct {
	MaxGap    float64 // relative: a change the curve may make between two sizes unrefined
	MaxPoints int     // sizes added per curve (measurement, processes, method) at most
}

// On is whether the measurement refines its sizes.
func (r Refine) On() bool { return r.MaxPoints > 0 }

// Refinement's defaults: a 10 % change is well above a converged point's error (the
// stop rule's 3 %), and 32 points bisect a doubling interval to the byte (13 halvings
// above 4 KiB) with room for the smooth intervals of a large-message curve.
const (
	defaultRefineGap    = 0.1
	defaultRefinePoints = 32
	maxRefinePoints     = 1024
)

const refineExample = `{ max_gap = 0.1, max_points = 32 }`

var refineSettingList = []setting{
	{"refine", `sizes that refine themselves: after the listed sizes, sizes are added between two measured ones where the time changes by more than max_gap (relative) and three standard errors, and the midpoint is off the straight line between them by as much, and bisected to one element where a protocol switches; the two sizes of such a step are measured again alternately, and it is recorded (a step record) as confirmed to the element only when every round shows it; at most max_points per curve, each an ordinary point recorded as refined: true, resumed like any other. ` + "`true`" + ` (max_gap = 0.1, max_points = 32), a table such as ` + refineExample + `, or false (default); on the command line --refine true or --refine max_gap=0.05,max_points=64`, func(s *Settings, v any) error {
		switch x := v.(type) {
		case bool:
			s.Refine = Refine{}
			if x {
				s.Refine = Refine{MaxGap: defaultRefineGap, MaxPoints: defaultRefinePoints}
			}
			return nil
		case map[string]any:
			r := Refine{MaxGap: defaultRefineGap, MaxPoints: defaultRefinePoints}
			for _, k := range sortedKeys(x) {
				switch k {
				case "max_gap":
					g, err := float(x[k])
					if err != nil || g <= 0 || g >= 10 {
						return fmt.Errorf("max_gap must be a number above 0 and below 10 (0.1 is 10 %%), got %v", x[k])
					}
					r.MaxGap = g
				case "max_points":
					n, err := intIn(x[k], 1, maxRefinePoints)
					if err != nil {
						return fmt.Errorf("max_points: %v", err)
					}
					r.MaxPoints = n
				default:
					return fmt.Errorf("unknown key %q: refine takes max_gap and max_points, as in %s", k, refineExample)
				}
			}
			s.Refine = r
			return nil
		}
		return fmt.Errorf("must be true, false or a table such as %s, got %s", refineExample, typeName(v))
	}},
}

// refineValue is --refine's value in TOML: "max_gap=0.05,max_points=64" is a table.
func refineValue(raw string) string {
	if !strings.Contains(raw, "=") {
		return tomlValue(raw)
	}
	var parts []string
	for _, kv := range strings.Split(raw, ",") {
		k, v, _ := strings.Cut(kv, "=")
		parts = append(parts, fmt.Sprintf("%s = %s", tomlKey(strings.TrimSpace(k)), tomlValue(strings.TrimSpace(v))))
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// tomlKey is k as a TOML key: bare when it can be, quoted otherwise (the setting then
// names the unknown key).
func tomlKey(k string) string {
	for _, r := range k {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return tomlString(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}
