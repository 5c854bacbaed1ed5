package chart

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Line is one line of a line figure, in base units (bytes, seconds, bytes per second).
type Line struct {
	Label  string
	X, Y   []float64
	Lo, Hi []float64 // error-bar ends (absolute values, not offsets); nil: no error bars
	// Band draws Lo..Hi as a shaded band instead of error bars: the spread of many
	// runs reads as one area where a bar per run and size would be clutter.
	Band bool
	// Style fixes the line's look; nil: the figure's next one. A colour per thing
	// drawn and a variant per source of it (overlays) keep both apart.
	Style *LineStyle
	// Break[i]: no segment from the point before to point i (a run without a value lies
	// between them); nil: one unbroken line.
	Break []bool
	Role  Role
}

// LineStyle picks a line's look: Color indexes the palette, Variant the dash and glyph.
type LineStyle struct{ Color, Variant int }

// AxisSpec says what an axis shows.
type AxisSpec struct {
	Quantity Quantity
	Label    string // without the unit: "round-trip time"
	Scale    Scale
}

// LineSpec is everything a line figure is made of.
type LineSpec struct {
	Title, Caption string
	X, Y           AxisSpec
	Lines          []Line
	Reference      []float64 // horizontal lines at these Y values (base units), e.g. 1 for a ratio
	Notes          []string
	Width, Height  vg.Length // 0: DefaultWidth, DefaultHeight
	// Over the data (marks.go): changes, values missing, a shaded span, named X ticks.
	Marks  []Mark
	Gaps   []Gap
	Spans  []Span
	XTicks []Tick
}

// NewLineFigure draws a line figure: units chosen from the data, log axes when asked
// (or, for AutoScale, when the values span more than a decade), error bars whose
// lower ends are clipped to the axis minimum on a log axis, a legend outside the data.
// Points a log axis cannot show (<= 0) are left out and said so in a note.
func NewLineFigure(s LineSpec) (*Figure, error) {
	lines, notes, err := checkLines(s.Lines)
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("no data to draw: no point has a finite value")
	}
	var xs, ys []float64
	for _, l := range lines {
		xs = append(xs, l.X...)
		ys = append(ys, l.Y...)
	}
	logX := useLog(s.X.Scale, xs)
	lines, dropped := dropNonPositive(lines, logX, false)
	if logX && dropped > 0 {
		notes = append(notes, fmt.Sprintf("%s at %s <= 0 not shown on the log axis", plural(dropped, "point"), zeroOf(s.X.Quantity)))
	}
	ys = ys[:0]
	for _, l := range lines {
		ys = append(ys, l.Y...)
	}
	logY := useLog(s.Y.Scale, ys)
	lines, dropped = dropNonPositive(lines, false, logY)
	if logY && dropped > 0 {
		notes = append(notes, fmt.Sprintf("%s with a value <= 0 not shown on the log axis", plural(dropped, "point")))
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("no data to draw: every point is at 0 or below, which a log axis cannot show")
	}

	f := &Figure{Title: s.Title, Caption: s.Caption, Width: s.Width, Height: s.Height, Legend: newLegend(),
		Marks: s.Marks, Gaps: s.Gaps, Spans: s.Spans}
	xs, ys = xs[:0], ys[:0]
	for _, l := range lines {
		xs = append(xs, l.X...)
		ys = append(ys, l.Y...)
	}
	f.X = makeAxis(s.X, logX, xs)
	f.Y = makeAxis(s.Y, logY, ys)

	// Plotted values, and the range they need.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		ser := Series{Label: l.Label, X: scaled(l.X, f.X.Div), Y: scaled(l.Y, f.Y.Div), Style: l.Style, Band: l.Band, Break: l.Break, Role: l.Role}
		if l.Lo != nil {
			ser.Lo, ser.Hi = scaled(l.Lo, f.Y.Div), scaled(l.Hi, f.Y.Div)
			ser.Clipped = make([]bool, len(ser.Y))
		}
		for _, v := range ser.Y {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		f.Series = append(f.Series, ser)
	}
	floor := lo / 10 // a log axis goes at most a decade below the lowest value
	for _, ser := range f.Series {
		for i := range ser.Lo {
			if !logY || ser.Lo[i] >= floor {
				lo = math.Min(lo, ser.Lo[i])
			}
			hi = math.Max(hi, ser.Hi[i])
		}
	}
	for _, r := range s.Reference {
		if finite(r) && (!logY || r > 0) {
			lo, hi = math.Min(lo, r/f.Y.Div), math.Max(hi, r/f.Y.Div)
		}
	}
	f.Y.Min, f.Y.Max = valueRange(lo, hi, logY, s.Y.Quantity)
	clipped := 0
	for _, ser := range f.Series {
		for i := range ser.Lo {
			if logY && ser.Lo[i] < f.Y.Min {
				ser.Lo[i], ser.Clipped[i] = f.Y.Min, true
				clipped++
			}
		}
	}
	if clipped > 0 {
		notes = append(notes, fmt.Sprintf("%s reaching below the axis (<= 0 or far below the data) clipped at its minimum (open ends)", plural(clipped, "error bar")))
	}
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, ser := range f.Series {
		for _, v := range ser.X {
			xlo, xhi = math.Min(xlo, v), math.Max(xhi, v)
		}
	}
	for _, v := range markXs(s) { // a gap or a tick past the last value stays in view
		xlo, xhi = math.Min(xlo, v/f.X.Div), math.Max(xhi, v/f.X.Div)
	}
	f.X.Min, f.X.Max = positionRange(xlo, xhi, logX)
	f.Notes = append(notes, s.Notes...)

	p := newPlot(f)
	var refs []float64
	for _, r := range s.Reference {
		if finite(r) && (!logY || r > 0) {
			refs = append(refs, r/f.Y.Div)
		}
	}
	p.Add(&hlines{ys: refs})
	marks := &overlay{marks: s.Marks, gaps: s.Gaps, spans: s.Spans, div: f.X.Div}
	if !marks.empty() {
		p.Add(underMarks{marks})
	}
	styleOf := func(i int) style {
		if f.Series[i].Style != nil {
			return fixedStyle(*f.Series[i].Style)
		}
		return seriesStyle(i)
	}
	// Bands first, under every line: a band must not hide another side's line.
	bands := map[int]*band{}
	for i, ser := range f.Series {
		if ser.Lo != nil && ser.Band {
			bands[i] = &band{s: ser, color: styleOf(i).color}
			p.Add(bands[i])
		}
	}
	context := slices.ContainsFunc(f.Series, func(s Series) bool { return s.Role == RoleContext })
	contextShown := false
	for i, ser := range f.Series {
		st := styleOf(i)
		if ser.Lo != nil && !ser.Band {
			p.Add(&errBars{s: ser, style: draw.LineStyle{Color: st.color, Width: vg.Points(0.8)}})
		}
		ls, gs := roleStyles(ser.Role, st, context)
		var thumbs []plot.Thumbnailer
		for _, seg := range segments(ser) {
			ln, err := plotter.NewLine(seg)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", ser.Label, err)
			}
			ln.LineStyle = ls
			p.Add(ln)
			if thumbs == nil {
				thumbs = append(thumbs, ln)
			}
		}
		if gs.Radius > 0 {
			xys := make(plotter.XYs, len(ser.X))
			for j := range ser.X {
				xys[j] = plotter.XY{X: ser.X[j], Y: ser.Y[j]}
			}
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", ser.Label, err)
			}
			sc.GlyphStyle = gs
			p.Add(sc)
			thumbs = append(thumbs, sc)
		}
		if ser.Role == RoleContext {
			if contextShown {
				continue
			}
			contextShown = true
		}
		if b := bands[i]; b != nil {
			thumbs = append([]plot.Thumbnailer{b}, thumbs...)
		}
		f.Legend.Add(shorten(ser.Label, 40), thumbs...)
	}
	decorate(f, p, s, marks)
	f.Plot = p
	return f, nil
}

