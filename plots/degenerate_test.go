package plots

import (
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

func readTestdata(t *testing.T, names ...string) *report.Results {
	t.Helper()
	all := &report.Results{}
	for _, n := range names {
		f, err := os.Open("testdata/" + n)
		if err != nil {
			t.Fatal(err)
		}
		res, err := report.Read(f, n)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		all.Merge(res)
	}
	return all
}

// setTimes gives a point every time and rate v.
func setTimes(p *record.Point, v float64) {
	p.TimeS, p.MeanS, p.MedianS, p.MinS, p.P10S, p.P90S, p.MaxS, p.StderrS = v, v, v, v, v, v, v, 0
	for _, r := range []*float64{p.LatencyS, p.BandwidthBps, p.ThroughputBps, p.OpsPerS} {
		if r != nil {
			*r = v
		}
	}
	if b := p.Breakdown; b != nil {
		b.FullS, b.PostS, b.WaitS, b.OverlappedS, b.ComputeS = v, v, v, v, v
	}
}

// Atomics all at zero time make no figure: that one is skipped, with why, and every
// other figure is drawn.
func TestDrawSkipsWhatCannotBeDrawn(t *testing.T) {
	res := readTestdata(t, "shmem-np2.jsonl", "quick-np2.jsonl")
	for i := range res.Points {
		if atomic(&res.Points[i]) {
			setTimes(&res.Points[i], 0)
		}
	}
	all, _, err := Draw(readTestdata(t, "shmem-np2.jsonl", "quick-np2.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	figs, skipped, err := Draw(res, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || !strings.HasPrefix(skipped[0].Figure, "atomics figure ") ||
		!strings.Contains(skipped[0].Reason, "every atomic's time is 0") {
		t.Fatalf("skipped %v", skipped)
	}
	if len(figs) != len(all)-1 {
		t.Errorf("%d figures drawn, want every one but the atomics' (%d)", len(figs), len(all)-1)
	}
	for _, f := range figs {
		if f.Kind == "atomics" {
			t.Errorf("atomics drawn: %s", f.Name)
		}
	}
	// Figures, for callers without the list, no longer fails on it either.
	if figs, err := Figures(res, Options{}); err != nil || len(figs) != len(all)-1 {
		t.Errorf("Figures: %d, %v", len(figs), err)
	}
}

// Degenerate data of every sort (all zero, not finite, negative, a single point, sizes
// of 0 on a log axis, extreme values) never fails Draw and never panics: each figure is
// drawn, or skipped with a reason, and every figure drawn renders.
func TestDegenerateDataNeverFailsDraw(t *testing.T) {
	for name, change := range map[string]func(p *record.Point){
		"all zero":  func(p *record.Point) { setTimes(p, 0) },
		"NaN":       func(p *record.Point) { setTimes(p, math.NaN()) },
		"infinite":  func(p *record.Point) { setTimes(p, math.Inf(1)) },
		"negative":  func(p *record.Point) { setTimes(p, -1e-6) },
		"huge":      func(p *record.Point) { setTimes(p, 1e300) },
		"tiny":      func(p *record.Point) { setTimes(p, 1e-300) },
		"size 0":    func(p *record.Point) { p.MsgBytes = 0 },
		"one point": nil,
	} {
		t.Run(name, func(t *testing.T) {
			res := readTestdata(t, "shmem-np2.jsonl", "overlap-np2.jsonl", "onesided-np2.jsonl", "quick-np2.jsonl", "timers.jsonl")
			if change == nil { // the first point of every operation alone
				seen := map[string]bool{}
				var one []record.Point
				for _, p := range res.Points {
					if !seen[p.Op+p.Method] {
						seen[p.Op+p.Method] = true
						one = append(one, p)
					}
				}
				res.Points = one
			} else {
				for i := range res.Points {
					change(&res.Points[i])
				}
			}
			figs, skipped, err := Draw(res, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range skipped {
				if s.Figure == "" || s.Reason == "" || strings.Contains(s.String(), "\n") {
					t.Errorf("skipped without a one-line reason: %q", s)
				}
			}
			for _, f := range figs {
				if err := f.Render(io.Discard, "svg"); err != nil {
					t.Errorf("%s: %v", f.Name, err)
				}
			}
			if len(figs)+len(skipped) == 0 {
				t.Error("neither drawn nor skipped")
			}
			t.Logf("%d drawn, %d skipped", len(figs), len(skipped))
		})
	}
}

// A figure that cannot be drawn in a format is a *DrawError of Save, and nothing is
// written for it (chart's tests make the plotting library panic).
func TestSaveDrawError(t *testing.T) {
	dir := t.TempDir()
	f := &Figure{Name: "bad", Figure: &chart.Figure{}}
	paths, err := f.Save(dir, []string{"svg"})
	var de *DrawError
	if !errors.As(err, &de) || de.Figure != "bad" || de.Format != "svg" || len(paths) != 0 {
		t.Errorf("save: %v %v", paths, err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("written: %v", left)
	}
}
