package chart

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BarSpec is a grouped-bar figure: for each category, a bar of each group side by
// side, the groups in the legend. The value axis is linear from zero.
type BarSpec struct {
	Title, Caption string
	Notes          []string
	X              AxisSpec // its quantity and label; the categories name the ticks
	Y              AxisSpec // the values' quantity and label (the unit is added)
	Categories     []string
	Groups         []Part    // one value per category each, in base units; 0 draws no bar
	Width, Height  vg.Length // 0: DefaultWidth, DefaultHeight
}

// NewBarFigure draws a grouped-bar figure, the category names turned to fit.
func NewBarFigure(s BarSpec) (*Figure, error) {
	top := 0.0
	for _, g := range s.Groups {
		if len(g.Values) != len(s.Categories) {
			return nil, fmt.Errorf("%s: %d values for %d categories", g.Label, len(g.Values), len(s.Categories))
		}
		for _, v := range g.Values {
			top = math.Max(top, v)
		}
	}
	if len(s.Categories) == 0 || !(top > 0) || math.IsInf(top, 0) {
		return nil, fmt.Errorf("no bar to draw: every value is 0, negative or not finite")
	}
	f := &Figure{
		Title: s.Title, Caption: s.Caption, Notes: s.Notes,
		Width: s.Width, Height: s.Height,
		Legend: newLegend(),
		X:      Axis{Quantity: s.X.Quantity, Label: s.X.Label, Div: 1, Min: -0.5, Max: float64(len(s.Categories)) - 0.5},
	}
	f.Y = makeAxis(AxisSpec{Quantity: s.Y.Quantity, Label: s.Y.Label}, false, []float64{top})
	f.Y.Min, f.Y.Max = 0, top/f.Y.Div*1.1
	p := newPlot(f)
	p.NominalX(s.Categories...)
	p.X.Tick.Label.Font = font9
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	p.X.Min, p.X.Max = f.X.Min, f.X.Max
	width := vg.Points(math.Max(4, math.Min(14, 300/float64(len(s.Categories)*len(s.Groups)))))
	colors := []color.Color{palette[0], palette[1], palette[2], palette[3]}
	for i, g := range s.Groups {
		vals := make(plotter.Values, len(s.Categories))
		for j, v := range g.Values {
			vals[j] = v / f.Y.Div
		}
		bc, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		bc.Color, bc.LineStyle.Width = colors[i%len(colors)], 0
		bc.Offset = vg.Length(float64(i)-float64(len(s.Groups)-1)/2) * width
		p.Add(bc)
		f.Legend.Add(g.Label, bc)
	}
	f.Plot = p
	return f, nil
}
