package chart

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func render(t *testing.T, f *Figure, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f.Render(&buf, format); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return buf.Bytes()
}

var magic = map[string][]string{
	"png": {"\x89PNG\r\n\x1a\n"},
	"svg": {"<?xml", "<svg"},
	"pdf": {"%PDF"},
}

func hasMagic(b []byte, format string) bool {
	for _, m := range magic[format] {
		if bytes.HasPrefix(b, []byte(m)) {
			return true
		}
	}
	return false
}

// near compares plotted values with values converted to the axis unit.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// noBad fails on any NaN or infinity in the plotted data.
func noBad(t *testing.T, f *Figure) {
	t.Helper()
	for _, s := range f.Series {
		for _, vs := range [][]float64{s.X, s.Y, s.Lo, s.Hi} {
			for _, v := range vs {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%s: %v", s.Label, vs)
				}
			}
		}
	}
	for _, v := range []float64{f.X.Min, f.X.Max, f.Y.Min, f.Y.Max} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("range %+v %+v", f.X, f.Y)
		}
	}
}

func TestErrorBarsClippedOnLogAxis(t *testing.T) {
	f, err := NewLineFigure(LineSpec{
		Title: "clip",
		X:     AxisSpec{Quantity: Bytes, Label: "message size"},
		Y:     AxisSpec{Quantity: Seconds, Label: "time", Scale: Log},
		Lines: []Line{{
			Label: "a",
			X:     []float64{1, 64, 4096, 1 << 20},
			Y:     []float64{2e-6, 3e-6, 2e-5, 1e-3},
			Lo:    []float64{-1e-6, 0, 1e-5, 1e-9}, // below zero, zero, fine, far below the data
			Hi:    []float64{5e-6, 4e-6, 3e-5, 2e-3},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	noBad(t, f)
	s := f.Series[0]
	if !f.X.Log || !f.Y.Log || f.Y.Min <= 0 || f.Y.Min >= 2 {
		t.Fatalf("axes %+v %+v", f.X, f.Y)
	}
	wantClipped := []bool{true, true, false, true}
	for i := range s.Lo {
		if s.Clipped[i] != wantClipped[i] || s.Clipped[i] && s.Lo[i] != f.Y.Min || !s.Clipped[i] && !near(s.Lo[i], 10) {
			t.Errorf("bar %d: lo %g clipped %v (axis min %g)", i, s.Lo[i], s.Clipped[i], f.Y.Min)
		}
	}
	if len(s.Lo) != 4 || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "3 error bars") {
		t.Errorf("bars kept: %d, notes %q", len(s.Lo), f.Notes)
	}
	for _, format := range Formats {
		if !hasMagic(render(t, f, format), format) {
			t.Errorf("%s", format)
		}
	}

	// On a linear axis nothing is clipped.
	f, err = NewLineFigure(LineSpec{Title: "lin", X: AxisSpec{Quantity: Bytes}, Y: AxisSpec{Quantity: Seconds, Scale: Linear},
		Lines: []Line{{Label: "a", X: []float64{1, 2}, Y: []float64{1e-6, 2e-6}, Lo: []float64{-1e-6, 1e-6}, Hi: []float64{3e-6, 3e-6}}}})
	if err != nil || f.X.Log || f.Y.Log || f.Series[0].Clipped[0] || f.Series[0].Lo[0] != -1 || f.Y.Min > -1 {
		t.Errorf("linear: %v %+v %+v", err, f.Y, f.Series[0])
	}
}

func TestAxesAndZeroSizes(t *testing.T) {
	// Sizes within a decade: linear axes, ticks at multiples of a power of two.
	f, err := NewLineFigure(LineSpec{Title: "n", X: AxisSpec{Quantity: Bytes, Label: "message size"}, Y: AxisSpec{Quantity: Seconds, Label: "t"},
		Lines: []Line{{Label: "a", X: []float64{1024, 2048, 4096, 8192}, Y: []float64{3e-3, 4e-3, 5e-3, 6e-3}}}})
	if err != nil || f.X.Log || f.Y.Log || f.Y.Unit != "ms" || f.X.Label != "message size" {
		t.Fatalf("%v %+v %+v", err, f.X, f.Y)
	}
	var labels []string
	for _, tk := range f.Plot.X.Tick.Marker.Ticks(f.X.Min, f.X.Max) {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, ","); got != "2 KiB,4 KiB,6 KiB,8 KiB" {
		t.Errorf("linear size ticks %s", got)
	}
	// A 0 B point cannot sit on a log axis: left out, and said so.
	f, err = NewLineFigure(LineSpec{Title: "z", X: AxisSpec{Quantity: Bytes}, Y: AxisSpec{Quantity: Seconds, Scale: Log},
		Lines: []Line{{Label: "a", X: []float64{0, 1, 1 << 10, 1 << 20}, Y: []float64{1e-6, 1e-6, 2e-6, 1e-4}}}})
	if err != nil || !f.X.Log || len(f.Series[0].X) != 3 || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "1 point at 0 B") {
		t.Errorf("%v %v %q", err, f.Series[0].X, f.Notes)
	}
	if _, err := NewLineFigure(LineSpec{Title: "e"}); err == nil {
		t.Error("no lines drew a figure")
	}
	if _, err := NewLineFigure(LineSpec{Lines: []Line{{X: []float64{1}, Y: nil}}}); err == nil {
		t.Error("mismatched line accepted")
	}
}
