package plots

import (
	"fmt"
	"strings"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// layoutKind: one operation's time vs message size under each data layout (the
// setting data_layout), one line per layout: what a strided payload costs moved by a
// derived datatype, and by packing it by hand, beside the contiguous payload.
var layoutKind = Kind{
	Name:   "layout",
	Doc:    "time vs message size, one line per data layout of one operation (datatypes)",
	Groups: layoutGroups,
	Build:  buildLayout,
}

// layoutLine names a point's data layout (a point without one is contiguous).
func layoutLine(p *record.Point) string {
	if p.DataLayout == "" {
		return "contiguous"
	}
	l := p.DataLayout
	if p.Stride > 0 {
		l = fmt.Sprintf("%s, stride %d", l, p.Stride)
	}
	if p.TypeCommit != "" {
		l += ", " + strings.ReplaceAll(p.TypeCommit, "_", " ")
	}
	return l
}

// layoutGroups: by run, library, process count, operation and method; kept when one
// has a strided layout and at least two layouts. The contiguous points of such an
// operation join them: the reference the others are read against.
func layoutGroups(res *report.Results) []Group {
	lib := libraries(res)
	key := func(p *record.Point) string {
		return fmt.Sprintf("%s/%s/np%d/%s/%s", p.RunID, lib[p.RunID], p.NProcs, p.Op, p.Method)
	}
	strided := map[string]bool{}
	for i := range res.Points {
		if p := &res.Points[i]; p.DataLayout != "" {
			strided[key(p)] = true
		}
	}
	all := groupBy(res, func(p *record.Point) bool { return strided[key(p)] && !atomic(p) }, key)
	var out []Group
	for _, g := range all {
		layouts := map[string]bool{}
		for i := range g.Points {
			layouts[layoutLine(&g.Points[i])] = true
		}
		if len(layouts) >= 2 {
			out = append(out, g)
		}
	}
	return out
}

func buildLayout(g Group, opts Options) (*Figure, error) {
	ax := timeAxisOf(g.Points)
	lines, p := linesBy(g.Points, layoutLine, func(p *record.Point) (float64, float64, float64, bool) {
		return ax.value(p, opts.errors())
	}, opts.errors())
	var notes []string
	if len(lines) > 8 { // more than a legend can hold: the first 8, said so
		notes = append(notes, fmt.Sprintf("the first 8 of %d lines", len(lines)))
		lines = lines[:8]
	}
	op := p.Op
	if p.Method != "" {
		op += " [" + p.Method + "]"
	}
	logX := chart.SpansDecade(sizes(g.Points))
	name := fmt.Sprintf("layout-%s", p.Op)
	if p.Method != "" {
		name += "-" + p.Method
	}
	return lineFigure(fmt.Sprintf("%s-np%d", name, p.NProcs), "layout", chart.LineSpec{
		Title:   fmt.Sprintf("%s: derived datatypes vs packed, %d processes", op, p.NProcs),
		Caption: caption(g, opts, append(ax.notes(), "msg_bytes is the payload")...),
		X:       chart.AxisSpec{Quantity: chart.Bytes, Label: "payload (msg_bytes)", Scale: scaleOf(logX)},
		Y:       chart.AxisSpec{Quantity: chart.Seconds, Label: ax.label(g.Points), Scale: scaleOf(logX)},
		Lines:   lines,
		Notes:   notes,
		Width:   opts.Width, Height: opts.Height,
	})
}
