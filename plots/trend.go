package plots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
	"github.com/skampi/skampi/report/history"
	"gonum.org/v1/plot/vg"
)

// A trend figure follows one measurement of a history (skampi history) from run to
// run. Its sizes span decades, a change a few tens of per cent: on one time axis a step
// would be a sliver. So each size is drawn over its own median across the runs (thin),
// the measurement as a whole (each run's geometric mean over its sizes) over its median
// (thick), and the rolling baseline of the whole (dashed): a step of 30 % reads as a
// level moving from 1 to 1.3 whatever the sizes. Change points of the whole are vertical
// lines labelled with their change; a run without a value is a gap in the lines with
// its reason (a fault's kind) at the bottom, not a run left out; the latest run is shaded.

// TrendKind is the kind of the figures TrendFigures draws.
const TrendKind = "trend"

// TrendWidth is a trend figure's width unless Options set one: wider than a figure
// over sizes, as its x axis names every run.
const TrendWidth = 10 * vg.Inch

// TrendFigures draws one figure per measurement of h. A measurement whose values
// cannot be drawn is left out and listed in skipped.
func TrendFigures(h *history.History, opts Options) (out []*Figure, skipped []Skipped) {
	for i := range h.Measurements {
		m := &h.Measurements[i]
		f, err := trendFigure(h, m, opts)
		if err != nil {
			skipped = append(skipped, Skipped{Figure: "trend figure of " + m.Title(), Reason: err.Error()})
			continue
		}
		out = append(out, f)
	}
	return out, skipped
}

func trendFigure(h *history.History, m *history.Measurement, opts Options) (f *Figure, err error) {
	defer recoverAs(&err)
	last := len(h.Runs)
	first := last + 1
	for _, s := range m.Setups {
		if len(s.Runs) > 0 {
			first = min(first, s.Runs[0])
		}
		for _, g := range s.Gaps {
			first = min(first, g.Run)
		}
	}
	if first > last {
		return nil, fmt.Errorf("no run holds a value of it")
	}
	spec := chart.LineSpec{
		Title:     m.Title(),
		X:         chart.AxisSpec{Quantity: chart.Count, Label: "run (start date, UTC)", Scale: chart.Linear},
		Y:         chart.AxisSpec{Quantity: chart.Ratio, Label: "time / its median over these runs", Scale: chart.Linear},
		Reference: []float64{1},
		XTicks:    runTicks(h.Runs[first-1:]),
		Spans:     []chart.Span{{From: float64(last) - 0.45, To: float64(last) + 0.45, Label: "latest"}},
		Width:     opts.Width, Height: opts.Height,
	}
	if spec.Width == 0 {
		spec.Width = TrendWidth // a run a tick, named, for a month of nightly runs
	}
	whole := len(m.Absolute.Values) > 0
	parts := len(m.Setups) > 1 || !whole
	if parts {
		for j := range m.Setups {
			s := &m.Setups[j]
			if len(s.Values) == 0 {
				continue
			}
			l := relativeLine(&s.Series, report.Bytes(s.MsgBytes))
			if whole {
				l.Role, l.Style = chart.RoleContext, &chart.LineStyle{Color: 0}
				l.Label = "each size, over its median"
			}
			spec.Lines = append(spec.Lines, l)
		}
	}
	if whole {
		l := relativeLine(&m.Absolute, "all sizes: geometric mean")
		if m.Sizes == 1 {
			l.Label = report.Bytes(m.Setups[0].MsgBytes)
		}
		l.Style = &chart.LineStyle{Color: 0}
		spec.Lines = append(spec.Lines, l, baselineLine(l, h.Window))
	}
	spec.Marks = trendMarks(m)
	spec.Gaps = trendGaps(m, whole)
	spec.Caption = trendCaption(h, m, whole)
	return lineFigure("trend-"+m.Title(), TrendKind, spec)
}

// relativeLine is a series over its median, at its runs, broken where runs lie between
// two values.
func relativeLine(s *history.Series, label string) chart.Line {
	med := compare.Median(s.Values)
	l := chart.Line{Label: label, Break: make([]bool, len(s.Values))}
	for j, v := range s.Values {
		l.X, l.Y = append(l.X, float64(s.Runs[j])), append(l.Y, v/med)
		l.Break[j] = j > 0 && s.Runs[j] != s.Runs[j-1]+1
	}
	return l
}

// baselineLine is, at each run after the first, the median of the window values before
// it: what the run's value is held against.
func baselineLine(whole chart.Line, window int) chart.Line {
	l := chart.Line{Label: fmt.Sprintf("baseline: median of the %s before", report.Count(window, "run")), Role: chart.RoleReference}
	for j := 1; j < len(whole.Y); j++ {
		l.X = append(l.X, whole.X[j])
		l.Y = append(l.Y, compare.Median(whole.Y[max(0, j-window):j]))
		l.Break = append(l.Break, j > 1 && whole.Break[j])
	}
	return l
}

