package plots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// An overlay of sides: when the runs share labels (before=a before=b after=c ...), a
// colour per label rather than per run, so that 20 runs of two labels are two colours
// and two legend entries. Each side is its median over its runs at each size, with a
// band from the runs' minimum to their maximum: what moves between runs is the spread
// a comparison tests against, and it reads at a glance whether the bands part.

// sidesOf lists the sides of res's runs in order of appearance (the order of the
// sources: the baseline first), runs without a side left out, and whether a side holds
// several runs: sides of one run each are runs, better drawn as an overlay of runs
// (several operations a figure).
func sidesOf(res *report.Results, opts Options) (sides []string, shared bool) {
	runs := map[string]int{}
	for _, r := range res.Runs {
		s := opts.Sides[r.RunID]
		if s == "" {
			continue
		}
		if runs[s]++; runs[s] == 1 {
			sides = append(sides, s)
		} else {
			shared = true
		}
	}
	return sides, shared
}

// sideGroups is a group per measurement (family, process count, metric and the
// operation's line) measured on at least least sides.
func sideGroups(res *report.Results, opts Options, least int) []Group {
	sidesOfLine := map[string]map[string]bool{}
	for i := range res.Points {
		p := &res.Points[i]
		s := opts.Sides[p.RunID]
		if s == "" {
			continue
		}
		k := overlayLine(p)
		if sidesOfLine[k] == nil {
			sidesOfLine[k] = map[string]bool{}
		}
		sidesOfLine[k][s] = true
	}
	keep := func(p *record.Point) bool {
		return opts.Sides[p.RunID] != "" && len(sidesOfLine[overlayLine(p)]) >= least && !atomic(p)
	}
	groups := groupBy(res, keep, func(p *record.Point) string { return overlayMetric(p) + "/" + overlayLine(p) })
	for i := range groups {
		groups[i].BySide = true
	}
	return groups
}

// buildSides draws one measurement of several sides: per side its median line and
// band, coloured in the order of the sides (the baseline first).
func buildSides(g Group, opts Options) (*Figure, error) {
	ps := g.Points[0]
	metric := overlayMetric(&ps)
	ax := timeAxisOf(g.Points)
	var order []string
	bySide := map[string]map[float64][]float64{} // side -> size -> a value per run and point
	runs := map[string]map[string]bool{}
	for _, r := range g.Runs {
		if s := opts.Sides[r.RunID]; !slices.Contains(order, s) {
			order = append(order, s)
		}
	}
	for i := range g.Points {
		p := &g.Points[i]
		s := opts.Sides[p.RunID]
		y, _, _, _ := overlayValue(p, metric, ax, ErrNone)
		if bySide[s] == nil {
			bySide[s], runs[s] = map[float64][]float64{}, map[string]bool{}
		}
		bySide[s][float64(p.MsgBytes)] = append(bySide[s][float64(p.MsgBytes)], y)
		runs[s][p.RunID] = true
	}
	var lines []chart.Line
	for i, s := range order {
		l := chart.Line{Label: fmt.Sprintf("%s (%s)", s, report.Count(len(runs[s]), "run")), Band: true,
			Style: &chart.LineStyle{Color: i}}
		for x, vs := range bySide[s] {
			slices.Sort(vs)
			l.X, l.Y = append(l.X, x), append(l.Y, median(vs))
			l.Lo, l.Hi = append(l.Lo, vs[0]), append(l.Hi, vs[len(vs)-1])
		}
		sortLine(&l)
		lines = append(lines, l)
	}
	logX := chart.SpansDecade(sizes(g.Points))
	y := chart.AxisSpec{Quantity: chart.Seconds, Label: ax.label(g.Points), Scale: scaleOf(logX)}
	notes := ax.notes()
	if metric == "bandwidth" {
		y = chart.AxisSpec{Quantity: chart.Rate, Label: "bandwidth", Scale: scaleOf(logX)}
		notes = nil
	}
	title := strings.ReplaceAll(measurementOp(&ps), "\n", " (") // "Name\nOp, method" reads "Name (Op, method"
	if ps.Measurement != ps.Op {
		title += ")"
	}
	notes = append([]string{"line: the median over a side's runs; band: their minimum to maximum"}, notes...)
	return lineFigure(fmt.Sprintf("overlay-%s-%s-%s-np%d", metric, ps.Family, title, ps.NProcs), "overlay", chart.LineSpec{
		Title:   title,
		Caption: caption(g, Options{Labels: opts.Labels, Errors: ErrNone}, notes...),
		X:       chart.AxisSpec{Quantity: chart.Bytes, Label: "message size", Scale: scaleOf(logX)},
		Y:       y,
		Lines:   lines,
		Width:   opts.Width, Height: opts.Height,
	})
}

// median of sorted values.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
