package plots

import (
	"fmt"
	"sort"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// overlayKind draws several runs (libraries, machines, settings) in one figure: the
// figure for a talk. Per family, process count and panel, the operations measured in at
// least two runs; each run has its colour (Tableau 10: up to 10 runs apart), each
// operation a dash and glyph, so that one operation in several runs is several colours
// and a figure holds at most 8 lines (8 / runs operations, at most 4 dashes). Time vs
// size (ping-pongs one-way); bandwidth for the operations that report it. Runs that
// share a side (Options.Sides: an A/B comparison of many runs) are drawn by side
// instead (sides.go), which stays readable at any number of runs.
var overlayKind = Kind{
	Name:   "overlay",
	Doc:    "several runs in one figure: a colour per run, a dash and glyph per operation; runs sharing a label: a colour per label, its median and min-max band",
	Groups: overlayRuns,
	GroupsWith: func(res *report.Results, opts Options) []Group {
		sides, shared := sidesOf(res, opts)
		switch {
		case len(sides) >= 2 && shared:
			return sideGroups(res, opts, 2)
		case len(sides) == 1 && len(res.Runs) > maxSeries:
			// More runs of one source than lines a figure can tell apart: their
			// spread, as one band, is what such an overlay can still show.
			return sideGroups(res, opts, 1)
		}
		return overlayRuns(res)
	},
	Build: func(g Group, opts Options) (*Figure, error) {
		if g.BySide {
			return buildSides(g, opts)
		}
		return buildRuns(g, opts)
	},
}

// overlayRuns groups the points of operations measured in at least two runs, per
// family, process count and panel, at most maxSeries lines a figure.
func overlayRuns(res *report.Results) []Group {
	if len(res.Runs) < 2 {
		return nil
	}
	runsOf := map[string]map[string]bool{} // line key -> runs
	for i := range res.Points {
		p := &res.Points[i]
		k := overlayLine(p)
		if runsOf[k] == nil {
			runsOf[k] = map[string]bool{}
		}
		runsOf[k][p.RunID] = true
	}
	groups := groupBy(res, func(p *record.Point) bool { return len(runsOf[overlayLine(p)]) >= 2 && !atomic(p) }, func(p *record.Point) string {
		return fmt.Sprintf("%s/np%d/%s", p.Family, p.NProcs, overlayMetric(p))
	})
	var out []Group
	for _, g := range groups {
		// Lines per figure: operations x runs <= maxSeries.
		per := max(1, maxSeries/len(g.Runs))
		out = append(out, splitBy(splitWide([]Group{g}, measurementOp), measurementOp, per)...)
	}
	return out
}

// buildRuns draws an overlay of runs: a colour per run, a dash and glyph per operation.
func buildRuns(g Group, opts Options) (*Figure, error) {
	metric := overlayMetric(&g.Points[0])
	ax := timeAxisOf(g.Points)
	// A colour per run, in the order of the runs, so that each run reads as one
	// colour across the figure; a dash and glyph per operation.
	runs, ops := map[string]int{}, map[string]int{}
	for _, r := range g.Runs {
		runs[r.RunID] = len(runs)
	}
	var lines []chart.Line
	at := map[[2]string]int{}
	for _, p := range g.Points {
		op, run := measurementOp(&p), p.RunID
		if _, ok := ops[op]; !ok {
			ops[op] = len(ops)
		}
		if _, ok := runs[run]; !ok {
			runs[run] = len(runs)
		}
		k := [2]string{op, run}
		i, ok := at[k]
		if !ok {
			i = len(lines)
			at[k] = i
			lines = append(lines, chart.Line{Label: op + "\n— " + runName(run, opts), Style: &chart.LineStyle{Color: runs[run], Variant: ops[op]}})
		}
		y, lo, hi, ok := overlayValue(&p, metric, ax, opts.errors())
		l := &lines[i]
		l.X, l.Y = append(l.X, float64(p.MsgBytes)), append(l.Y, y)
		if opts.errors() != ErrNone {
			if !ok {
				lo, hi = y, y
			}
			l.Lo, l.Hi = append(l.Lo, lo), append(l.Hi, hi)
		}
	}
	for i := range lines {
		sortLine(&lines[i])
	}
	// The legend by operation, each with its runs.
	sort.SliceStable(lines, func(i, j int) bool {
		a, b := lines[i].Style, lines[j].Style
		return a.Variant < b.Variant || a.Variant == b.Variant && a.Color < b.Color
	})
	ps := g.Points[0]
	logX := chart.SpansDecade(sizes(g.Points))
	y := chart.AxisSpec{Quantity: chart.Seconds, Label: ax.label(g.Points), Scale: scaleOf(logX)}
	what, notes := "time vs message size", ax.notes()
	if metric == "bandwidth" {
		y = chart.AxisSpec{Quantity: chart.Rate, Label: "bandwidth", Scale: scaleOf(logX)}
		what, notes = "bandwidth vs message size", nil
	}
	// The runs are named once, in the legend.
	return lineFigure(fmt.Sprintf("overlay-%s-%s%s-np%d", metric, ps.Family, g.partName(), ps.NProcs), "overlay", chart.LineSpec{
		Title:   g.partTitle(familyTitle(g.Points, what)),
		Caption: caption(g, opts, notes...),
		X:       chart.AxisSpec{Quantity: chart.Bytes, Label: "message size", Scale: scaleOf(logX)},
		Y:       y,
		Lines:   lines,
		Width:   opts.Width, Height: opts.Height,
	})
}

// overlayLine is what makes a line of an overlay, whatever the run.
func overlayLine(p *record.Point) string {
	return fmt.Sprintf("%s/np%d/%s/%s/%s/%s", p.Family, p.NProcs, p.Measurement, p.Op, p.Method, p.Timer)
}

func overlayMetric(p *record.Point) string {
	if p.BandwidthBps != nil {
		return "bandwidth"
	}
	return "latency"
}

func overlayValue(p *record.Point, metric string, ax timeAxis, e ErrorBars) (y, lo, hi float64, ok bool) {
	if metric == "bandwidth" {
		lo, hi, ok = rateEnds(*p.BandwidthBps, p, e)
		return *p.BandwidthBps, lo, hi, ok
	}
	return ax.value(p, e)
}

// splitBy cuts groups with more than per labels into parts of per labels.
func splitBy(groups []Group, label func(*record.Point) string, per int) []Group {
	var out []Group
	for _, g := range groups {
		index := map[string]int{}
		var parts [][]record.Point
		for _, p := range g.Points {
			l := label(&p)
			i, ok := index[l]
			if !ok {
				i = len(index)
				index[l] = i
			}
			for len(parts) <= i/per {
				parts = append(parts, nil)
			}
			parts[i/per] = append(parts[i/per], p)
		}
		for i, pts := range parts {
			ng := Group{Key: g.Key, Points: pts, Runs: g.Runs, Part: g.Part}
			if len(parts) > 1 {
				ng.Part = joinPart(g.Part, fmt.Sprintf("%d of %d", i+1, len(parts)))
				ng.Key += "/" + ng.Part
			}
			out = append(out, ng)
		}
	}
	return out
}

func sortLine(l *chart.Line) {
	idx := make([]int, len(l.X))
	for i := range idx {
		idx[i] = i
	}
	// insertion sort: a line has tens of points
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && l.X[idx[j]] < l.X[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	perm := func(v []float64) []float64 {
		if v == nil {
			return nil
		}
		out := make([]float64, len(v))
		for i, j := range idx {
			out[i] = v[j]
		}
		return out
	}
	l.X, l.Y, l.Lo, l.Hi = perm(l.X), perm(l.Y), perm(l.Lo), perm(l.Hi)
}