// markXs are the X positions the marks need in view.
func markXs(s LineSpec) []float64 {
	var out []float64
	for _, g := range s.Gaps {
		out = append(out, g.X)
	}
	for _, t := range s.XTicks {
		out = append(out, t.X)
	}
	for _, sp := range s.Spans {
		out = append(out, sp.From, sp.To)
	}
	return out
}

// checkLines rejects malformed lines and leaves out points without a finite value.
func checkLines(in []Line) ([]Line, []string, error) {
	var out []Line
	bad := 0
	for _, l := range in {
		if len(l.X) != len(l.Y) || (l.Lo != nil || l.Hi != nil) && (len(l.Lo) != len(l.Y) || len(l.Hi) != len(l.Y)) {
			return nil, nil, fmt.Errorf("line %q: %d x, %d y, %d lo, %d hi values", l.Label, len(l.X), len(l.Y), len(l.Lo), len(l.Hi))
		}
		m := Line{Label: l.Label, Style: l.Style, Band: l.Band, Role: l.Role}
		brk := false // a point left out breaks a line that has breaks
		for i := range l.X {
			brk = brk || i < len(l.Break) && l.Break[i]
			if !finite(l.X[i]) || !finite(l.Y[i]) {
				bad++
				brk = l.Break != nil
				continue
			}
			m.X, m.Y = append(m.X, l.X[i]), append(m.Y, l.Y[i])
			if l.Break != nil {
				m.Break, brk = append(m.Break, brk), false
			}
			if l.Lo != nil {
				// An undefined end draws no bar on that side.
				lo, hi := l.Lo[i], l.Hi[i]
				if !finite(lo) {
					lo = l.Y[i]
				}
				if !finite(hi) {
					hi = l.Y[i]
				}
				m.Lo, m.Hi = append(m.Lo, math.Min(lo, l.Y[i])), append(m.Hi, math.Max(hi, l.Y[i]))
			}
		}
		if len(m.X) > 0 {
			out = append(out, m)
		}
	}
	var notes []string
	if bad > 0 {
		notes = append(notes, fmt.Sprintf("%s without a finite value not shown", plural(bad, "point")))
	}
	return out, notes, nil
}

// shorten cuts each line of a legend label to n characters, so that a long
// measurement name cannot push the data aside.
func shorten(s string, n int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if r := []rune(l); len(r) > n {
			lines[i] = string(r[:n-1]) + "…"
		}
	}
	return strings.Join(lines, "\n")
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// dropNonPositive leaves out points a log axis cannot place.
func dropNonPositive(in []Line, byX, byY bool) ([]Line, int) {
	if !byX && !byY {
		return in, 0
	}
	var out []Line
	dropped := 0
	for _, l := range in {
		m := Line{Label: l.Label, Style: l.Style, Band: l.Band, Role: l.Role}
		brk := false
		for i := range l.X {
			brk = brk || i < len(l.Break) && l.Break[i]
			if byX && l.X[i] <= 0 || byY && l.Y[i] <= 0 {
				dropped++
				brk = l.Break != nil
				continue
			}
			m.X, m.Y = append(m.X, l.X[i]), append(m.Y, l.Y[i])
			if l.Break != nil {
				m.Break, brk = append(m.Break, brk), false
			}
			if l.Lo != nil {
				m.Lo, m.Hi = append(m.Lo, l.Lo[i]), append(m.Hi, l.Hi[i])
			}
		}
		if len(m.X) > 0 {
			out = append(out, m)
		}
	}
	return out, dropped
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
