package plots

import (
	"fmt"
	"sort"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// busyKind: the origin's time per operation vs how long its passive target computes
// (the setting target_busy), one figure per operation, method and size, one line per
// polling interval and call: without asynchronous progress the time climbs with the
// computation; a target that polls brings it back towards the idle latency.
var busyKind = Kind{
	Name:   "busy",
	Doc:    "time vs the passive target's computation, one line per polling interval (passive)",
	Groups: busyGroups,
	Build:  buildBusy,
}

// busyPoll names a point's line: how its target polled. An idle target's point
// (target_busy_s 0) belongs to every line.
func busyPoll(p *record.Point) string {
	if p.PollEvery == nil || *p.PollEvery == 0 {
		return "no polling"
	}
	return fmt.Sprintf("%s every %d spins", p.Poll, *p.PollEvery)
}

// busyGroups: the points of a passive target, by run, library, process count,
// operation, method and size; kept when some target computed and one did not or
// computed for another time.
func busyGroups(res *report.Results) []Group {
	lib := libraries(res)
	all := groupBy(res, func(p *record.Point) bool { return p.TargetBusyS != nil }, func(p *record.Point) string {
		return fmt.Sprintf("%s/%s/np%d/%s/%s/%d", p.RunID, lib[p.RunID], p.NProcs, p.Op, p.Method, p.MsgBytes)
	})
	var out []Group
	for _, g := range all {
		busy := map[float64]bool{}
		for i := range g.Points {
			busy[*g.Points[i].TargetBusyS] = true
		}
		if len(busy) >= 2 {
			out = append(out, g)
		}
	}
	return out
}

func buildBusy(g Group, opts Options) (*Figure, error) {
	e := opts.errors()
	ax := timeAxisOf(g.Points)
	at := map[string]map[float64][]record.Point{}
	var order []string
	var idle []record.Point
	for _, p := range g.Points {
		if *p.TargetBusyS == 0 {
			idle = append(idle, p)
			continue
		}
		l := busyPoll(&p)
		if at[l] == nil {
			at[l] = map[float64][]record.Point{}
			order = append(order, l)
		}
		at[l][*p.TargetBusyS] = append(at[l][*p.TargetBusyS], p)
	}
	if len(order) == 0 { // idle targets only, at one time each: a line of them
		order = []string{"no polling"}
		at["no polling"] = map[float64][]record.Point{}
	}
	var lines []chart.Line
	var ys []float64
	for _, l := range order {
		if len(idle) > 0 {
			at[l][0] = idle
		}
		var ts []float64
		for t := range at[l] {
			ts = append(ts, t)
		}
		sort.Float64s(ts)
		line := chart.Line{Label: l}
		for _, t := range ts {
			y, lo, hi := combine(at[l][t], e, ax)
			line.X, line.Y = append(line.X, t), append(line.Y, y)
			if e != ErrNone {
				line.Lo, line.Hi = append(line.Lo, lo), append(line.Hi, hi)
			}
			ys = append(ys, y)
		}
		lines = append(lines, line)
	}
	var notes []string
	if len(lines) > 8 { // more than a legend can hold: the first 8, said so
		notes = append(notes, fmt.Sprintf("the first 8 of %d lines", len(lines)))
		lines = lines[:8]
	}
	p := g.Points[0]
	what := p.Op
	if p.Method != "" {
		what += " [" + p.Method + "]"
	}
	what += " " + chart.FormatBytes(float64(p.MsgBytes))
	file := p.Op
	if p.Method != "" {
		file += "-" + p.Method
	}
	return lineFigure(fmt.Sprintf("busy-%s-%d-np%d", file, p.MsgBytes, p.NProcs), "busy", chart.LineSpec{
		Title:   fmt.Sprintf("%s vs the target's computation, %d processes", what, p.NProcs),
		Caption: caption(g, opts, ax.notes()...),
		X:       chart.AxisSpec{Quantity: chart.Seconds, Label: "target's computation per operation (target_busy)", Scale: chart.Linear},
		Y:       chart.AxisSpec{Quantity: chart.Seconds, Label: ax.label(g.Points), Scale: scaleOf(chart.SpansDecade(ys))},
		Lines:   lines,
		Notes:   notes,
		Width:   opts.Width, Height: opts.Height,
	})
}
