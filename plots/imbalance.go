package plots

import (
	"fmt"
	"sort"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// imbalanceKind: a delayed collective's time beyond its late rank's delay vs the delay,
// one line per message size: what the others lose to one late rank (flat: nothing but
// the wait; rising: the lateness costs more than itself).
var imbalanceKind = Kind{
	Name:   "imbalance",
	Doc:    "delayed collectives: time beyond the delay vs the delay, one line per message size",
	Groups: imbalanceGroups,
	Build:  buildImbalance,
}

// imbalanceGroups groups the points that record a delay by op, process count, timer and
// MPI library across measurements and runs, and keeps the groups with two delays or more.
func imbalanceGroups(res *report.Results) []Group {
	lib := libraries(res)
	all := groupBy(res, func(p *record.Point) bool { return p.DelayS != nil && delayedCollective(p) }, func(p *record.Point) string {
		return fmt.Sprintf("%s/np%d/%s/%s", p.Op, p.NProcs, p.Timer, lib[p.RunID])
	})
	var out []Group
	for _, g := range all {
		delays := map[float64]bool{}
		for _, p := range g.Points {
			delays[*p.DelayS] = true
		}
		if len(delays) >= 2 {
			out = append(out, g)
		}
	}
	return out
}

func buildImbalance(g Group, opts Options) (*Figure, error) {
	e := opts.errors()
	var lines []chart.Line
	var xs []float64
	for _, size := range spread(sortedSizes(g.Points), scalingSizes) {
		at := map[float64][]record.Point{}
		for _, p := range g.Points {
			if p.MsgBytes == size {
				at[*p.DelayS] = append(at[*p.DelayS], p)
			}
		}
		var delays []float64
		for d := range at {
			delays = append(delays, d)
		}
		sort.Float64s(delays)
		line := chart.Line{Label: chart.FormatBytes(float64(size))}
		for _, d := range delays {
			y, lo, hi := combine(at[d], e, timeAxis{})
			line.X, line.Y = append(line.X, d), append(line.Y, y-d)
			if e != ErrNone {
				line.Lo, line.Hi = append(line.Lo, lo-d), append(line.Hi, hi-d)
			}
			xs = append(xs, d)
		}
		lines = append(lines, line)
	}
	p := g.Points[0]
	return lineFigure(fmt.Sprintf("imbalance-%s-np%d", p.Op, p.NProcs), "imbalance", chart.LineSpec{
		Title:   fmt.Sprintf("%s: time beyond the late rank's delay", p.Op),
		Caption: caption(g, opts),
		X:       chart.AxisSpec{Quantity: chart.Seconds, Label: "delay of the last rank", Scale: scaleOf(ratio(xs) >= 8)},
		Y:       chart.AxisSpec{Quantity: chart.Seconds, Label: "time − delay"},
		Lines:   lines,
		Width:   opts.Width, Height: opts.Height,
	})
}

// delayedCollective tells a delayed collective's points (this figure's) from a late
// partner's in one-sided synchronisation (the delay figure's).
func delayedCollective(p *record.Point) bool {
	info, ok := ops.Lookup(p.Op)
	return ok && info.Family == "coll"
}
