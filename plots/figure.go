package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"path/filepath"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/skampi/skampi/report"
)

// Figure sizes, and the resolution of PNG output.
const (
	DefaultWidth  = 8 * vg.Inch
	DefaultHeight = 4.8 * vg.Inch
	PNGDPI        = 150
)

// Formats are the output formats, as file extensions.
var Formats = []string{"png", "svg", "pdf"}

// Figure is one figure: the plot, the data it shows and what surrounds it.
type Figure struct {
	Name    string // file-name stem: letters, digits, '.', '_', '-' only
	Kind    string // the Kind that made it
	Title   string
	Caption string   // where the data comes from: library, hosts, processes, run
	Notes   []string // what the figure leaves out or clips, drawn under the caption

	X, Y   Axis
	Series []Series // line figures: the plotted data, in axis units
	Stack  *Stack   // stacked-bar figures

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
}

// Stack is the data of a stacked-bar figure, in axis units.
type Stack struct {
	Categories  []string // one bar each, left to right
	Parts       []Part   // bottom to top
	Annotations []string // above each bar
}

// Part is one layer of stacked bars.
type Part struct {
	Label  string
	Values []float64
}

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

// Render writes the figure in one of Formats. Data the plotting library cannot draw
// (it panics on some) is an error, never a crash.
func (f *Figure) Render(w io.Writer, format string) (err error) {
	defer recoverAs(&err)
	if f.Plot == nil {
		return fmt.Errorf("%s: nothing drawn", f.Name)
	}
	wd, ht := f.size()
	var cv vg.CanvasWriterTo
	switch format {
	case "png":
		cv = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(wd, ht), vgimg.UseDPI(PNGDPI))}
	case "svg":
		cv = vgsvg.New(wd, ht)
	case "pdf":
		cv = pdfCanvas{vgpdf.New(wd, ht)}
	default:
		return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
	}
	f.draw(draw.New(cv), format != "pdf")
	if format != "svg" {
		_, err = cv.WriteTo(w)
		return err
	}
	var buf bytes.Buffer
	if _, err = cv.WriteTo(&buf); err != nil {
		return err
	}
	_, err = w.Write(svgFonts(buf.Bytes()))
	return err
}

// pdfCanvas passes text to gonum's PDF canvas in the code page its fonts are set up
// with (Windows-1252): as UTF-8, "µs" would print as "Âµs".
type pdfCanvas struct{ *vgpdf.Canvas }

func (c pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	c.Canvas.FillString(f, pt, cp1252(s))
}

// cp1252 encodes s in Windows-1252; what it lacks becomes '?'.
func cp1252(s string) string {
	special := map[rune]byte{'€': 0x80, '…': 0x85, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		switch {
		case r < 0x80 || r >= 0xa0 && r <= 0xff:
			b = append(b, byte(r))
		case special[r] != 0:
			b = append(b, special[r])
		default:
			b = append(b, '?')
		}
	}
	return string(b)
}

// svgFonts adds fallbacks to the font families an SVG names: Arial has the metrics
// of Liberation Sans, so text laid out for one fits in the other.
func svgFonts(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("font-family:Liberation Sans;"),
		[]byte("font-family:Liberation Sans,Arial,Helvetica,sans-serif;"))
}

// SVG returns the figure as an <svg> element, without the XML prolog, ready to be
// embedded in an HTML page. It has no id attributes, so several can share a page.
func (f *Figure) SVG() ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Render(&buf, "svg"); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if i := bytes.Index(b, []byte("<svg")); i >= 0 {
		b = b[i:]
	}
	return b, nil
}

// DrawError is a figure that could not be drawn in a format: its data, not the disk.
type DrawError struct {
	Figure, Format string
	Err            error
}

func (e *DrawError) Error() string { return fmt.Sprintf("%s.%s: %v", e.Figure, e.Format, e.Err) }
func (e *DrawError) Unwrap() error { return e.Err }

// Save writes the figure to dir as NAME.FORMAT for each format and returns the paths.
// A format the figure cannot be drawn in is a *DrawError, and nothing is written for it.
func (f *Figure) Save(dir string, formats []string) ([]string, error) {
	var paths []string
	for _, format := range formats {
		var buf bytes.Buffer
		if err := f.Render(&buf, format); err != nil {
			return paths, &DrawError{Figure: f.Name, Format: format, Err: err}
		}
		path := filepath.Join(dir, f.Name+"."+format)
		// Whole or not at all, and never through a link or over a device someone put there.
		err := report.WriteFile(path, func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		})
		if err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// ParseFormats reads format names (each may be a comma-separated list), lower-cased
// and without duplicates.
func ParseFormats(list []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, item := range list {
		for _, s := range strings.Split(item, ",") {
			s = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "."))
			if s == "" || seen[s] {
				continue
			}
			known := false
			for _, k := range Formats {
				known = known || s == k
			}
			if !known {
				return nil, fmt.Errorf("unknown format %q (known: %s)", s, strings.Join(Formats, ", "))
			}
			seen[s] = true
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no output format (known: %s)", strings.Join(Formats, ", "))
	}
	return out, nil
}

// SafeName turns s into a file-name stem: runs of anything but letters, digits, '.',
// '_' and '-' become one '-', and it never starts with '.' or '-'.
func SafeName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok {
			if !dash {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		b.WriteRune(r)
		dash = r == '-'
	}
	out := strings.Trim(b.String(), "-.")
	if out == "" {
		return "figure"
	}
	return out
}
