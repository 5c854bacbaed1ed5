package tune

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/skampi/skampi/report"
)

// Write prints the verdict: per measurement a table whose last column is the rule's
// verdict on each range, the breakpoints in words, the noise gauge, and the
// recommendation built from the ranges marked recommended.
func (v *Verdict) Write(w io.Writer) error {
	var b strings.Builder
	for _, g := range v.Groups {
		fmt.Fprintf(&b, "%s, %d processes: baseline %s\n", v.Tune, g.NP, g.Baseline)
		for _, n := range g.NotInEffect {
			fmt.Fprintf(&b, "  %s\n", n)
		}
		for _, m := range g.Missing {
			fmt.Fprintf(&b, "  not judged: %s\n", m)
		}
		for _, m := range g.Measurements {
			writeTable(&b, m)
		}
		writeBreakpoints(&b, g.Breakpoints)
		g.Noise.write(&b)
		writeRecommendation(&b, g)
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTable(b *strings.Builder, m Measurement) {
	title := fmt.Sprintf("%s (%s)", m.Measurement, m.Op)
	if m.Method != "" {
		title += ", method " + m.Method
	}
	if m.Settings != "" {
		title += ", " + m.Settings
	}
	if m.Control {
		title += " [control: the sweep cannot affect it]"
	}
	fmt.Fprintf(b, "\n%s\n", title)
	fmt.Fprintf(b, "  %-18s %-32s %-14s %-14s %s\n", "sizes", "fastest", "vs baseline", "significant", "verdict")
	for _, r := range m.Ranges {
		vs, sig := "(the baseline)", "none"
		if !r.Baseline {
			vs = fmt.Sprintf("%.2f× faster", r.Factor)
			sig = fmt.Sprintf("%d of %d sizes", r.Significant, r.Sizes)
		}
		verdict := "recommended"
		if !r.Recommended {
			verdict = "keep the baseline: " + r.Kept
		}
		fmt.Fprintf(b, "  %-18s %-32s %-14s %-14s %s\n", sizeRange(r.From, r.To), r.Winner, vs, sig, verdict)
	}
}

// writeBreakpoints says where each curve changes slope and how often: a change found
// in most repeats is a protocol switch, one found in a few only is noise.
func writeBreakpoints(b *strings.Builder, bps []Breakpoints) {
	if len(bps) == 0 {
		return
	}
	fmt.Fprintf(b, "\nbreakpoints (where a latency curve changes slope, per repeat: found in most repeats, a protocol switch such as eager to rendezvous; in a few only, noise):\n")
	for _, bp := range bps {
		name := bp.Measurement
		if bp.Method != "" {
			name += " (" + bp.Method + ")"
		}
		fmt.Fprintf(b, "  %s, %s: %s\n", name, bp.Label, breakpointWords(bp.PerRepeat))
	}
}

// breakpointWords groups the breakpoints of every repeat that lie within 25 % of each
// other (refinement puts one repeat's a few bytes from another's) and says for each
// group in how many repeats it was found.
func breakpointWords(perRepeat [][]int64) string {
	n := len(perRepeat)
	type hit struct {
		at  int64
		rep int
	}
	var hits []hit
	for i, list := range perRepeat {
		for _, x := range list {
			hits = append(hits, hit{x, i})
		}
	}
	if len(hits) == 0 {
		return fmt.Sprintf("no change of slope in %s", report.Count(n, "repeat"))
	}
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Compare(a.at, b.at) })
	var groups [][]hit
	for _, h := range hits {
		if k := len(groups); k > 0 && float64(h.at) <= 1.25*float64(groups[k-1][len(groups[k-1])-1].at) {
			groups[k-1] = append(groups[k-1], h)
			continue
		}
		groups = append(groups, []hit{h})
	}
	var out []string
	for _, grp := range groups {
		reps := map[int]bool{}
		for _, h := range grp {
			reps[h.rep] = true
		}
		at := report.Bytes(grp[len(grp)/2].at)
		if lo, hi := grp[0].at, grp[len(grp)-1].at; lo != hi {
			at = fmt.Sprintf("%s (%s – %s)", at, report.Bytes(lo), report.Bytes(hi))
		}
		switch k := len(reps); {
		case n == 1:
			out = append(out, fmt.Sprintf("at %s in the one repeat (one repeat cannot tell a switch from noise)", at))
		case 2*k > n:
			out = append(out, fmt.Sprintf("at %s in %d of %d repeats (a protocol switch)", at, k, n))
		default:
			out = append(out, fmt.Sprintf("at %s in %d of %d repeats only (noise)", at, k, n))
		}
	}
	return "the curve changes slope " + strings.Join(out, "; ")
}

// writeRecommendation prints what the ranges marked recommended add up to: each
// setting with the ranges it wins and the lines that apply it, then the verdict for
// every size.
func writeRecommendation(b *strings.Builder, g Group) {
	r := g.Recommendation
	if len(r.PerRange) > 0 {
		fmt.Fprintf(b, "\nrecommended per size range (the ranges marked recommended above; apply a setting where your messages fall):\n")
		for _, a := range r.PerRange {
			fmt.Fprintf(b, "  %s at\n", a.Label)
			for _, w := range a.Where {
				fmt.Fprintf(b, "    %s\n", w)
			}
			fmt.Fprintf(b, "  applied by any one of\n")
			for _, l := range a.Apply {
				fmt.Fprintf(b, "    %s\n", l)
			}
		}
		fmt.Fprintf(b, "  %s (the baseline) at every other size\n", g.Baseline)
		for _, d := range r.Disagree {
			fmt.Fprintf(b, "  disagreement: %s\n", d)
		}
	}
	if r.Label != "" {
		fmt.Fprintf(b, "\nrecommendation for every size: %s (applied as above): %s\n", r.Label, r.Why)
		return
	}
	fmt.Fprintf(b, "\nrecommendation: %s\n", r.Why)
}
