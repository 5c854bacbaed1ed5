package chart

import (
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Marks over a line figure whose X is a sequence of events (runs in time order): a
// vertical line per change with its label at the top, a column where a line has no
// value with its reason at the bottom, a shaded column for the one to look at (the
// latest), and named ticks. The data keeps clear of the labels: the value axis is
// widened by the rows they take.

// Mark is a vertical line across the data at X (base units) labelled at its top.
type Mark struct {
	X     float64
	Label string
	Minor bool // dotted and lighter: a change of a part (one size), not of the whole
}

// Gap is a place along X where the data has no value: a light column and a cross at
// the bottom, with the reason (a fault's kind) above it.
type Gap struct {
	X     float64
	Label string
}

// Span shades From..To along X, its label at the top: the latest run.
type Span struct {
	From, To float64
	Label    string
}

// Tick names a position of the X axis (a run: "8\n11-25").
type Tick struct {
	X     float64
	Label string
}

var (
	markColor  = color.RGBA{0xa0, 0x10, 0x10, 0xff}
	minorColor = color.RGBA{0xc0, 0x70, 0x70, 0xff}
	gapColor   = color.RGBA{0xd0, 0x20, 0x20, 0xff}
	spanColor  = color.RGBA{0xff, 0xf0, 0xb0, 0xff}
	labelBack  = color.NRGBA{0xff, 0xff, 0xff, 0xd8}
)

func markLabelStyle(c color.Color) text.Style {
	return text.Style{Color: c, Font: font9, XAlign: draw.XLeft, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
}

func gapLabelStyle() text.Style {
	return text.Style{Color: gapColor, Font: font9, XAlign: draw.XCenter, YAlign: draw.YBottom, Handler: plot.DefaultTextHandler}
}

// placed is a label laid out: its left edge, width and row (0 the outermost).
type placed struct {
	left, width vg.Length
	row         int
}

// rows lays out labels at left edges (points) into rows, each label in the first row
// where it does not touch the one before it: close changes stack instead of overlap.
func rows(lefts, widths []vg.Length) ([]placed, int) {
	idx := make([]int, len(lefts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return lefts[idx[a]] < lefts[idx[b]] })
	out := make([]placed, len(lefts))
	var ends []vg.Length
	for _, i := range idx {
		r := 0
		for r < len(ends) && lefts[i] < ends[r]+vg.Points(4) {
			r++
		}
		if r == len(ends) {
			ends = append(ends, 0)
		}
		ends[r] = lefts[i] + widths[i]
		out[i] = placed{left: lefts[i], width: widths[i], row: r}
	}
	return out, len(ends)
}

// overlay holds a figure's marks; under draws what goes below the lines (columns,
// vertical lines), over what goes above them (labels, crosses).
type overlay struct {
	marks []Mark
	gaps  []Gap
	spans []Span
	div   float64 // of the X axis: plotted X = X / div
}

type underMarks struct{ *overlay }
type overMarks struct{ *overlay }

func (o *overlay) empty() bool { return len(o.marks)+len(o.gaps)+len(o.spans) == 0 }

// columnHalf is half the width of a gap's column: a third of the narrowest step along X.
func (o *overlay) columnHalf(trX func(float64) vg.Length, xs []float64) vg.Length {
	half := vg.Points(6)
	sorted := append([]float64(nil), xs...)
	sort.Float64s(sorted)
	for i := 1; i < len(sorted); i++ {
		if d := trX(sorted[i]) - trX(sorted[i-1]); d > 0 {
			half = min(half, d/3)
		}
	}
	return max(half, vg.Points(2))
}

func (u underMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, s := range u.spans {
		x0, x1 := trX(s.From/u.div), trX(s.To/u.div)
		c.SetColor(spanColor)
		c.Fill(rect(x0, c.Min.Y, x1, c.Max.Y))
	}
	var xs []float64
	for _, g := range u.gaps {
		xs = append(xs, g.X/u.div)
	}
	half := u.columnHalf(trX, xs)
	for _, g := range u.gaps {
		x := trX(g.X / u.div)
		c.SetColor(color.NRGBA{0xd0, 0x20, 0x20, 0x22})
		c.Fill(rect(x-half, c.Min.Y, x+half, c.Max.Y))
	}
	for _, m := range u.marks {
		x := trX(m.X / u.div)
		sty := draw.LineStyle{Color: markColor, Width: vg.Points(1.3)}
		if m.Minor {
			sty = draw.LineStyle{Color: minorColor, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}
		}
		c.StrokeLine2(sty, x, c.Min.Y, x, c.Max.Y)
	}
}

// topLabels are the marks' and spans' labels, their left edges at x (in points).
func (o *overlay) topLabels(trX func(float64) vg.Length) (texts []string, styles []text.Style, lefts, widths []vg.Length) {
	for _, m := range o.marks {
		if m.Label == "" {
			continue
		}
		sty := markLabelStyle(markColor)
		if m.Minor {
			sty = markLabelStyle(minorColor)
		}
		texts, styles = append(texts, m.Label), append(styles, sty)
		lefts, widths = append(lefts, trX(m.X/o.div)+vg.Points(3)), append(widths, sty.Width(m.Label))
	}
	for _, s := range o.spans {
		if s.Label == "" {
			continue
		}
		sty := markLabelStyle(captionColor)
		w := sty.Width(s.Label)
		mid := (trX(s.From/o.div) + trX(s.To/o.div)) / 2
		texts, styles = append(texts, s.Label), append(styles, sty)
		lefts, widths = append(lefts, mid-w/2), append(widths, w)
	}
	return
}

func (o overMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	texts, styles, lefts, widths := o.topLabels(trX)
	at, _ := rows(lefts, widths)
	for i, t := range texts {
		h := styles[i].Height(t)
		y := c.Max.Y - vg.Points(2) - vg.Length(at[i].row)*(h+vg.Points(2))
		c.SetColor(labelBack)
		c.Fill(rect(at[i].left-vg.Points(1), y-h, at[i].left+at[i].width+vg.Points(1), y))
		c.FillText(styles[i], vg.Point{X: at[i].left, Y: y}, t)
	}
	sty := gapLabelStyle()
	var glefts, gwidths []vg.Length
	for _, g := range o.gaps {
		w := sty.Width(g.Label)
		glefts, gwidths = append(glefts, trX(g.X/o.div)-w/2), append(gwidths, w)
	}
	gat, _ := rows(glefts, gwidths)
	cross := draw.GlyphStyle{Color: gapColor, Radius: vg.Points(3.5), Shape: draw.CrossGlyph{}}
	for i, g := range o.gaps {
		x := trX(g.X / o.div)
		base := c.Min.Y + vg.Points(6)
		c.DrawGlyph(cross, vg.Point{X: x, Y: base})
		if g.Label == "" {
			continue
		}
		h := sty.Height(g.Label)
		y := base + vg.Points(6) + vg.Length(gat[i].row)*(h+vg.Points(1))
		c.SetColor(labelBack)
		c.Fill(rect(gat[i].left-vg.Points(1), y, gat[i].left+gat[i].width+vg.Points(1), y+h))
		c.FillText(sty, vg.Point{X: x, Y: y}, g.Label)
	}
}

func rect(x0, y0, x1, y1 vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: x0, Y: y0})
	p.Line(vg.Point{X: x1, Y: y0})
	p.Line(vg.Point{X: x1, Y: y1})
	p.Line(vg.Point{X: x0, Y: y1})
	p.Close()
	return p
}

