package chart

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// band shades the area between a series' Lo and Hi ends, in its colour made
// translucent, so that two overlapping bands and the lines on them stay visible.
type band struct {
	s     Series
	color color.Color
}

// bandAlpha is the band's opacity: light enough that a line shows through two bands.
const bandAlpha = 0.22

func (b *band) fill() color.Color {
	r, g, bl, _ := b.color.RGBA()
	a := bandAlpha
	// Premultiplied, as color.RGBA wants.
	return color.RGBA{R: uint8(float64(r>>8) * a), G: uint8(float64(g>>8) * a), B: uint8(float64(bl>>8) * a), A: uint8(255 * a)}
}

func (b *band) Plot(c draw.Canvas, p *plot.Plot) {
	if len(b.s.X) < 2 {
		return // a single size has no area: its line's glyph stands alone
	}
	trX, trY := p.Transforms(&c)
	var path vg.Path
	for i := range b.s.X {
		pt := vg.Point{X: trX(b.s.X[i]), Y: trY(b.s.Lo[i])}
		if i == 0 {
			path.Move(pt)
		} else {
			path.Line(pt)
		}
	}
	for i := len(b.s.X) - 1; i >= 0; i-- {
		path.Line(vg.Point{X: trX(b.s.X[i]), Y: trY(b.s.Hi[i])})
	}
	path.Close()
	c.SetColor(b.fill())
	c.Fill(path)
}

// Thumbnail shows the band in the legend, behind the line's thumbnail.
func (b *band) Thumbnail(c *draw.Canvas) {
	h := (c.Max.Y - c.Min.Y) / 2
	mid := (c.Min.Y + c.Max.Y) / 2
	pts := []vg.Point{{X: c.Min.X, Y: mid - h}, {X: c.Max.X, Y: mid - h}, {X: c.Max.X, Y: mid + h}, {X: c.Min.X, Y: mid + h}}
	c.FillPolygon(b.fill(), c.ClipPolygonY(pts))
}
