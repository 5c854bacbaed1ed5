package plots

import (
	"fmt"
	"sort"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// haloKind: a halo step's time vs the row size, one line per exchange (a colour each)
// and computation time (a dash each), the computation itself a horizontal line: how
// far above its computation a step ends is what the exchange costs beyond what the
// computation hides, one-sided beside two-sided.
var haloKind = Kind{
	Name:   "halo",
	Doc:    "halo exchanges: time per step vs row size, one line per exchange and computation time (halo)",
	Groups: haloGroups,
	Build:  buildHalo,
}

// haloGroups: the points that record a halo computation, by run, library and process
// count; kept when some line has two sizes or more.
func haloGroups(res *report.Results) []Group {
	lib := libraries(res)
	all := groupBy(res, func(p *record.Point) bool { return p.HaloComputeS != nil }, func(p *record.Point) string {
		return fmt.Sprintf("%s/%s/np%d", p.RunID, lib[p.RunID], p.NProcs)
	})
	var out []Group
	for _, g := range all {
		sizes := map[string]map[int64]bool{}
		keep := false
		for i := range g.Points {
			p := &g.Points[i]
			l := haloLine(p)
			if sizes[l] == nil {
				sizes[l] = map[int64]bool{}
			}
			sizes[l][p.MsgBytes] = true
			keep = keep || len(sizes[l]) >= 2
		}
		if keep {
			out = append(out, g)
		}
	}
	return out
}

// haloLine is what one line of a halo figure has in common: the exchange and its
// computation time.
func haloLine(p *record.Point) string {
	if *p.HaloComputeS == 0 {
		return p.Op + ", no computation"
	}
	return p.Op + ", compute " + chart.ShortSeconds(*p.HaloComputeS)
}

func buildHalo(g Group, opts Options) (*Figure, error) {
	e := opts.errors()
	ax := timeAxisOf(g.Points)
	at := map[string]map[int64][]record.Point{}
	var order []string
	colour, variant := map[string]int{}, map[float64]int{}
	style := map[string]*chart.LineStyle{}
	computes := map[float64]bool{}
	for _, p := range g.Points {
		l := haloLine(&p)
		if at[l] == nil {
			at[l] = map[int64][]record.Point{}
			order = append(order, l)
			if _, ok := colour[p.Op]; !ok {
				colour[p.Op] = len(colour)
			}
			if _, ok := variant[*p.HaloComputeS]; !ok {
				variant[*p.HaloComputeS] = len(variant)
			}
			style[l] = &chart.LineStyle{Color: colour[p.Op], Variant: variant[*p.HaloComputeS]}
		}
		at[l][p.MsgBytes] = append(at[l][p.MsgBytes], p)
		computes[*p.HaloComputeS] = true
	}
	var lines []chart.Line
	var xs, ys []float64
	for _, l := range order {
		var sizes []int64
		for s := range at[l] {
			sizes = append(sizes, s)
		}
		sort.Slice(sizes, func(i, j int) bool { return sizes[i] < sizes[j] })
		line := chart.Line{Label: l, Style: style[l]}
		for _, s := range sizes {
			y, lo, hi := combine(at[l][s], e, ax)
			line.X, line.Y = append(line.X, float64(s)), append(line.Y, y)
			if e != ErrNone {
				line.Lo, line.Hi = append(line.Lo, lo), append(line.Hi, hi)
			}
			xs, ys = append(xs, float64(s)), append(ys, y)
		}
		lines = append(lines, line)
	}
	var ref []float64
	for c := range computes {
		if c > 0 {
			ref = append(ref, c)
		}
	}
	sort.Float64s(ref)
	notes := ax.notes()
	if len(ref) > 0 {
		notes = append(notes, "horizontal lines: the computation alone")
	}
	var figNotes []string
	if len(lines) > 8 { // more than a legend can hold: the first 8, said so
		figNotes = append(figNotes, fmt.Sprintf("the first 8 of %d lines", len(lines)))
		lines = lines[:8]
	}
	p := g.Points[0]
	return lineFigure(fmt.Sprintf("halo-np%d", p.NProcs), "halo", chart.LineSpec{
		Title:     fmt.Sprintf("halo step: exchange + computation, %d processes", p.NProcs),
		Caption:   caption(g, opts, notes...),
		X:         chart.AxisSpec{Quantity: chart.Bytes, Label: "row size (each neighbour)", Scale: scaleOf(ratio(xs) >= 8)},
		Y:         chart.AxisSpec{Quantity: chart.Seconds, Label: "time per halo step", Scale: scaleOf(chart.SpansDecade(append(ys, ref...)))},
		Lines:     lines,
		Reference: ref,
		Notes:     figNotes,
		Width:     opts.Width, Height: opts.Height,
	})
}
