package plots

import (
	"fmt"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/report/compare"
)

// RatioFigures draws every table of a comparison as the ratio other/baseline against
// message size, one line per process count, with a reference line at 1. A table whose
// ratios cannot be drawn is left out and listed in skipped.
func RatioFigures(c *compare.Comparison) (out []*Figure, skipped []Skipped) {
	for _, t := range c.Tables {
		byProcs := map[int]*chart.Line{}
		var order []int
		compared, significant := 0, 0
		for _, r := range t.Rows {
			if !r.Compared() || r.MsgBytes <= 0 {
				continue
			}
			l, ok := byProcs[r.NProcs]
			if !ok {
				l = &chart.Line{Label: fmt.Sprintf("%d processes", r.NProcs)}
				byProcs[r.NProcs] = l
				order = append(order, r.NProcs)
			}
			l.X = append(l.X, float64(r.MsgBytes))
			l.Y = append(l.Y, r.Ratio)
			compared++
			if r.Significant {
				significant++
			}
		}
		if compared == 0 {
			continue
		}
		var lines []chart.Line
		for _, n := range order {
			lines = append(lines, *byProcs[n])
		}
		f, err := ratioFigure(fmt.Sprintf("ratio-%s-vs-%s-%s", t.Other, t.Baseline, t.Measurement), chart.LineSpec{
			Title:   fmt.Sprintf("%s: %s / %s", t.Measurement, t.Other, t.Baseline),
			Caption: fmt.Sprintf("%s ratio, geometric mean %.3f; %d of %d differences significant (p <= %g)", t.Metric, t.Geomean.Ratio, significant, compared, c.Alpha),
			X:       chart.AxisSpec{Quantity: chart.Bytes, Label: "message size"},
			Y:       chart.AxisSpec{Quantity: chart.Ratio, Label: fmt.Sprintf("%s ratio %s / %s", t.Metric, t.Other, t.Baseline), Scale: chart.Linear},
			Lines:   lines, Reference: []float64{1},
		})
		if err != nil {
			skipped = append(skipped, Skipped{Figure: fmt.Sprintf("ratio figure %s / %s of %s", t.Other, t.Baseline, t.Measurement), Reason: err.Error()})
			continue
		}
		out = append(out, f)
	}
	return out, skipped
}

// ratioFigure is lineFigure with a panic of the plotting library as its error.
func ratioFigure(name string, s chart.LineSpec) (f *Figure, err error) {
	defer recoverAs(&err)
	return lineFigure(name, "ratio", s)
}
