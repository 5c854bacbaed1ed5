package chart

import (
	"image/color"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Role is what a line is to the figure, which decides its weight.
type Role int

const (
	RoleData Role = iota // the data: drawn wider where context lines sit behind it
	// RoleContext: thin, light, small glyphs, one legend entry for all (under the first's
	// label): the parts behind a summary, such as each size behind their mean.
	RoleContext
	// RoleReference: grey, dashed, no glyphs: a reference that moves, such as a rolling
	// baseline.
	RoleReference
)

// roleStyles are the line's and its glyphs' styles (a glyph radius of 0: none).
func roleStyles(r Role, st style, context bool) (draw.LineStyle, draw.GlyphStyle) {
	switch r {
	case RoleContext:
		c := lighter(st.color, 0.45)
		return draw.LineStyle{Color: c, Width: vg.Points(0.8), Dashes: st.dashes}, draw.GlyphStyle{Color: c, Radius: vg.Points(1.5), Shape: st.glyph}
	case RoleReference:
		return draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(1.3), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}, draw.GlyphStyle{}
	}
	width, radius := vg.Points(1.4), vg.Points(2.6)
	if context {
		width, radius = vg.Points(2.4), vg.Points(3.2)
	}
	return draw.LineStyle{Color: st.color, Width: width, Dashes: st.dashes}, draw.GlyphStyle{Color: st.color, Radius: radius, Shape: st.glyph}
}

// lighter mixes c with white, keeping share of c.
func lighter(c color.Color, share float64) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8(share*float64(v>>8) + (1-share)*255) }
	return color.RGBA{R: mix(r), G: mix(g), B: mix(b), A: 0xff}
}

// segments are the series' points split where Break says the line stops.
func segments(s Series) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	for j := range s.X {
		if j > 0 && j < len(s.Break) && s.Break[j] && len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
		cur = append(cur, plotter.XY{X: s.X[j], Y: s.Y[j]})
	}
	return append(out, cur)
}
