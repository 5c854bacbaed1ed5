package htmlreport

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"strings"
	"time"

	"github.com/skampi/skampi/plots"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/history"
)

// The page of skampi history --html: the history as the text prints it, then a trend
// figure per measurement (plots.TrendFigures), then the runs. It shares the report
// page's style; it has its own sections, as a history is read for what moved.

//go:embed history.html.tmpl
var historyText string

var historyPage = template.Must(template.Must(page.Clone()).New("history").Parse(historyText))

// HistoryInput is everything the history page shows.
type HistoryInput struct {
	Title     string
	Sources   []report.Source
	History   *history.History
	Figures   []Figure // the trend figures, one per measurement
	NotDrawn  []string
	Generated time.Time
}

type historyView struct {
	HistoryInput
	Text string // as skampi history prints it
	Span string // "2026-11-25 03:01 to 2026-12-06 03:01"
	Gaps []gapRow
}

// gapRow is a run without a value of a measurement as a whole (or of one of its sizes).
type gapRow struct {
	Measurement string
	Run         int
	Started     string
	Why         string
}

// WriteHistory renders the history page.
func WriteHistory(w io.Writer, in HistoryInput) error {
	if in.History == nil {
		return fmt.Errorf("no history to report")
	}
	if in.Title == "" {
		in.Title = "skampi history"
	}
	var text strings.Builder
	if err := history.WriteHistory(&text, in.History); err != nil {
		return err
	}
	v := historyView{HistoryInput: in, Text: text.String()}
	h := in.History
	if n := len(h.Runs); n > 0 && !h.Runs[0].StartTime.IsZero() {
		v.Span = "from " + h.Runs[0].StartTime.UTC().Format("2006-01-02 15:04") + " to " + h.Runs[n-1].StartTime.UTC().Format("2006-01-02 15:04 UTC")
	}
	for _, m := range h.Measurements {
		seen := map[int]bool{}
		add := func(g history.Gap, what string) {
			r := h.Runs[g.Run-1]
			started := "no start time"
			if !r.StartTime.IsZero() {
				started = r.StartTime.UTC().Format("2006-01-02 15:04")
			}
			v.Gaps = append(v.Gaps, gapRow{Measurement: m.Title(), Run: g.Run, Started: started, Why: strings.TrimSpace(g.Reason() + " " + what)})
			seen[g.Run] = true
		}
		for _, g := range m.Absolute.Gaps {
			add(g, g.Detail)
		}
		// A size the whole does not count (held by too few runs) still has its gaps.
		for _, s := range m.Setups {
			for _, g := range s.Gaps {
				if !seen[g.Run] {
					add(g, "at "+report.Bytes(s.MsgBytes))
				}
			}
		}
	}
	return historyPage.ExecuteTemplate(w, "history", v)
}

// HistoryFileOptions are skampi history's outputs beyond the text: the page (HTML, a
// file) and the trend figures as PNG files (FigureDir); either may be empty.
type HistoryFileOptions struct {
	HTML, FigureDir string
	Title           string
	Sources         []report.Source
	// Stderr gets a line per file written and a warning per figure left out: the
	// history's own output (text or JSON) keeps stdout.
	Stderr io.Writer
}

// WriteHistoryFiles draws a trend figure per measurement of h and writes the page and
// the figures' PNG files. A figure its data cannot make is left out, said on Stderr and
// on the page.
func WriteHistoryFiles(h *history.History, o HistoryFileOptions) error {
	if o.HTML == "" && o.FigureDir == "" {
		return nil
	}
	figs, skipped := plots.TrendFigures(h, plots.Options{})
	if o.FigureDir != "" {
		if err := os.MkdirAll(o.FigureDir, 0o755); err != nil {
			return err
		}
		for _, f := range figs {
			paths, err := f.Save(o.FigureDir, []string{"png"})
			if err != nil {
				return err
			}
			for _, p := range paths {
				fmt.Fprintln(o.Stderr, report.Printable(p))
			}
		}
	}
	in := HistoryInput{Title: o.Title, Sources: o.Sources, History: h, Generated: time.Now()}
	var more []plots.Skipped
	in.Figures, more = Render(figs)
	for _, s := range append(skipped, more...) {
		plots.WarnNotDrawn(o.Stderr, s)
		in.NotDrawn = append(in.NotDrawn, s.String())
	}
	if o.HTML == "" {
		return nil
	}
	if err := report.WriteFile(o.HTML, func(w io.Writer) error { return WriteHistory(w, in) }); err != nil {
		return err
	}
	fmt.Fprintln(o.Stderr, report.Printable(fmt.Sprintf("%s: %s, %d trend figure(s)", o.HTML, report.Count(len(h.Runs), "run"), len(in.Figures))))
	return nil
}
