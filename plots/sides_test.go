package plots

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/skampi/skampi/internal/aadata"
)

// Twenty recorded runs split into two sides of ten, the second's ping-pong 1.3 times
// slower: an overlay per measurement, a colour per side (two legend entries, not twenty),
// each the median over its runs within a band from their minimum to their maximum.
func TestOverlayOfSides(t *testing.T) {
	res, err := aadata.Results()
	if err != nil {
		t.Fatal(err)
	}
	ids := aadata.RunIDs(res)
	var before, after []string
	for i, id := range ids {
		if i%2 == 0 {
			before = append(before, id)
		} else {
			after = append(after, id)
		}
	}
	all := aadata.Runs(res, before, 1)
	slow := aadata.Runs(res, after, 1)
	for i := range slow.Points {
		if p := &slow.Points[i]; p.Op == "Pingpong_Send_Recv" && p.LatencyS != nil {
			l := *p.LatencyS * 1.3
			p.LatencyS = &l
		}
	}
	all.Merge(slow)
	sides := map[string]string{}
	for _, id := range before {
		sides[id] = "before"
	}
	for _, id := range after {
		sides[id] = "after"
	}
	figs := figuresOf(t, all, "overlay", Options{Sides: sides})
	if len(figs) != 4 {
		t.Fatalf("%d overlays, want one per measurement (4)", len(figs))
	}
	for _, f := range figs {
		if len(f.Series) != 2 || f.Series[0].Label != "before (10 runs)" || f.Series[1].Label != "after (10 runs)" {
			t.Errorf("%s: series %v", f.Name, labelsOf(f))
		}
		for _, s := range f.Series {
			if !s.Band || len(s.Lo) != len(s.Y) {
				t.Errorf("%s %s: no band", f.Name, s.Label)
			}
			for i := range s.Y {
				if s.Lo[i] > s.Y[i] || s.Y[i] > s.Hi[i] {
					t.Errorf("%s %s: median %g outside its band %g..%g", f.Name, s.Label, s.Y[i], s.Lo[i], s.Hi[i])
				}
			}
		}
		var svg bytes.Buffer
		if err := f.Render(&svg, "svg"); err != nil {
			t.Fatal(err)
		}
		// Two legend entries: each label once.
		for _, l := range []string{"before (10 runs)", "after (10 runs)"} {
			if n := strings.Count(svg.String(), ">"+l+"<"); n != 1 {
				t.Errorf("%s: %q %d times in the SVG", f.Name, l, n)
			}
		}
	}
	// The ping-pong's medians are the one-way latencies' over each side's runs: after
	// is above before at every size.
	pp := figs[0]
	if !strings.Contains(pp.Title, "Pingpong") {
		t.Fatalf("first overlay %q", pp.Title)
	}
	for i := range pp.Series[0].Y {
		if r := pp.Series[1].Y[i] / pp.Series[0].Y[i]; r < 1.05 || math.IsNaN(r) {
			t.Errorf("size %g: after/before %g", pp.Series[0].X[i], r)
		}
	}
	// One source of 20 runs: more than a figure's lines, drawn as its one band.
	one := map[string]string{}
	for _, id := range ids {
		one[id] = "aa"
	}
	if figs := figuresOf(t, all, "overlay", Options{Sides: one}); len(figs) != 4 || len(figs[0].Series) != 1 || figs[0].Series[0].Label != "aa (20 runs)" {
		t.Errorf("one side of 20 runs: %d figures", len(figs))
	}
	// Sides of a run each are runs: an overlay of runs, several operations a figure.
	two := map[string]string{ids[0]: "a", ids[1]: "b"}
	if figs := figuresOf(t, aadata.Runs(res, ids[:2], 1), "overlay", Options{Sides: two}); len(figs) == 0 || figs[0].Series[0].Band {
		t.Errorf("two runs: %d figures", len(figs))
	}
	// Without sides, the same runs are an overlay of runs, as before.
	if figs := figuresOf(t, all, "overlay", Options{}); len(figs) == 0 || figs[0].Series[0].Band {
		t.Errorf("without sides: %d figures", len(figs))
	}
}

func labelsOf(f *Figure) string {
	var out []string
	for _, s := range f.Series {
		out = append(out, s.Label)
	}
	return fmt.Sprint(out)
}
