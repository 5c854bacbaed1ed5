package plots

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
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

func TestOutputs(t *testing.T) {
	figs, err := Figures(load(t, "quick-np2.jsonl", "quick-np4.jsonl", "timers.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 9 {
		t.Errorf("%d figures", len(figs))
	}
	dir := t.TempDir()
	names := map[string]bool{}
	for _, f := range figs {
		if names[f.Name] || f.Name != SafeName(f.Name) {
			t.Errorf("name %q repeated or unsafe", f.Name)
		}
		names[f.Name] = true
		paths, err := f.Save(dir, Formats)
		if err != nil || len(paths) != 3 {
			t.Fatalf("%s: %v %v", f.Name, paths, err)
		}
		for i, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil || len(b) < 1000 || !hasMagic(b, Formats[i]) || filepath.Base(p) != f.Name+"."+Formats[i] {
				t.Errorf("%s: %d bytes, starts %q, %v", p, len(b), b[:min(len(b), 8)], err)
			}
		}
	}
	svg, err := figs[0].SVG()
	if err != nil || !bytes.HasPrefix(svg, []byte("<svg")) || !bytes.HasSuffix(bytes.TrimSpace(svg), []byte("</svg>")) ||
		!bytes.Contains(svg, []byte("Liberation Sans,Arial")) || bytes.Contains(svg, []byte(" id=")) {
		t.Errorf("SVG element: %v %q", err, svg[:min(len(svg), 80)])
	}
	if err := figs[0].Render(&bytes.Buffer{}, "gif"); err == nil || !strings.Contains(err.Error(), `unknown format "gif"`) {
		t.Errorf("gif: %v", err)
	}
}

func TestNamesUniqueAcrossRuns(t *testing.T) {
	res := load(t, "quick-np2.jsonl")
	other := load(t, "quick-np2.jsonl")
	other.Runs[0].RunID = "0123456789abcdef"
	for i := range other.Points {
		other.Points[i].RunID = "0123456789abcdef"
	}
	res.Merge(other)
	figs, err := Figures(res, Options{Kinds: []string{"latency"}, Labels: map[string]string{res.Runs[0].RunID: "a/b c"}})
	if err != nil || len(figs) != 2 {
		t.Fatalf("%d figures, %v", len(figs), err)
	}
	if figs[0].Name != "latency-pt2pt-np2-a-b-c" || figs[1].Name != "latency-pt2pt-np2-01234567" {
		t.Errorf("names %q %q", figs[0].Name, figs[1].Name)
	}
	if !strings.Contains(figs[0].Caption, "run a/b c") {
		t.Errorf("caption %q", figs[0].Caption)
	}
}

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
		Name: "clip", Title: "clip",
		X: AxisSpec{Quantity: Bytes, Label: "message size"},
		Y: AxisSpec{Quantity: Seconds, Label: "time", Scale: Log},
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
	f, err = NewLineFigure(LineSpec{Name: "lin", X: AxisSpec{Quantity: Bytes}, Y: AxisSpec{Quantity: Seconds, Scale: Linear},
		Lines: []Line{{Label: "a", X: []float64{1, 2}, Y: []float64{1e-6, 2e-6}, Lo: []float64{-1e-6, 1e-6}, Hi: []float64{3e-6, 3e-6}}}})
	if err != nil || f.X.Log || f.Y.Log || f.Series[0].Clipped[0] || f.Series[0].Lo[0] != -1 || f.Y.Min > -1 {
		t.Errorf("linear: %v %+v %+v", err, f.Y, f.Series[0])
	}
}

func TestP10P90NeverNaN(t *testing.T) {
	for _, e := range []ErrorBars{ErrStderr, ErrP10P90, ErrNone} {
		figs, err := Figures(load(t, "pt2pt-a.jsonl", "quick-np2.jsonl", "quick-np4.jsonl", "timers.jsonl", "overlap-np2.jsonl"), Options{Errors: e})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range figs {
			noBad(t, f)
			for _, s := range f.Series {
				if (e == ErrNone) != (s.Lo == nil) {
					t.Errorf("%s %s: error bars %v", e, f.Name, s.Lo != nil)
				}
				for i := range s.Lo {
					if s.Lo[i] > s.Y[i] || s.Hi[i] < s.Y[i] || f.Y.Log && s.Lo[i] <= 0 {
						t.Errorf("%s %s %s[%d]: %g <= %g <= %g", e, f.Name, s.Label, i, s.Lo[i], s.Y[i], s.Hi[i])
					}
				}
			}
		}
	}
}

