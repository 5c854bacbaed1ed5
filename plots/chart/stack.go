package chart

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// stackColors colour the layers of a stacked bar, bottom to top: blue, orange, and a
// light teal on top (what is gone, in an overlap bar), apart in hue and in lightness.
var stackColors = []color.Color{palette[0], palette[1], palette[3]}

// StackSpec is a stacked-bar figure: one bar per category, stacked from parts that
// are shares (0 to 1) of it, an annotation above each bar.
type StackSpec struct {
	Title, Caption string
	Notes          []string
	X, Y           AxisSpec // their quantities and labels: the bars' categories, the shares
	Stack          Stack
	Width, Height  vg.Length // 0: DefaultWidth, DefaultHeight
}

// NewStackFigure draws a stacked-bar figure. Where bars are too narrow for their names
// or annotations, every k-th bar is named or annotated (a note says so of annotations).
func NewStackFigure(s StackSpec) (*Figure, error) {
	st := s.Stack
	f := &Figure{
		Title: s.Title, Caption: s.Caption, Notes: s.Notes,
		Width: s.Width, Height: s.Height,
		Legend: newLegend(),
		Stack:  &st,
		X:      Axis{Quantity: s.X.Quantity, Label: s.X.Label, Div: 1, Min: -0.5, Max: float64(len(st.Categories)) - 0.5},
		Y:      Axis{Quantity: s.Y.Quantity, Label: s.Y.Label, Div: 1},
	}
	if err := drawStack(f); err != nil {
		return nil, err
	}
	return f, nil
}

// drawStack draws f.Stack as stacked bars of shares (0 to 1), one per category, the
// annotation above each, and the legend listing the top layer first as the bars stack.
// The y range leaves room for the annotations.
func drawStack(f *Figure) error {
	st := f.Stack
	n := len(st.Categories)
	var labels []string
	for _, part := range st.Parts {
		labels = append(labels, part.Label)
	}
	slot, _ := plotArea(f, labels)
	upright, anns, extent := annotationLayout(st.Annotations, slot)
	// Name every k-th bar, annotate every j-th, so that neither runs into the next.
	tick := text.Style{Font: font9, Handler: plot.DefaultTextHandler}
	var wide vg.Length
	for _, c := range st.Categories {
		wide = max(wide, tick.Width(c))
	}
	names, _ := everyKth(st.Categories, wide+vg.Points(6), slot)
	if !upright {
		var k int
		anns, k = everyKth(anns, annotationStyle(true).Height("0%")+vg.Points(1), slot)
		if k > 1 {
			f.Notes = append(f.Notes, fmt.Sprintf("bars too narrow to annotate each: every %s bar annotated", ordinal(k)))
		}
	}
	_, dataH := plotArea(f, labels) // the notes are final now
	room := extent + vg.Points(10)
	f.Y.Min, f.Y.Max = 0, 2
	if dataH > room {
		f.Y.Max = math.Min(2, math.Max(1.08, float64(1/(1-room/dataH))))
	}

	p := newPlot(f)
	p.Y.Tick.Marker = shareTicks{}
	p.NominalX(names...)
	p.X.Tick.Label.Font = font9
	p.X.Min, p.X.Max = f.X.Min, f.X.Max
	width := vg.Length(math.Max(6, math.Min(30, float64(slot)*0.6)))
	var below *plotter.BarChart
	for i, part := range st.Parts {
		if len(part.Values) != n {
			return fmt.Errorf("%s: %d values for %d bars", part.Label, len(part.Values), n)
		}
		bc, err := plotter.NewBarChart(plotter.Values(part.Values), width)
		if err != nil {
			return fmt.Errorf("%s: %w", part.Label, err)
		}
		bc.Color = stackColors[i%len(stackColors)]
		bc.LineStyle.Width = vg.Points(0.4)
		bc.LineStyle.Color = color.White
		if below != nil {
			bc.StackOn(below)
		}
		below = bc
		p.Add(bc)
	}
	// The legend lists the top layer first, as the bars stack.
	for i := len(st.Parts) - 1; i >= 0; i-- {
		bc, err := plotter.NewBarChart(plotter.Values{1}, width)
		if err != nil {
			return err
		}
		bc.Color, bc.LineStyle.Width = stackColors[i%len(stackColors)], 0
		f.Legend.Add(st.Parts[i].Label, bc)
	}
	xyl := plotter.XYLabels{Labels: anns}
	for i := 0; i < n; i++ {
		top := 0.0
		for _, part := range st.Parts {
			top += part.Values[i]
		}
		xyl.XYs = append(xyl.XYs, plotter.XY{X: float64(i), Y: top})
	}
	ls, err := plotter.NewLabels(xyl)
	if err != nil {
		return err
	}
	for i := range ls.TextStyle {
		sty := annotationStyle(upright)
		sty.Handler = ls.TextStyle[i].Handler
		ls.TextStyle[i] = sty
	}
	ls.Offset = vg.Point{Y: vg.Points(3)}
	p.Add(ls)
	f.Plot = p
	return nil
}