// namedTicks are an X axis's named positions, every k-th labelled counting back from
// the last: the latest run is always named.
type namedTicks struct {
	ticks []Tick
	div   float64
	every int
}

func (n namedTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for i, t := range n.ticks {
		pt := plot.Tick{Value: t.X / n.div}
		if (len(n.ticks)-1-i)%max(1, n.every) == 0 {
			pt.Label = t.Label
		}
		out = append(out, pt)
	}
	return out
}

// decorate adds the marks and named ticks of s to the figure's plot, after its lines
// (under was added before them): ticks thinned to fit the data's estimated width, and
// the value axis widened by the rows the labels take, so that no label sits on the data.
func decorate(f *Figure, p *plot.Plot, s LineSpec, under *overlay) {
	w, h := f.size()
	legend := vg.Length(0)
	if hasEntries(f.Legend) {
		legend = f.Legend.Rectangle(draw.Canvas{}).Size().X + vg.Points(14)
	}
	dataW := w - vg.Points(20) - legend - vg.Points(50)
	dataH := h - vg.Points(110)
	if dataW <= 0 || dataH <= 0 {
		return
	}
	trX := func(x float64) vg.Length {
		return vg.Length((x - f.X.Min) / (f.X.Max - f.X.Min) * float64(dataW))
	}
	if len(s.XTicks) > 0 {
		tick := text.Style{Font: font9, Handler: plot.DefaultTextHandler}
		var wide vg.Length
		for _, t := range s.XTicks {
			wide = max(wide, tick.Width(t.Label))
		}
		slot := dataW / vg.Length(len(s.XTicks))
		every := max(1, int(math.Ceil(float64((wide+vg.Points(6))/slot))))
		p.X.Tick.Marker = namedTicks{ticks: s.XTicks, div: f.X.Div, every: every}
	}
	if under.empty() {
		return
	}
	p.Add(overMarks{under})
	line := markLabelStyle(markColor).Height("M") + vg.Points(2)
	top, bottom := vg.Length(0), vg.Length(0)
	if _, _, lefts, widths := under.topLabels(func(x float64) vg.Length { return trX(x) }); len(lefts) > 0 {
		_, n := rows(lefts, widths)
		top = vg.Length(n)*line + vg.Points(4)
	}
	if len(under.gaps) > 0 {
		var lefts, widths []vg.Length
		sty := gapLabelStyle()
		for _, g := range under.gaps {
			w := sty.Width(g.Label)
			lefts, widths = append(lefts, trX(g.X/under.div)-w/2), append(widths, w)
		}
		_, n := rows(lefts, widths)
		bottom = vg.Points(12) + vg.Length(n)*line
	}
	// Widen the value range so that the data's own range keeps clear of both bands.
	rt, rb := float64(top/dataH), float64(bottom/dataH)
	if rt+rb >= 0.6 {
		return // too little room: the labels overlap the data rather than squeeze it away
	}
	lo, hi := f.Y.Min, f.Y.Max
	if f.Y.Log {
		lo, hi = math.Log10(lo), math.Log10(hi)
	}
	span := (hi - lo) / (1 - rt - rb)
	lo, hi = lo-rb*span, hi+rt*span
	if f.Y.Log {
		lo, hi = math.Pow(10, lo), math.Pow(10, hi)
	}
	f.Y.Min, f.Y.Max = lo, hi
	p.Y.Min, p.Y.Max = lo, hi
}
