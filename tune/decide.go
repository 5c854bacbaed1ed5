package tune

import (
	"fmt"
	"math"
	"strings"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
)

// settingStats is one setting's comparison with the baseline over every judged point
// (controls aside): what the recommendation says of it beside its ranges.
type settingStats struct {
	Label       string
	Combination inputs.Combination
	Geomean     float64 // its time / the baseline's
	Faster      int     // points significantly faster
	Slower      int     // significantly slower
	Compared    int
	Tested      int
}

// Advice is one setting recommended for some size ranges: where, and the lines that
// apply it.
type Advice struct {
	Label       string
	Combination inputs.Combination
	Where       []string // "ping-pong 4 KiB – 16 KiB: 5.59× faster"
	Apply       []string
}

// decide applies the one rule to every judged range and derives the recommendation
// from what it marked, so the table and the recommendation cannot disagree. off says
// why nothing swept was in effect ("" when something was).
func (g *Group) decide(off string) {
	if g.NoBaseline {
		return
	}
	for i := range g.Measurements {
		m := &g.Measurements[i]
		for j := range m.Ranges {
			r := &m.Ranges[j]
			if m.Control {
				r.Recommended, r.Kept = false, "a control: not judged"
				continue
			}
			r.Recommended, r.Kept = g.rule(*r, off)
		}
	}
	g.Recommendation = g.recommend(off)
}

// rule is the one rule a range's winner is recommended by: it is significantly faster
// than the baseline at minSignificant sizes of the range or more (ranges joins only
// sizes where it is, so it is significantly slower at none of them), the sweep's
// parameters were in effect, and it beats the noise gauge with its gain over this
// range (Noise.beatenBy). Otherwise the baseline keeps the range, and kept says why.
func (g *Group) rule(r Range, off string) (recommended bool, kept string) {
	if r.Baseline {
		var why []string
		if r.Lone != "" {
			why = append(why, r.Lone+" significantly faster at one size only")
		}
		if r.Untested > 0 {
			why = append(why, fmt.Sprintf("untested: %d of %d sizes faster, too few repeats to test", r.Untested, r.Sizes))
		}
		if len(why) == 0 {
			why = append(why, "no setting significantly faster")
		}
		return false, strings.Join(why, "; ")
	}
	switch {
	case off != "":
		return false, "no swept parameter was in effect"
	case r.Significant < minSignificant:
		return false, "one significant size only"
	}
	if why := g.Noise.beatenBy(r.Winner, r.Factor, r.Significant, r.Sizes); why != "" {
		return false, why
	}
	return true, ""
}

