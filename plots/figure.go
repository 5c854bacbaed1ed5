package plots

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/report"
)

// Formats are the output formats, as file extensions.
var Formats = chart.Formats

// Figure is a chart a kind drew, with the name it is saved under. The chart's fields
// (title, caption, notes, axes, the plotted data) and methods (Render, SVG) are the
// figure's.
type Figure struct {
	Name string // file-name stem: letters, digits, '.', '_', '-' only
	Kind string // the Kind that made it
	*chart.Figure
}

// lineFigure draws a line figure (chart.NewLineFigure) and names it.
func lineFigure(name, kind string, s chart.LineSpec) (*Figure, error) {
	c, err := chart.NewLineFigure(s)
	if err != nil {
		return nil, err
	}
	return &Figure{Name: SafeName(name), Kind: kind, Figure: c}, nil
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

// MaxNameBytes bounds a figure's file-name stem. A measurement's name can be of any
// length, a file name at most 255 bytes: with a run tag, a counter and the format a
// stem of this length stays far below it.
const MaxNameBytes = 120

// SafeName turns s into a file-name stem: runs of anything but letters, digits, '.',
// '_' and '-' become one '-', and it never starts with '.' or '-'. A stem longer than
// MaxNameBytes is cut and ends in a hash of the whole of s, so two long names that
// share their start still name two files.
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
	if len(out) > MaxNameBytes { // ASCII only by now: any byte is a place to cut
		sum := sha256.Sum256([]byte(s))
		out = strings.TrimRight(out[:MaxNameBytes-9], "-.") + "-" + hex.EncodeToString(sum[:4])
	}
	return out
}
