package plots

import (
	"fmt"
	"sort"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// overlapRatioKind: the overlap ratio against message size, one line per measurement
// (the same op with and without progress calls are two measurements), so the sizes at
// which a library hides communication, and what progress calls change, read at once.
var overlapRatioKind = Kind{
	Name: "overlap-ratio",
	Doc:  "non-blocking ops: overlap ratio (share of the communication hidden) vs message size, one line per measurement",
	Groups: func(res *report.Results) []Group {
		groups := groupBy(res, hasOverlap, func(p *record.Point) string { return fmt.Sprintf("%s/np%d", nbClass(p.Op), p.NProcs) })
		return splitBy(groups, func(p *record.Point) string { return p.Measurement + "/" + p.Op + "/" + p.RunID }, maxSeries)
	},
	Build: buildOverlapRatio,
}

func buildOverlapRatio(g Group, opts Options) (*Figure, error) {
	e := opts.errors()
	var notes []string
	if e == ErrP10P90 {
		// A ratio of two means has no percentiles; ±stderr would pass for what was asked.
		notes = append(notes, "no p10–p90 for a ratio of two means: no error bars")
	}
	ops, runs := map[string]map[string]bool{}, map[string]bool{}
	for _, p := range g.Points {
		if ops[p.Measurement] == nil {
			ops[p.Measurement] = map[string]bool{}
		}
		ops[p.Measurement][p.Op] = true
		runs[p.RunID] = true
	}
	label := func(p *record.Point) string {
		l := p.Measurement
		if len(ops[p.Measurement]) > 1 {
			l += "\n" + p.Op
		}
		if len(runs) > 1 {
			l += " (run " + runName(p.RunID, opts) + ")"
		}
		return l
	}
	var clamped []string
	ps := append([]record.Point(nil), g.Points...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].MsgBytes < ps[j].MsgBytes })
	for i := range ps {
		if o, _ := overlapOf(&ps[i]); o.RatioRaw != nil {
			clamped = append(clamped, fmt.Sprintf("%.2f at %s", *o.RatioRaw, chart.FormatBytes(float64(ps[i].MsgBytes))))
		}
	}
	if len(clamped) > 0 {
		notes = append(notes, fmt.Sprintf("%s clamped to [0, 1]; measured %s", report.Count(len(clamped), "ratio"), listSome(clamped)))
	}
	lines, _ := linesBy(g.Points, label, func(p *record.Point) (float64, float64, float64, bool) {
		o, _ := overlapOf(p)
		if e != ErrStderr || !finite(o.RatioStderr) {
			return o.Ratio, 0, 0, false
		}
		return o.Ratio, o.Ratio - o.RatioStderr, o.Ratio + o.RatioStderr, true
	}, e)
	capOpts := opts
	if e == ErrP10P90 {
		capOpts.Errors = ErrNone
	}
	logX := chart.SpansDecade(sizes(g.Points))
	return lineFigure(fmt.Sprintf("overlap-ratio-%s%s-np%d", nbClass(g.Points[0].Op), g.partName(), g.Points[0].NProcs), "overlap-ratio", chart.LineSpec{
		Title:   g.partTitle(nbClassTitle[nbClass(g.Points[0].Op)] + ": overlap ratio vs message size"),
		Caption: caption(g, capOpts, "ratio = 1 - not hidden / full"),
		X:       chart.AxisSpec{Quantity: chart.Bytes, Label: "message size", Scale: scaleOf(logX)},
		Y:       chart.AxisSpec{Quantity: chart.Ratio, Label: "overlap ratio (share hidden)", Scale: chart.Linear},
		Lines:   lines,
		// 0 and 1 bound the ratio: drawn, they keep the axis from zooming into noise.
		Reference: []float64{0, 1},
		Notes:     notes,
		Width:     opts.Width, Height: opts.Height,
	})
}

// nbClass puts point-to-point and collective operations in figures of their own, so
// neither drowns in the other's lines.
func nbClass(op string) string {
	if in, ok := ops.Lookup(op); ok && in.SHMEM {
		return "shmem"
	}
	if in, ok := ops.Lookup(op); ok && in.Pattern == ops.PatternAll {
		return "coll"
	}
	if _, ok := ops.Lookup(op); ok {
		return "pt2pt"
	}
	return "other"
}

var nbClassTitle = map[string]string{"coll": "non-blocking collectives", "pt2pt": "non-blocking point-to-point",
	"shmem": "OpenSHMEM puts and gets", "other": "non-blocking"}
