package chart

import (
	"image/color"
	"sort"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// newPlot makes a plot with the figure's axes: scales, ticks, fonts and a grid.
func newPlot(f *Figure) *plot.Plot {
	p := plot.New()
	p.BackgroundColor = nil // Draw paints the background
	for _, a := range []struct {
		ax  *plot.Axis
		fig Axis
	}{{&p.X, f.X}, {&p.Y, f.Y}} {
		a.ax.Label.Text = a.fig.Label
		a.ax.Label.TextStyle.Font = font11
		a.ax.Tick.Label.Font = font9
		a.ax.Min, a.ax.Max = a.fig.Min, a.fig.Max
		a.ax.Padding = 0
		switch {
		case f.Stack != nil && a.ax == &p.X: // categories: drawStack names them
		case a.fig.Quantity == Count:
			a.ax.Tick.Marker = countTicks(distinctX(f.Series))
		case a.fig.Quantity == Bytes && a.fig.Log:
			a.ax.Tick.Marker = pow2Ticks{}
		case a.fig.Quantity == Bytes:
			a.ax.Tick.Marker = bytesLinearTicks{}
		case a.fig.Log:
			a.ax.Tick.Marker = logTicks{}
		default:
			a.ax.Tick.Marker = linearTicks{}
		}
		if a.fig.Log {
			a.ax.Scale = plot.LogScale{}
		}
	}
	p.X.Label.Padding = vg.Points(4)
	p.Y.Label.Padding = vg.Points(4)
	p.X.Tick.Length, p.Y.Tick.Length = vg.Points(5), vg.Points(5)
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 225}
	grid.Horizontal.Color = color.Gray{Y: 225}
	p.Add(grid)
	return p
}

func distinctX(ss []Series) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, s := range ss {
		for _, x := range s.X {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	sort.Float64s(out)
	return out
}

var (
	font9  = font.From(sans, 9.5)
	font11 = font.From(sans, 11)
)

var (
	sans         = font.Font{Typeface: "Liberation", Variant: "Sans"}
	sansBold     = font.Font{Typeface: "Liberation", Variant: "Sans", Weight: xfont.WeightBold}
	captionColor = color.Gray{Y: 90}
)

func textStyle(f font.Font, size vg.Length, c color.Color) text.Style {
	return text.Style{Color: c, Font: font.From(f, size), XAlign: draw.XCenter, YAlign: draw.YTop,
		Handler: plot.DefaultTextHandler}
}

func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(sans, 9)
	l.Top, l.Left = true, true
	l.Padding = vg.Points(5)
	l.ThumbnailWidth = vg.Points(22)
	return l
}

type style struct {
	color  color.Color
	glyph  draw.GlyphDrawer
	dashes []vg.Length
}

// Colors is how many colours LineStyle.Color picks from; they repeat after that.
const Colors = 10

// palette is Tableau 10: distinguishable, and tolerable for colour-blind readers with
// the glyph shapes.
var palette = [Colors]color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xe1, 0x57, 0x59, 0xff}, {0x76, 0xb7, 0xb2, 0xff},
	{0x59, 0xa1, 0x4f, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
	draw.RingGlyph{}, draw.PyramidGlyph{}, draw.PlusGlyph{}, draw.BoxGlyph{}}

func seriesStyle(i int) style {
	st := style{color: palette[i%len(palette)], glyph: glyphs[i%len(glyphs)]}
	if i >= len(palette) {
		st.dashes = []vg.Length{vg.Points(5), vg.Points(2)}
	}
	return st
}

// variantDashes tell the sources of an overlay apart: solid, dashed, dotted, dash-dot.
var variantDashes = [][]vg.Length{nil, {vg.Points(5), vg.Points(2)}, {vg.Points(1.5), vg.Points(1.5)}, {vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)}}

// fixedStyle: a colour and glyph per Color, a dash (and another glyph) per Variant
// (another measurement of the same thing, another run in an overlay).
func fixedStyle(s LineStyle) style {
	return style{color: palette[s.Color%len(palette)], glyph: glyphs[(s.Color+s.Variant)%len(glyphs)],
		dashes: variantDashes[s.Variant%len(variantDashes)]}
}

// errBars draws vertical error bars; a clipped lower end gets an open chevron
// instead of a cap, so it reads as "continues below".
type errBars struct {
	s     Series
	style draw.LineStyle
}

func (e *errBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	cw := vg.Points(2.5)
	for i := range e.s.X {
		x, lo, hi := trX(e.s.X[i]), trY(e.s.Lo[i]), trY(e.s.Hi[i])
		if hi-lo < vg.Points(1) {
			continue // shorter than a line is wide
		}
		c.StrokeLine2(e.style, x, lo, x, hi)
		c.StrokeLine2(e.style, x-cw, hi, x+cw, hi)
		if e.s.Clipped[i] {
			c.StrokeLines(e.style, []vg.Point{{X: x - cw, Y: lo + cw}, {X: x, Y: lo}, {X: x + cw, Y: lo + cw}})
		} else {
			c.StrokeLine2(e.style, x-cw, lo, x+cw, lo)
		}
	}
}

// hlines draws dashed horizontal reference lines.
type hlines struct{ ys []float64 }

func (h *hlines) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	sty := draw.LineStyle{Color: color.Gray{Y: 110}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	for _, y := range h.ys {
		if y >= p.Y.Min && y <= p.Y.Max {
			c.StrokeLine2(sty, c.Min.X, trY(y), c.Max.X, trY(y))
		}
	}
}
