package chart

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
)

func TestPDFText(t *testing.T) {
	if got := cp1252("µs · ±5 – 1…2 ≤ é"); got != "\xb5s \xb7 \xb15 \x96 1\x852 ? \xe9" {
		t.Errorf("%q", got)
	}
}

// plotFunc is a plotter that runs f when drawn (here: panics, as the plotting library
// does on some data).
type plotFunc func()

func (f plotFunc) Plot(draw.Canvas, *plot.Plot) { f() }

// A figure the plotting library panics on is an error, not a crash; so is a figure
// with nothing drawn, and an unknown format.
func TestRenderRecovers(t *testing.T) {
	p := plot.New()
	p.Add(plotFunc(func() { panic("log scale: non-positive value") }))
	f := &Figure{Plot: p, Legend: newLegend()}
	err := f.Render(io.Discard, "png")
	if err == nil || !strings.Contains(err.Error(), "non-positive value") {
		t.Errorf("render: %v", err)
	}
	if err := (&Figure{}).Render(io.Discard, "svg"); err == nil || err.Error() != "nothing drawn" {
		t.Errorf("nothing drawn: %v", err)
	}
	g := &Figure{Title: "t", Plot: plot.New(), Legend: newLegend()}
	if err := g.Render(&bytes.Buffer{}, "gif"); err == nil || !strings.Contains(err.Error(), `unknown format "gif"`) {
		t.Errorf("gif: %v", err)
	}
	svg, err := g.SVG()
	if err != nil || !bytes.HasPrefix(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("Liberation Sans,Arial")) {
		t.Errorf("SVG element: %v %q", err, svg[:min(len(svg), 80)])
	}
}

// Stacked bars: every category a bar, the axis leaving room above 1 for the
// annotations but ticked up to 1 only; parts of the wrong length are an error.
func TestStackFigure(t *testing.T) {
	s := StackSpec{Title: "t", X: AxisSpec{Quantity: Bytes, Label: "size"}, Y: AxisSpec{Quantity: Ratio, Label: "share"},
		Stack: Stack{Categories: []string{"8 B", "1 KiB"}, Parts: []Part{{"a", []float64{0.25, 0.5}}, {"b", []float64{0.75, 0.5}}},
			Annotations: []string{"75% · 2.0 µs", "50% · 3.1 µs"}}}
	f, err := NewStackFigure(s)
	if err != nil {
		t.Fatal(err)
	}
	if f.Y.Min != 0 || f.Y.Max <= 1 || f.X.Min != -0.5 || f.X.Max != 1.5 || f.Y.Label != "share" || len(f.Stack.Categories) != 2 {
		t.Errorf("x %+v y %+v", f.X, f.Y)
	}
	for _, tk := range f.Plot.Y.Tick.Marker.Ticks(f.Y.Min, f.Y.Max) {
		if tk.Value > 1 {
			t.Errorf("tick %g above a share of 1", tk.Value)
		}
	}
	for _, format := range Formats {
		if !hasMagic(render(t, f, format), format) {
			t.Errorf("%s", format)
		}
	}
	s.Stack.Parts[1].Values = []float64{1}
	if _, err := NewStackFigure(s); err == nil {
		t.Error("a part of one value for two bars accepted")
	}
}

// Grouped bars: a unit from the largest value, the axis from 0 to 10% above it; no
// positive finite value is no figure.
func TestBarFigure(t *testing.T) {
	s := BarSpec{Title: "t", X: AxisSpec{Quantity: Count, Label: "op"}, Y: AxisSpec{Quantity: Seconds, Label: "time"},
		Categories: []string{"a", "b", "c"}, Groups: []Part{{"x", []float64{1e-6, 2e-6, 0}}, {"y", []float64{3e-6, 0, 4e-6}}}}
	f, err := NewBarFigure(s)
	if err != nil {
		t.Fatal(err)
	}
	if f.Y.Unit != "µs" || f.Y.Label != "time [µs]" || f.Y.Min != 0 || !near(f.Y.Max, 4.4) || f.X.Max != 2.5 {
		t.Errorf("x %+v y %+v", f.X, f.Y)
	}
	for _, format := range Formats {
		if !hasMagic(render(t, f, format), format) {
			t.Errorf("%s", format)
		}
	}
	s.Groups = []Part{{"x", []float64{0, -1, 0}}}
	if _, err := NewBarFigure(s); err == nil || !strings.Contains(err.Error(), "no bar to draw") {
		t.Errorf("all zero: %v", err)
	}
	s.Groups = []Part{{"x", []float64{1}}}
	if _, err := NewBarFigure(s); err == nil {
		t.Error("one value for three categories accepted")
	}
}