func TestAxesAndZeroSizes(t *testing.T) {
	// Sizes within a decade: linear axes, ticks at multiples of a power of two.
	f, err := NewLineFigure(LineSpec{Name: "n", X: AxisSpec{Quantity: Bytes, Label: "message size"}, Y: AxisSpec{Quantity: Seconds, Label: "t"},
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
	f, err = NewLineFigure(LineSpec{Name: "z", X: AxisSpec{Quantity: Bytes}, Y: AxisSpec{Quantity: Seconds, Scale: Log},
		Lines: []Line{{Label: "a", X: []float64{0, 1, 1 << 10, 1 << 20}, Y: []float64{1e-6, 1e-6, 2e-6, 1e-4}}}})
	if err != nil || !f.X.Log || len(f.Series[0].X) != 3 || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "1 point at 0 B") {
		t.Errorf("%v %v %q", err, f.Series[0].X, f.Notes)
	}
	if _, err := NewLineFigure(LineSpec{Name: "e"}); err == nil {
		t.Error("no lines drew a figure")
	}
	if _, err := NewLineFigure(LineSpec{Lines: []Line{{X: []float64{1}, Y: nil}}}); err == nil {
		t.Error("mismatched line accepted")
	}
}

func ticks(m plot.Ticker, lo, hi float64) (labels []string, all int) {
	for _, t := range m.Ticks(lo, hi) {
		all++
		if t.Label != "" {
			labels = append(labels, t.Label)
		}
	}
	return labels, all
}

func TestTicks(t *testing.T) {
	cases := []struct {
		m      plot.Ticker
		lo, hi float64
		want   string
	}{
		{pow2Ticks{}, 0.9, 4.2e6, "1 B,8 B,64 B,512 B,4 KiB,32 KiB,256 KiB,2 MiB"},
		{pow2Ticks{}, 1000, 300000, "1 KiB,4 KiB,16 KiB,64 KiB,256 KiB"},
		{logTicks{}, 0.5, 2000, "1,10,100,1000"},
		{logTicks{}, 5.8, 32, "6,8,10,20,30"},
		{logTicks{}, 1.1, 1.6, "1.1,1.2,1.3,1.4,1.5,1.6"},
		{logTicks{}, 0.65, 2.2, "0.7,0.8,1,2"}, // the decade always labelled
		{logTicks{}, 0.55, 2.5, "0.6,0.7,1,2"},
		{linearTicks{}, 0, 7.1, "0,2,4,6"},
		{linearTicks{}, 0, 13, "0,2,4,6,8,10,12"},
		{linearTicks{}, 0, 0.031, "0,0.005,0.01,0.015,0.02,0.025,0.03"},
	}
	for _, c := range cases {
		labels, _ := ticks(c.m, c.lo, c.hi)
		if got := strings.Join(labels, ","); got != c.want {
			t.Errorf("%T %g..%g: %s, want %s", c.m, c.lo, c.hi, got, c.want)
		}
	}
	if _, all := ticks(pow2Ticks{}, 0.9, 4.2e6); all != 23 {
		t.Errorf("%d ticks for 23 powers of two", all)
	}
}

func TestParse(t *testing.T) {
	if fs, err := ParseFormats([]string{"PNG,svg", ".pdf", "png"}); err != nil || strings.Join(fs, " ") != "png svg pdf" {
		t.Errorf("%v %v", fs, err)
	}
	for _, bad := range [][]string{{"gif"}, {""}, {"png,jpg"}} {
		if _, err := ParseFormats(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if e, err := ParseErrorBars(""); err != nil || e != ErrStderr {
		t.Errorf("%v %v", e, err)
	}
	if _, err := ParseErrorBars("p5-p95"); err == nil || !strings.Contains(err.Error(), "stderr, p10-p90") {
		t.Errorf("%v", err)
	}
	if _, err := Figures(load(t, "timers.jsonl"), Options{Errors: "minmax"}); err == nil {
		t.Error("bad error bars accepted")
	}
	if _, err := Figures(load(t, "timers.jsonl"), Options{Kinds: []string{"latency", "pie"}}); err == nil ||
		!strings.Contains(err.Error(), `unknown figure kind "pie" (known: latency, bandwidth, throughput, method-timer, method-timing, scalability, overlap, overlap-ratio, atomics, beside, overlay)`) {
		t.Errorf("%v", err)
	}
	for in, want := range map[string]string{"ping-pong, blocking": "ping-pong-blocking", "../x": "x", "a/b": "a-b", "": "figure", "µs": "s"} {
		if got := SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPDFText(t *testing.T) {
	if got := cp1252("µs · ±5 – 1…2 ≤ é"); got != "\xb5s \xb7 \xb15 \x96 1\x852 ? \xe9" {
		t.Errorf("%q", got)
	}
}
