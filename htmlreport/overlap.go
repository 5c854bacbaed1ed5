package htmlreport

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/skampi/skampi/plots"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// overlapKinds are the plots kinds drawn in the overlap section rather than with the
// other figures: they belong next to the numbers they show.
var overlapKinds = map[string]bool{"overlap": true, "overlap-ratio": true}

// FromPlots is Render without the figures it left out.
func FromPlots(figs []*plots.Figure) ([]Figure, error) {
	out, _ := Render(figs)
	return out, nil
}

// Render renders figures made by package plots for the page, keeping their kind so
// that each lands in its section. A figure that cannot be drawn is left out and listed
// in skipped (Input.NotDrawn says so on the page).
func Render(figs []*plots.Figure) (out []Figure, skipped []plots.Skipped) {
	for _, f := range figs {
		svg, err := f.SVG()
		if err != nil {
			skipped = append(skipped, plots.Skipped{Figure: f.Kind + " figure " + f.Name, Reason: err.Error()})
			continue
		}
		out = append(out, Figure{Title: f.Title, Caption: f.Caption, Kind: f.Kind, SVG: svg})
	}
	return out, skipped
}

// overlapView is the non-blocking overlap section: a table per measurement with a
// breakdown, and the overlap figures.
type overlapView struct {
	Tables  []overlapTable
	Figures []Figure
}

type overlapTable struct {
	Name, Op, RunID string
	NProcs          int
	Progress        string
	Rows            []overlapRow
}

// overlapRow is one point, formatted: the page shows it as it is.
type overlapRow struct {
	Size, Full, Post, Wait, NotHidden, Compute, Ratio, RatioRaw, Progress, Flags string
}

// overlapSection gathers the points with a breakdown; nil when there is none, and the
// section is left out.
func overlapSection(res *report.Results, figs []Figure) *overlapView {
	v := &overlapView{}
	index := map[string]int{}
	var points [][]record.Point
	for _, p := range res.Points {
		if p.Breakdown == nil {
			continue
		}
		k := fmt.Sprintf("%s\x00%s\x00%s\x00%d", p.RunID, p.Measurement, p.Op, p.NProcs)
		i, ok := index[k]
		if !ok {
			i = len(v.Tables)
			index[k] = i
			v.Tables = append(v.Tables, overlapTable{Name: p.Measurement, Op: p.Op, RunID: p.RunID, NProcs: p.NProcs})
			points = append(points, nil)
		}
		points[i] = append(points[i], p)
	}
	if len(v.Tables) == 0 {
		return nil
	}
	for i := range v.Tables {
		ps := points[i]
		sort.SliceStable(ps, func(a, b int) bool { return ps[a].MsgBytes < ps[b].MsgBytes })
		var settings []int64
		for _, p := range ps {
			v.Tables[i].Rows = append(v.Tables[i].Rows, overlapRowOf(&p))
			if !slices.Contains(settings, p.ProgressEvery) {
				settings = append(settings, p.ProgressEvery)
			}
		}
		if len(settings) == 1 {
			v.Tables[i].Progress = plots.ProgressText(settings[0])
		}
	}
	for _, f := range figs {
		if overlapKinds[f.Kind] {
			v.Figures = append(v.Figures, f)
		}
	}
	return v
}

func overlapRowOf(p *record.Point) overlapRow {
	b := p.Breakdown
	r := overlapRow{
		Size:      report.Bytes(p.MsgBytes),
		Full:      withErr(b.FullS, b.FullStderrS),
		Post:      withErr(b.PostS, b.PostStderrS),
		Wait:      withErr(b.WaitS, b.WaitStderrS),
		NotHidden: withErr(b.OverlappedS, b.OverlappedStderrS),
		Compute:   report.Seconds(b.ComputeS) + " / " + report.Seconds(b.ComputeTargetS),
		Ratio:     fmt.Sprintf("%.1f%% ± %.1f%%", 100*b.OverlapRatio, 100*b.OverlapRatioStderr),
		Progress:  fmt.Sprint(b.ProgressEvery),
		Flags:     strings.Join(p.Flags, ", "),
	}
	if b.OverlapRatioRaw != nil {
		r.RatioRaw = fmt.Sprintf("%.1f%%", 100**b.OverlapRatioRaw)
	}
	return r
}

// withErr is a time and its standard error, relative: the error reads the same at
// every size.
// withErr is a time with its standard error: relative for a positive time, absolute
// otherwise (a negative difference's error says whether it is only noise).
func withErr(s, se float64) string {
	if s <= 0 {
		return fmt.Sprintf("%s ± %s", report.Seconds(s), report.Seconds(se))
	}
	return fmt.Sprintf("%s ± %.1f%%", report.Seconds(s), 100*se/s)
}
