package tune

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/skampi/skampi/report/compare"
)

// Noise is a sweep's gauge of how far its differences can be trusted: how much its
// controls (measurements the swept parameters cannot affect, named by the tune file)
// moved under each setting, and how far the baseline's repeats spread. A
// range's winner must beat it (beatenBy).
type Noise struct {
	Controls []string
	Shifts   []ControlShift // one per other combination, in sweep order
	// Spread: the median over the baseline's points of (slowest repeat / fastest - 1);
	// SpreadPoints: the points with at least two repeats it is taken over.
	Spread       float64
	SpreadPoints int
}

// ControlShift is how the controls moved under one setting against the baseline.
type ControlShift struct {
	Label       string
	Geomean     float64 // control time under the setting / under the baseline
	Significant int     // control points significantly different (U test, corrected)
	Compared    int
	Tested      int
	sum         float64
}

// Moved is how far the controls moved, as a fraction (0.05: 5 %, either way).
func (c ControlShift) Moved() float64 { return math.Max(c.Geomean, 1/c.Geomean) - 1 }

// Flagged: the controls moved significantly somewhere, or by more than the gauge
// tolerates from noise alone (2 %).
func (c ControlShift) Flagged() bool { return c.Significant > 0 || c.Compared > 0 && c.Moved() > 0.02 }

func (n *Noise) isControl(measurement string) bool { return slices.Contains(n.Controls, measurement) }

// add counts a compared control row of a setting.
func (n *Noise) add(label string, row compare.Row) {
	i := slices.IndexFunc(n.Shifts, func(c ControlShift) bool { return c.Label == label })
	if i < 0 {
		n.Shifts = append(n.Shifts, ControlShift{Label: label})
		i = len(n.Shifts) - 1
	}
	c := &n.Shifts[i]
	c.Compared++
	c.sum += math.Log(row.Other.TimeS / row.Base.TimeS)
	c.Geomean = math.Exp(c.sum / float64(c.Compared))
	if row.Tested {
		c.Tested++
	}
	if row.Significant {
		c.Significant++
	}
}

func (n *Noise) shift(label string) (ControlShift, bool) {
	i := slices.IndexFunc(n.Shifts, func(c ControlShift) bool { return c.Label == label })
	if i < 0 {
		return ControlShift{}, false
	}
	return n.Shifts[i], true
}

// spread measures the baseline's spread between repeats over the rows of its tables
// (each baseline point once, though it is compared with every setting).
func (n *Noise) spread(tables []compare.Table) {
	seen := map[compare.Key]bool{}
	var s []float64
	for _, tb := range tables {
		for _, row := range tb.Rows {
			ts := row.Base.RunTimesS
			if seen[row.Key] || len(ts) < 2 {
				continue
			}
			seen[row.Key] = true
			lo, hi := slices.Min(ts), slices.Max(ts)
			if lo > 0 {
				s = append(s, hi/lo-1)
			}
		}
	}
	if len(s) == 0 {
		return
	}
	sort.Float64s(s)
	n.Spread, n.SpreadPoints = s[len(s)/2], len(s)
	if len(s)%2 == 0 {
		n.Spread = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
}

// beatenBy says why a range won by label, factor× faster than the baseline over the
// range, does not beat the noise ("": it does). With controls: the controls did not move
// significantly under the setting, and the range's gain is more than twice what they
// moved (their geometric mean over every control point: controls sit at sizes of
// their own, so the bar is the setting's, the gain the range's). Without: the gain is
// more than the baseline's repeats spread, or the setting is significantly faster at
// most of the range's sizes (the spread holds the machine's drift between rounds,
// which every combination of a round shares and the interleaved rounds cancel: a
// consistent gain below it is still real).
func (n *Noise) beatenBy(label string, factor float64, significant, sizes int) string {
	gain := factor - 1
	if len(n.Controls) > 0 {
		c, ok := n.shift(label)
		switch {
		case !ok:
			return ""
		case c.Significant > 0:
			return fmt.Sprintf("does not beat the noise: the controls moved %.2f× under it, significantly at %d of %d points", c.Geomean, c.Significant, c.Compared)
		case gain <= 2*c.Moved():
			return fmt.Sprintf("does not beat the noise: no more than twice what the controls moved under it (%.2f×)", c.Geomean)
		}
		return ""
	}
	if n.SpreadPoints > 0 && gain <= n.Spread && 2*significant <= sizes {
		return fmt.Sprintf("does not beat the noise: less than the baseline's repeats spread (%.3g×), and significant at too few sizes", 1+n.Spread)
	}
	return ""
}

// write prints the gauge.
func (n *Noise) write(b *strings.Builder) {
	if len(n.Shifts) == 0 && n.SpreadPoints == 0 {
		return
	}
	fmt.Fprintf(b, "\nnoise gauge:\n")
	if n.SpreadPoints > 0 {
		fmt.Fprintf(b, "  spread between the baseline's repeats: the slowest %.3g× the fastest (median over %d points)\n", 1+n.Spread, n.SpreadPoints)
	}
	for _, c := range n.Shifts {
		flag := ""
		if c.Flagged() {
			flag = "  FLAGGED: the sweep cannot affect it, so this is noise"
		}
		fmt.Fprintf(b, "  control %s under %s: %.3f× the baseline's time, significantly different at %d of %d points (%d tested)%s\n",
			strings.Join(n.Controls, ", "), c.Label, c.Geomean, c.Significant, c.Compared, c.Tested, flag)
	}
}

// aside is what the gauge adds to a verdict that keeps the baseline for lack of
// significance: that the controls moved as much under the best other setting.
func (n *Noise) aside(label string) string {
	if c, ok := n.shift(label); ok && c.Flagged() {
		return fmt.Sprintf("; the controls (%s), which the sweep cannot affect, moved %.2f× under it: differences of that size are noise", strings.Join(n.Controls, ", "), c.Geomean)
	}
	return ""
}
