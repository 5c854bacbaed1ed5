package plots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// besideKind: an operation drawn with the one of another family that measures the same
// pattern (ops.Info.Beside: the GROMACS send-receive in OpenSHMEM beside MPI_Sendrecv),
// time vs message size, one figure per run and process count, so a user sees where
// one wins.
var besideKind = Kind{
	Name: "beside",
	Doc:  "an operation beside the one of another family measuring the same pattern (SHMEM send-receive vs MPI_Sendrecv)",
	Groups: func(res *report.Results) []Group {
		groups := groupBy(res, func(p *record.Point) bool { return besideOf(p.Op) != "" }, func(p *record.Point) string {
			return fmt.Sprintf("%s/%s/np%d", p.RunID, besideOf(p.Op), p.NProcs)
		})
		// Only where both sides were measured: one side alone is the latency figure.
		var out []Group
		for _, g := range groups {
			ops := map[string]bool{}
			for _, p := range g.Points {
				ops[p.Op] = true
			}
			if besides := besideOf(g.Points[0].Op); len(ops) > 1 && ops[besides] {
				out = append(out, g)
			}
		}
		return out
	},
	Build: func(g Group, opts Options) (*Figure, error) {
		ax := timeAxisOf(g.Points)
		lines, ps := linesBy(g.Points, measurementOp, func(p *record.Point) (float64, float64, float64, bool) {
			return ax.value(p, opts.errors())
		}, opts.errors())
		ref := besideOf(ps.Op)
		var others []string
		for _, p := range g.Points {
			if p.Op != ref && !slices.Contains(others, p.Op) {
				others = append(others, p.Op)
			}
		}
		logX := chart.SpansDecade(sizes(g.Points))
		return lineFigure(fmt.Sprintf("beside-%s-np%d", ref, ps.NProcs), "beside", chart.LineSpec{
			Title:   fmt.Sprintf("%s beside %s: time vs message size", strings.Join(others, ", "), ref),
			Caption: caption(g, opts, append([]string{"lower is better"}, ax.notes()...)...),
			X:       chart.AxisSpec{Quantity: chart.Bytes, Label: "message size", Scale: scaleOf(logX)},
			Y:       chart.AxisSpec{Quantity: chart.Seconds, Label: ax.label(g.Points), Scale: scaleOf(logX)},
			Lines:   lines,
			Width:   opts.Width, Height: opts.Height,
		})
	},
}

// besideOf is the operation a point's op is drawn beside: its own Beside, itself when
// another op names it, or "".
func besideOf(op string) string {
	if in, ok := ops.Lookup(op); ok && in.Beside != "" {
		return in.Beside
	}
	for _, in := range ops.All() {
		if in.Beside == op {
			return op
		}
	}
	return ""
}
