package chart

import (
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure sizes, and the resolution of PNG output.
const (
	DefaultWidth  = 8 * vg.Inch
	DefaultHeight = 4.8 * vg.Inch
	PNGDPI        = 150
)

// Figure is one chart: the plot, the data it shows and what surrounds it.
type Figure struct {
	Title   string
	Caption string   // under the title, smaller: where the data comes from
	Notes   []string // what the figure leaves out or clips, drawn under the caption

	X, Y   Axis
	Series []Series // line figures: the plotted data, in axis units
	Stack  *Stack   // stacked-bar figures
	// Over a line figure's data (LineSpec's): changes, values missing, a shaded span.
	Marks []Mark
	Gaps  []Gap
	Spans []Span

	// Plot holds the axes and the data; Draw adds the title, the caption and the
	// legend (kept outside the data area) around it.
	Plot   *plot.Plot
	Legend plot.Legend

	Width, Height vg.Length
}

// Axis describes one axis as drawn.
type Axis struct {
	Quantity Quantity
	Label    string  // as drawn, with the unit: "round-trip time [µs]"
	Unit     string  // "µs", "GB/s"; "" for sizes (the ticks say B/KiB/MiB) and plain numbers
	Div      float64 // plotted value = value in base units (s, B/s, B) / Div
	Log      bool
	Min, Max float64 // plotted range
}

// Series is one plotted line, in axis units.
type Series struct {
	Label  string
	X, Y   []float64
	Lo, Hi []float64 // error-bar ends; nil without error bars
	// Clipped marks lower ends raised to the axis minimum on a log axis (they were <= 0
	// or far below the data); they are drawn with an open, arrow-like end.
	Clipped []bool
	Style   *LineStyle // nil: by position
	Band    bool       // Lo..Hi is a shaded band, not error bars
	Break   []bool     // Break[i]: no segment into point i (see Line)
	Role    Role
}

// Stack is the data of a stacked-bar figure, in axis units.
type Stack struct {
	Categories  []string // one bar each, left to right
	Parts       []Part   // bottom to top
	Annotations []string // above each bar
}

// Part is one layer of stacked bars, or one bar of each category in a bar figure.
type Part struct {
	Label  string
	Values []float64
}

func (f *Figure) size() (vg.Length, vg.Length) {
	w, h := f.Width, f.Height
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	return w, h
}

// Draw draws the whole figure on c (Render and SVG call it; for PDF use Render).
func (f *Figure) Draw(c draw.Canvas) { f.draw(c, true) }

// draw draws the figure; the title is bold unless the canvas cannot embed a bold face
// (gonum's PDF canvas registers every face as regular and then asks for bold).
func (f *Figure) draw(c draw.Canvas, bold bool) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	pad := vg.Points(10)
	c = draw.Crop(c, pad, -pad, pad/2, -pad)

	y := c.Max.Y
	title := textStyle(sansBold, 13, color.Black)
	if !bold {
		title = textStyle(sans, 13.5, color.Black)
	}
	for _, line := range wrap(title, f.Title, c.Size().X) {
		c.FillText(title, vg.Point{X: c.Center().X, Y: y}, line)
		y -= title.Rectangle(line).Size().Y
	}
	small := textStyle(sans, 9, captionColor)
	y -= 2
	for _, s := range append([]string{f.Caption}, f.Notes...) {
		for _, line := range wrap(small, s, c.Size().X) {
			c.FillText(small, vg.Point{X: c.Center().X, Y: y}, line)
			y -= small.Rectangle(line).Size().Y
		}
	}
	body := c
	body.Max.Y = y - vg.Points(6)

	if hasEntries(f.Legend) {
		lw := f.Legend.Rectangle(body).Size().X + vg.Points(14)
		lc := body
		lc.Min.X = body.Max.X - lw + vg.Points(10)
		lc.Max.Y = body.Max.Y - vg.Points(4)
		f.Legend.Draw(lc)
		body.Max.X -= lw
	}
	f.Plot.Draw(body)
}

// hasEntries says whether the legend has any entry (their count is not exported).
func hasEntries(l plot.Legend) bool {
	return l.Rectangle(draw.Canvas{}).Size().Y > 0
}

// wrap breaks s at " · " separators, then spaces, to fit width.
func wrap(sty text.Style, s string, width vg.Length) []string {
	if s == "" {
		return nil
	}
	if sty.Rectangle(s).Size().X <= width {
		return []string{s}
	}
	sep := " · "
	words := strings.Split(s, sep)
	if len(words) == 1 {
		sep, words = " ", strings.Fields(s)
	}
	var lines []string
	cur := ""
	for _, w := range words {
		next := w
		if cur != "" {
			next = cur + sep + w
		}
		if cur != "" && sty.Rectangle(next).Size().X > width {
			lines = append(lines, cur)
			next = w
		}
		cur = next
	}
	lines = append(lines, cur)
	if sep == " " {
		return lines
	}
	// A part wider than the figure by itself breaks at its spaces.
	var out []string
	for _, l := range lines {
		if sty.Rectangle(l).Size().X > width && strings.Contains(l, " ") {
			out = append(out, wrapWords(sty, l, width)...)
		} else {
			out = append(out, l)
		}
	}
	return out
}

func wrapWords(sty text.Style, s string, width vg.Length) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		next := w
		if cur != "" {
			next = cur + " " + w
		}
		if cur != "" && sty.Rectangle(next).Size().X > width {
			lines = append(lines, cur)
			next = w
		}
		cur = next
	}
	return append(lines, cur)
}