// recommend gathers the ranges the rule marked: per setting where it wins and how to
// apply it, where measurements disagree, and one setting for every size only when it
// is the only one recommended anywhere and significantly slower nowhere.
func (g *Group) recommend(off string) Recommendation {
	var best *settingStats
	for i := range g.settings {
		if s := &g.settings[i]; s.Compared > 0 && (best == nil || s.Geomean < best.Geomean) {
			best = s
		}
	}
	rec := Recommendation{}
	if best != nil {
		rec.Geomean, rec.Faster, rec.Slower, rec.Compared, rec.Tested = best.Geomean, best.Faster, best.Slower, best.Compared, best.Tested
	}
	var won []string // why the baseline keeps ranges another setting wins
	for _, m := range g.Measurements {
		for _, r := range m.Ranges {
			if !r.Recommended {
				if !r.Baseline && !m.Control {
					won = append(won, fmt.Sprintf("%s %s, %s: %s", m.name(), sizeRange(r.From, r.To), r.Winner, r.Kept))
				}
				continue
			}
			s := g.stats(r.Winner)
			i := -1
			for k, a := range rec.PerRange {
				if a.Label == r.Winner {
					i = k
				}
			}
			if i < 0 {
				rec.PerRange = append(rec.PerRange, Advice{Label: r.Winner, Combination: s.Combination, Apply: applyLines(s.Combination, g.base)})
				i = len(rec.PerRange) - 1
			}
			rec.PerRange[i].Where = append(rec.PerRange[i].Where, fmt.Sprintf("%s %s: %.2f× faster", m.name(), sizeRange(r.From, r.To), r.Factor))
		}
	}
	rec.Disagree = disagreements(g.Measurements)
	switch {
	case off != "":
		rec.Why = fmt.Sprintf("keep %s: no swept parameter was in effect (%s)", g.Baseline, strings.Join(g.NotInEffect, "; "))
	case best == nil:
		rec.Why = "nothing to compare with the baseline"
	case len(rec.PerRange) == 0 && best.Tested == 0:
		rec.Why = fmt.Sprintf("keep %s: no significance can be claimed with %s per combination (each repeat is one sample; the U test needs %d a side, more when a change is confined to a few of many points): the best other setting, %s, is %.2f× the baseline's time (geometric mean over %d points, untested); sweep again with repeats = %d",
			g.Baseline, report.Count(g.repeats, "repeat"), compare.RunsNeeded(compare.DefaultAlpha), best.Label, best.Geomean, best.Compared, DefaultRepeats)
	case len(rec.PerRange) == 0 && len(won) > 0:
		rec.Why = fmt.Sprintf("keep %s: no range another setting wins passes the rule (%s)", g.Baseline, strings.Join(won, "; "))
	case len(rec.PerRange) == 0:
		rec.Why = fmt.Sprintf("keep %s: no setting wins a size range (the best other setting, %s, is %.2f× the baseline's time, geometric mean over %d points, significantly faster at %d, slower at %d, of %d tested)",
			g.Baseline, best.Label, best.Geomean, best.Compared, best.Faster, best.Slower, best.Tested) + g.Noise.aside(best.Label)
	default:
		a := rec.PerRange[0]
		s := g.stats(a.Label)
		if len(rec.PerRange) == 1 && s.Slower == 0 && s.Geomean < 1 {
			c := a.Combination
			rec.Label, rec.Combination, rec.Apply = a.Label, &c, a.Apply
			rec.Geomean, rec.Faster, rec.Slower, rec.Compared, rec.Tested = s.Geomean, s.Faster, s.Slower, s.Compared, s.Tested
			rec.Why = fmt.Sprintf("the only setting any size range recommends, and significantly slower at no size: %.2f× faster than %s over %d points (geometric mean), significantly faster at %d, slower at %d (of %d tested, U test over repeats, corrected)",
				1/s.Geomean, g.Baseline, s.Compared, s.Faster, s.Slower, s.Tested)
			break
		}
		why := []string{"no one setting for every size: apply a setting only where it is recommended (above), keep " + g.Baseline + " elsewhere"}
		for _, a := range rec.PerRange {
			if s := g.stats(a.Label); s.Slower > 0 {
				why = append(why, fmt.Sprintf("%s is significantly slower at %d of %d points tested", a.Label, s.Slower, s.Tested))
			} else if s.Geomean >= 1 {
				why = append(why, fmt.Sprintf("%s is %.2f× the baseline's time over all %d points", a.Label, s.Geomean, s.Compared))
			}
		}
		rec.Why = strings.Join(why, "; ")
	}
	return rec
}

func (g *Group) stats(label string) settingStats {
	for _, s := range g.settings {
		if s.Label == label {
			return s
		}
	}
	return settingStats{Label: label, Geomean: math.NaN()}
}

// disagreements are the size ranges where two measurements recommend different
// settings: said, never settled silently.
func disagreements(ms []Measurement) []string {
	var out []string
	for i, a := range ms {
		for _, b := range ms[i+1:] {
			for _, ra := range a.Ranges {
				for _, rb := range b.Ranges {
					if !ra.Recommended || !rb.Recommended || ra.Winner == rb.Winner || ra.From > rb.To || rb.From > ra.To {
						continue
					}
					out = append(out, fmt.Sprintf("at %s, %s recommends %s and %s recommends %s: choose by the operation your application uses",
						sizeRange(max(ra.From, rb.From), min(ra.To, rb.To)), a.name(), ra.Winner, b.name(), rb.Winner))
				}
			}
		}
	}
	return out
}

// name is how the verdict names a measurement outside its table.
func (m Measurement) name() string {
	n := m.Measurement
	var more []string
	if m.Method != "" {
		more = append(more, "method "+m.Method)
	}
	if m.Settings != "" {
		more = append(more, m.Settings)
	}
	if len(more) > 0 {
		n += " (" + strings.Join(more, ", ") + ")"
	}
	return n
}

func sizeRange(from, to int64) string {
	if from == to {
		return report.Bytes(from)
	}
	return report.Bytes(from) + " – " + report.Bytes(to)
}
