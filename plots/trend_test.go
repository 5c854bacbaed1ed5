package plots

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/internal/aadata"
	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report/history"
)

// nightlyHistory is 12 of the recorded runs (internal/aadata) dated a night apart, op
// scale times slower from the 8th run on, and Allreduce's points of the 5th run all
// timed out.
func nightlyHistory(t *testing.T, op string, scale float64) *history.History {
	t.Helper()
	aa, err := aadata.Results()
	if err != nil {
		t.Fatal(err)
	}
	ids := aadata.RunIDs(aa)[3:15]
	res := aadata.Nightly(aa, ids, time.Date(2026, 11, 18, 3, 1, 0, 0, time.UTC))
	aadata.Scale(res, ids[7:], op, scale)
	aadata.Fault(res, ids[4], "Allreduce", record.FaultTimeout)
	h, err := history.Build(res, nil, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// One trend figure per measurement; a step at run 8 of 12 is marked there (a line
// between runs 7 and 8 labelled with its change) and nowhere else; a run whose points
// all timed out is a gap named by its fault, its neighbours' values not joined.
func TestTrendFigures(t *testing.T) {
	h := nightlyHistory(t, "Bcast", 1.3)
	figs, skipped := TrendFigures(h, Options{})
	if len(figs) != len(h.Measurements) || len(skipped) != 0 {
		t.Fatalf("%d figures of %d measurements, skipped %v", len(figs), len(h.Measurements), skipped)
	}
	for i, f := range figs {
		m := &h.Measurements[i]
		if f.Kind != TrendKind || f.Title != m.Title() || !strings.HasPrefix(f.Name, "trend-") {
			t.Errorf("figure %d: %s %q %q", i, f.Kind, f.Title, f.Name)
		}
		// Each size (context), the whole and its baseline; the latest run shaded.
		if len(f.Series) != len(m.Setups)+2 || f.Series[len(m.Setups)].Label != "all sizes: geometric mean" ||
			f.Series[len(m.Setups)+1].Role != chart.RoleReference || f.Series[0].Role != chart.RoleContext {
			t.Errorf("%s: series %+v", m.Measurement, f.Series)
		}
		if len(f.Spans) != 1 || f.Spans[0].From > 11.6 || f.Spans[0].To < 12.4 || f.Spans[0].Label != "latest" {
			t.Errorf("%s: spans %+v", m.Measurement, f.Spans)
		}
		var major []chart.Mark
		for _, mk := range f.Marks {
			if !mk.Minor {
				major = append(major, mk)
			}
		}
		switch m.Op {
		case "Bcast":
			if len(major) == 0 || major[0].X < 6.5 || major[0].X > 8.5 || !strings.Contains(major[0].Label, "+") {
				t.Errorf("Bcast: the step at run 8 is not marked: %+v (changes %+v)", f.Marks, m.Absolute.Changes)
			}
		default:
			if len(major) != 0 {
				t.Errorf("%s: marks %+v", m.Op, major)
			}
		}
		whole := f.Series[len(m.Setups)]
		if m.Op == "Allreduce" {
			if len(f.Gaps) != 1 || f.Gaps[0].X != 5 || f.Gaps[0].Label != "timeout" {
				t.Errorf("Allreduce: gaps %+v", f.Gaps)
			}
			at := slices.Index(whole.X, 6)
			if len(whole.X) != 11 || slices.Contains(whole.X, 5) || at < 0 || !whole.Break[at] || slices.Contains(whole.Break[:at], true) {
				t.Errorf("Allreduce: run 5 is not a gap: x %v breaks %v", whole.X, whole.Break)
			}
		} else if len(f.Gaps) != 0 || len(whole.X) != 12 {
			t.Errorf("%s: gaps %+v, %d runs", m.Op, f.Gaps, len(whole.X))
		}
		// It renders; SVG and PNG.
		for _, format := range []string{"svg", "png"} {
			var b strings.Builder
			if err := f.Render(&b, format); err != nil || b.Len() == 0 {
				t.Errorf("%s: %s: %v", m.Op, format, err)
			}
		}
	}
}

// A history of fewer runs than a change needs still draws, saying so; a measurement
// held by one run only is a single point.
func TestTrendFigureShortHistory(t *testing.T) {
	aa, err := aadata.Results()
	if err != nil {
		t.Fatal(err)
	}
	ids := aadata.RunIDs(aa)[:3]
	h, err := history.Build(aadata.Nightly(aa, ids, time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)), nil, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	figs, skipped := TrendFigures(h, Options{})
	if len(figs) != 4 || len(skipped) != 0 || !strings.Contains(figs[0].Caption, "too few runs for a change (6 needed)") {
		t.Fatalf("%d figures, %v: %q", len(figs), skipped, figs[0].Caption)
	}
	if _, err := figs[0].Save(t.TempDir(), []string{"png"}); err != nil {
		t.Error(err)
	}
}

// Marks: the whole's change points; a counted change against the others only away from
// them; single sizes' changes, dotted, only away from both, those of one run together.
func TestTrendMarks(t *testing.T) {
	m := &history.Measurement{
		Absolute: history.Series{Changes: []history.Step{{Run: 8, Ratio: 1.3}}},
		Relative: history.Series{Changes: []history.Step{{Run: 9, Ratio: 1.25}, {Run: 3, Ratio: 0.8}}},
		Setups: []history.Setup{
			{MsgBytes: 8, Series: history.Series{Changes: []history.Step{{Run: 7, Ratio: 1.4}, {Run: 12, Ratio: 1.5}}}},
			{MsgBytes: 1024, Series: history.Series{Changes: []history.Step{{Run: 12, Ratio: 0.5}}}},
		},
	}
	want := []chart.Mark{
		{X: 7.5, Label: "run 8: +30.0%"},
		{X: 2.5, Label: "run 3: -20.0% against the others"},
		{X: 11.5, Label: "run 12: 8 B +50.0%, 1 KiB -50.0%", Minor: true},
	}
	if got := trendMarks(m); !slices.Equal(got, want) {
		t.Errorf("marks\n%+v, want\n%+v", got, want)
	}
}
