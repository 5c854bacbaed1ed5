package htmlreport

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/skampi/skampi/plots"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
)

// FileOptions are skampi report's: the result sources read, the page written and its
// title; the input and output are injected.
type FileOptions struct {
	Sources []report.Source
	Stdin   func() (io.Reader, error) // the reader of a "-" source
	Out     string                    // the HTML file
	Title   string
	Errors  plots.ErrorBars
	// Stdout gets one summary line; Stderr the input's problems and a warning per
	// figure left out.
	Stdout, Stderr io.Writer
}

// WriteFile is skampi report: the page of every source's results, with their
// comparison when there are several, written to Out. A figure its data cannot make
// is left out, said on Stderr and on the page; the page is still written.
func WriteFile(o FileOptions) error {
	res, labels, each, err := report.LoadLabelled(o.Sources, o.Stdin, o.Stderr)
	if err != nil {
		return err
	}
	in := Input{Title: o.Title, Sources: o.Sources, Results: res, Generated: time.Now()}
	ls, sides := bySide(o.Sources, each)
	var c *compare.Comparison
	if len(ls) > 1 {
		c, err = compare.Compare(ls, compare.Options{})
		switch {
		case errors.Is(err, compare.ErrNothingInCommon):
			// Runs of different suites still make a report, with their figures
			// side by side; the page says why there is no comparison.
			in.Comparisons = []Table{{Title: "No comparison", Text: err.Error() + "\n"}}
		case err != nil:
			return err
		}
	}
	popts := plots.Options{Errors: o.Errors, Labels: labels}
	if c != nil {
		// An A/B report: figures by label (a colour each, the spread over its runs as a
		// band), not every run's own figures again and again; skampi plot draws those.
		in.Sides, in.Comparison = sides, c
		popts.Sides, popts.Kinds = report.Sides(o.Sources, each), []string{"overlay"}
	}
	figs, skipped, err := plots.Draw(res, popts)
	if err != nil {
		return err
	}
	// With their kinds, so the overlap figures go to their own section.
	var more []plots.Skipped
	in.Figures, more = Render(figs)
	skipped = append(skipped, more...)
	if c != nil {
		tables, ratios, notDrawn, err := comparisons(c)
		if err != nil {
			return err
		}
		skipped = append(skipped, notDrawn...)
		in.Comparisons = tables
		in.Figures = besideOverlays(in.Figures, ratios)
	}
	// A figure its data cannot make is left out, said here and on the page: the
	// page is still written, and the status is 0.
	for _, s := range skipped {
		plots.WarnNotDrawn(o.Stderr, s)
		in.NotDrawn = append(in.NotDrawn, s.String())
	}
	if err := report.WriteFile(o.Out, func(w io.Writer) error { return Write(w, in) }); err != nil {
		return err
	}
	fmt.Fprintf(o.Stdout, "%s: %d run(s), %d point(s), %d figure(s)\n", o.Out, len(res.Runs), len(res.Points), len(in.Figures))
	return nil
}

// bySide merges the sources that share a label into one side of the comparison, in
// the order their labels first appear (the first is the baseline), as skampi compare
// does; sides lists each label's runs.
func bySide(sources []report.Source, each []*report.Results) ([]compare.Labelled, []Side) {
	var ls []compare.Labelled
	var sides []Side
	at := map[string]int{}
	for i, res := range each {
		label := sources[i].Label
		j, ok := at[label]
		if !ok {
			j = len(ls)
			at[label] = j
			ls = append(ls, compare.Labelled{Label: label, Results: &report.Results{}})
			sides = append(sides, Side{Label: label})
		}
		ls[j].Results.Merge(res)
		for _, r := range res.Runs {
			if !slices.Contains(sides[j].RunIDs, r.RunID) {
				sides[j].RunIDs = append(sides[j].RunIDs, r.RunID)
			}
		}
	}
	return ls, sides
}

// comparisons are the comparison's text, as skampi compare prints it, and a
// ratio-vs-size figure per measurement (those that cannot be drawn in notDrawn).
func comparisons(c *compare.Comparison) ([]Table, []Figure, []plots.Skipped, error) {
	var text strings.Builder
	if err := compare.WriteComparison(&text, c); err != nil {
		return nil, nil, nil, err
	}
	tables := []Table{{Title: fmt.Sprintf("%s compared with %s", strings.Join(c.Others, ", "), c.Baseline), Text: text.String()}}
	figs, notDrawn := plots.RatioFigures(c)
	out, more := Render(figs)
	return tables, out, append(notDrawn, more...), nil
}

// besideOverlays puts each measurement's ratio figure right after its overlay (whose
// title starts with the measurement's name), so that the figures read per measurement;
// a ratio figure without an overlay goes at the end.
func besideOverlays(overlays, ratios []Figure) []Figure {
	out := make([]Figure, 0, len(overlays)+len(ratios))
	used := make([]bool, len(ratios))
	for _, o := range overlays {
		out = append(out, o)
		for i, r := range ratios {
			m, _, _ := strings.Cut(r.Title, ": ")
			if !used[i] && (o.Title == m || strings.HasPrefix(o.Title, m+" ") || strings.HasPrefix(o.Title, m+",")) {
				out, used[i] = append(out, r), true
				break
			}
		}
	}
	for i, r := range ratios {
		if !used[i] {
			out = append(out, r)
		}
	}
	return out
}
