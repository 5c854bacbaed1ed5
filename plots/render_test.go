package plots

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
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
		!strings.Contains(err.Error(), `unknown figure kind "pie" (known: latency, bandwidth, throughput, method-timer, method-timing, scalability, overlap, overlap-ratio, atomics, beside, delay, busy, imbalance, threads, halo, layout, overlay)`) {
		t.Errorf("%v", err)
	}
	for in, want := range map[string]string{"ping-pong, blocking": "ping-pong-blocking", "../x": "x", "a/b": "a-b", "": "figure", "µs": "s"} {
		if got := SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
}
