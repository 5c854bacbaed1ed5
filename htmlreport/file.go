package htmlreport

import (
	"errors"
	"fmt"
	"io"
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
	figs, skipped, err := plots.Draw(res, plots.Options{Errors: o.Errors, Labels: labels})
	if err != nil {
		return err
	}
	in := Input{Title: o.Title, Sources: o.Sources, Results: res, Generated: time.Now()}
	// With their kinds, so the overlap figures go to their own section.
	var more []plots.Skipped
	in.Figures, more = Render(figs)
	skipped = append(skipped, more...)
	if len(o.Sources) > 1 {
		ls := make([]compare.Labelled, len(each))
		for i, r := range each {
			ls[i] = compare.Labelled{Label: o.Sources[i].Label, Results: r}
		}
		tables, ratios, notDrawn, err := comparisons(ls)
		skipped = append(skipped, notDrawn...)
		switch {
		case errors.Is(err, compare.ErrNothingInCommon):
			// Runs of different suites still make a report, with their figures
			// side by side; the page says why there is no comparison.
			in.Comparisons = []Table{{Title: "No comparison", Text: err.Error() + "\n"}}
		case err != nil:
			return err
		default:
			in.Comparisons = tables
			in.Figures = append(in.Figures, ratios...)
		}
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

// comparisons compares every source with the first: the text table, as `skampi
// compare` prints it, and a ratio-vs-size figure per measurement (those that cannot be
// drawn in notDrawn).
func comparisons(ls []compare.Labelled) ([]Table, []Figure, []plots.Skipped, error) {
	c, err := compare.Compare(ls, compare.Options{})
	if err != nil {
		return nil, nil, nil, err
	}
	var text strings.Builder
	if err := compare.WriteComparison(&text, c); err != nil {
		return nil, nil, nil, err
	}
	tables := []Table{{Title: fmt.Sprintf("%s compared with %s", strings.Join(c.Others, ", "), c.Baseline), Text: text.String()}}
	figs, notDrawn := plots.RatioFigures(c)
	out, more := Render(figs)
	return tables, out, append(notDrawn, more...), nil
}