// runTicks name each run by its number and start date (with the time where two runs
// share a day).
func runTicks(runs []history.Run) []chart.Tick {
	days := map[string]int{}
	for _, r := range runs {
		if !r.StartTime.IsZero() {
			days[r.StartTime.UTC().Format("01-02")]++
		}
	}
	var out []chart.Tick
	for _, r := range runs {
		label := fmt.Sprint(r.Index)
		if !r.StartTime.IsZero() {
			t := r.StartTime.UTC()
			label += "\n" + t.Format("01-02")
			if days[t.Format("01-02")] > 1 {
				label += "\n" + t.Format("15:04")
			}
		}
		out = append(out, chart.Tick{X: float64(r.Index), Label: label})
	}
	return out
}

// trendMarks are the measurement's change points as a whole (a line between the runs
// either side, labelled with the change), its counted changes against the run's other
// measurements where the whole has none, and, dotted, single sizes' changes away from
// both.
func trendMarks(m *history.Measurement) []chart.Mark {
	var out []chart.Mark
	near := func(run int) bool {
		return slices.ContainsFunc(out, func(k chart.Mark) bool { d := k.X + 0.5 - float64(run); return d >= -1 && d <= 1 })
	}
	for _, c := range m.Absolute.Changes {
		out = append(out, chart.Mark{X: float64(c.Run) - 0.5, Label: fmt.Sprintf("run %d: %s", c.Run, compare.Percent(c.Ratio-1))})
	}
	for _, c := range m.Relative.Changes {
		if !near(c.Run) {
			out = append(out, chart.Mark{X: float64(c.Run) - 0.5, Label: fmt.Sprintf("run %d: %s against the others", c.Run, compare.Percent(c.Ratio-1))})
		}
	}
	sizes := map[int][]string{}
	var runs []int
	for _, s := range m.Setups {
		for _, c := range s.Changes {
			if near(c.Run) {
				continue
			}
			if !slices.Contains(runs, c.Run) {
				runs = append(runs, c.Run)
			}
			sizes[c.Run] = append(sizes[c.Run], report.Bytes(s.MsgBytes)+" "+compare.Percent(c.Ratio-1))
		}
	}
	slices.Sort(runs)
	for _, r := range runs {
		label := fmt.Sprintf("run %d: %s", r, strings.Join(sizes[r], ", "))
		if len(sizes[r]) > 2 {
			label = fmt.Sprintf("run %d: %d sizes", r, len(sizes[r]))
		}
		out = append(out, chart.Mark{X: float64(r) - 0.5, Label: label, Minor: true})
	}
	return out
}

// trendGaps are the runs without a value of the whole (of any size when there is no
// whole), each labelled with why: a fault's kind, "missing", "no valid reps".
func trendGaps(m *history.Measurement, whole bool) []chart.Gap {
	gaps := m.Absolute.Gaps
	if !whole {
		gaps = nil
		for _, s := range m.Setups {
			for _, g := range s.Gaps {
				if !slices.ContainsFunc(gaps, func(o history.Gap) bool { return o.Run == g.Run }) {
					gaps = append(gaps, g)
				}
			}
		}
	}
	var out []chart.Gap
	for _, g := range gaps {
		label := strings.ReplaceAll(g.Why, history.GapNoValue, "no valid reps")
		out = append(out, chart.Gap{X: float64(g.Run), Label: label})
	}
	return out
}

// trendCaption says how to read the figure, and the latest run against its baseline.
func trendCaption(h *history.History, m *history.Measurement, whole bool) string {
	parts := []string{"each value over its series' median across the runs"}
	if whole && len(m.Setups) > 1 {
		parts = append(parts, fmt.Sprintf("thick: the geometric mean of %s", report.Count(m.Sizes, "size")))
	}
	if whole {
		s := &m.Absolute
		run, v := s.Latest()
		if n := len(s.Values); n > 1 {
			base := compare.Median(s.Values[max(0, n-1-h.Window) : n-1])
			parts = append(parts, fmt.Sprintf("run %d: %s against its baseline", run, compare.Percent(v/base-1)))
		}
		if run != len(h.Runs) {
			parts = append(parts, fmt.Sprintf("the latest run (%d) has no value", len(h.Runs)))
		}
	}
	switch n := len(m.Absolute.Changes); {
	case !m.Absolute.Tested:
		parts = append(parts, fmt.Sprintf("too few runs for a change (%d needed)", 2*h.MinSegment))
	case n == 0:
		parts = append(parts, "no change point as a whole")
	}
	return strings.Join(parts, " · ")
}
