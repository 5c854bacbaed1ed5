package chart

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Formats are the output formats, as file extensions.
var Formats = []string{"png", "svg", "pdf"}

// Render writes the figure in one of Formats. Data the plotting library cannot draw
// (it panics on some) is an error, never a crash.
func (f *Figure) Render(w io.Writer, format string) (err error) {
	defer recoverAs(&err)
	if f.Plot == nil {
		return fmt.Errorf("nothing drawn")
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

// recoverAs turns a panic of the plotting library (it panics on some degenerate
// data) into an error.
func recoverAs(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("cannot be drawn: %v", r)
	}
}
