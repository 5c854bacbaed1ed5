package plots

import (
	"fmt"
	"sort"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// delayKind: the time of a call vs its partner's delay (the setting delay), one line
// per operation, method and size: a call that waits for its partner climbs with the
// delay, one that does not stays flat.
var delayKind = Kind{
	Name:   "delay",
	Doc:    "time vs the late partner's delay, one line per operation (sync-semantics)",
	Groups: delayGroups,
	Build:  buildDelay,
}

// delayLine is what one line of a delay figure has in common.
func delayLine(p *record.Point) string {
	l := p.Op
	if p.Method != "" {
		l += " [" + p.Method + "]"
	}
	return l + " " + chart.FormatBytes(float64(p.MsgBytes))
}

// delayGroups: the points with a delay, by run, library and process count; kept when
// some line has two delays or more.
func delayGroups(res *report.Results) []Group {
	lib := libraries(res)
	all := groupBy(res, func(p *record.Point) bool { return p.DelayS != nil && !delayedCollective(p) }, func(p *record.Point) string {
		return fmt.Sprintf("%s/%s/np%d", p.RunID, lib[p.RunID], p.NProcs)
	})
	var out []Group
	for _, g := range all {
		delays := map[string]map[float64]bool{}
		for i := range g.Points {
			p := &g.Points[i]
			l := delayLine(p)
			if delays[l] == nil {
				delays[l] = map[float64]bool{}
			}
			delays[l][*p.DelayS] = true
		}
		var lined []record.Point // the points of lines with two delays or more
		for _, p := range g.Points {
			if len(delays[delayLine(&p)]) >= 2 {
				lined = append(lined, p)
			}
		}
		// More lines than a legend holds: figures of maxSeries lines each.
		parts := chunkByLabel(lined, delayLine)
		for i, part := range parts {
			ng := Group{Key: g.Key, Points: part, Runs: g.Runs}
			if len(parts) > 1 {
				ng.Part = fmt.Sprintf("%d of %d", i+1, len(parts))
				ng.Key += "/" + ng.Part
			}
			out = append(out, ng)
		}
	}
	return out
}

func buildDelay(g Group, opts Options) (*Figure, error) {
	e := opts.errors()
	ax := timeAxisOf(g.Points)
	at := map[string]map[float64][]record.Point{}
	var order []string
	for _, p := range g.Points {
		l := delayLine(&p)
		if at[l] == nil {
			at[l] = map[float64][]record.Point{}
			order = append(order, l)
		}
		at[l][*p.DelayS] = append(at[l][*p.DelayS], p)
	}
	var lines []chart.Line
	var ys []float64
	for _, l := range order {
		if len(at[l]) < 2 {
			continue
		}
		var ds []float64
		for d := range at[l] {
			ds = append(ds, d)
		}
		sort.Float64s(ds)
		line := chart.Line{Label: l}
		for _, d := range ds {
			y, lo, hi := combine(at[l][d], e, ax)
			line.X, line.Y = append(line.X, d), append(line.Y, y)
			if e != ErrNone {
				line.Lo, line.Hi = append(line.Lo, lo), append(line.Hi, hi)
			}
			ys = append(ys, y)
		}
		lines = append(lines, line)
	}
	p := g.Points[0]
	return lineFigure(fmt.Sprintf("delay%s-np%d", g.partName(), p.NProcs), "delay", chart.LineSpec{
		Title:   g.partTitle(fmt.Sprintf("call time vs partner delay, %d processes", p.NProcs)),
		Caption: caption(g, opts, ax.notes()...),
		X:       chart.AxisSpec{Quantity: chart.Seconds, Label: "partner's delay", Scale: chart.Linear},
		Y:       chart.AxisSpec{Quantity: chart.Seconds, Label: ax.label(g.Points), Scale: scaleOf(chart.SpansDecade(ys))},
		Lines:   lines,
		Width:   opts.Width, Height: opts.Height,
	})
}