// annotationStyle: centred above a bar, or turned to read upwards when bars are narrow.
func annotationStyle(upright bool) text.Style {
	sty := text.Style{Color: color.Black, Font: font9, XAlign: draw.XCenter, YAlign: draw.YBottom,
		Handler: plot.DefaultTextHandler}
	if !upright {
		sty.Rotation, sty.XAlign, sty.YAlign = math.Pi/2, draw.XLeft, draw.YCenter
	}
	return sty
}

// annotationLayout chooses upright annotations, one part per line ("62%" over
// "3.1 µs"), when they fit the width of a bar's slot, else one turned line each. It
// returns the labels as drawn and how far above a bar they reach.
func annotationLayout(anns []string, slot vg.Length) (upright bool, labels []string, extent vg.Length) {
	sty := annotationStyle(true)
	stacked := make([]string, len(anns))
	var wide, tall vg.Length
	for i, a := range anns {
		stacked[i] = strings.ReplaceAll(a, " · ", "\n")
		wide = max(wide, sty.Width(stacked[i]))
		tall = max(tall, sty.Height(stacked[i]))
	}
	if wide+vg.Points(6) <= slot {
		return true, stacked, tall
	}
	for _, a := range anns {
		extent = max(extent, sty.Width(a))
	}
	return false, anns, extent
}

// plotArea estimates the width of a bar's slot and the height of the data area from
// the figure's size, its text and legend (Draw lays them out the same way), so the
// annotations can be fitted before the plot is drawn.
func plotArea(f *Figure, legendLabels []string) (slot, height vg.Length) {
	w, h := f.size()
	inner := w - vg.Points(20)
	small := textStyle(sans, 9, captionColor)
	title := textStyle(sansBold, 13, color.Black)
	above := vg.Points(15 + 8)
	for _, line := range wrap(title, f.Title, inner) {
		above += title.Rectangle(line).Size().Y
	}
	for _, s := range append([]string{f.Caption}, f.Notes...) {
		for _, line := range wrap(small, s, inner) {
			above += small.Rectangle(line).Size().Y
		}
	}
	label := text.Style{Font: font11, Handler: plot.DefaultTextHandler}
	tick := text.Style{Font: font9, Handler: plot.DefaultTextHandler}
	axisX := label.Height("M") + tick.Height("M") + vg.Points(4+5+4)
	var legend vg.Length
	sty := text.Style{Font: font.From(sans, 9), Handler: plot.DefaultTextHandler}
	for _, l := range legendLabels {
		legend = max(legend, sty.Width(l))
	}
	legend += vg.Points(22 + 10 + 14)
	axisY := label.Height("M") + tick.Width("0.8") + vg.Points(4+5+6)
	n := len(f.Stack.Categories)
	slot = (inner - legend - axisY) / vg.Length(max(n, 1))
	return slot, h - above - axisX
}

// everyKth keeps every k-th item, blanking the others, k the smallest step at which
// items need no more than room each in slots of the given width.
func everyKth(items []string, room, slot vg.Length) ([]string, int) {
	k := 1
	if slot > 0 {
		k = max(1, int(math.Ceil(float64(room/slot))))
	}
	out := make([]string, len(items))
	for i := range items {
		if i%k == 0 {
			out[i] = items[i]
		}
	}
	return out, k
}

func ordinal(k int) string {
	switch k {
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", k)
}
