package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/skampi/skampi/htmlreport"
	"github.com/skampi/skampi/plots"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
	"github.com/spf13/cobra"
)

func newReportCmd() *cobra.Command {
	var (
		out, title, errbars string
	)
	cmd := &cobra.Command{
		Use:   "report [RESULTS...] [-o report.html]",
		Short: "Write one self-contained HTML page: provenance, figures, tables, flags, analyses, comparisons",
		Long: "report writes a single HTML file (figures inline as SVG, nothing loaded from the\n" +
			"network) with every run's provenance, figures, per-measurement tables, flagged points\n" +
			"and faults, protocol regimes, and, given several sources, their comparison.\n" +
			"Reads files, or stdin when none is given; \"label=file\" names a source.",
		RunE: func(cmd *cobra.Command, args []string) error {
			eb, err := plots.ParseErrorBars(errbars)
			if err != nil {
				return &exitError{Code: 2, Err: fmt.Errorf("--errors: %w", err)}
			}
			sources := report.ParseSources(args)
			res, labels, each, err := loadSources(sources, cmd)
			if err != nil {
				return err
			}
			figs, skipped, err := plots.Draw(res, plots.Options{Errors: eb, Labels: labels})
			if err != nil {
				return err
			}
			in := htmlreport.Input{Title: title, Sources: sources, Results: res, Generated: time.Now()}
			// With their kinds, so the overlap figures go to their own section.
			var more []plots.Skipped
			in.Figures, more = htmlreport.Render(figs)
			skipped = append(skipped, more...)
			if len(sources) > 1 {
				tables, ratios, notDrawn, err := comparisons(each)
				skipped = append(skipped, notDrawn...)
				switch {
				case errors.Is(err, compare.ErrNothingInCommon):
					// Runs of different suites still make a report, with their figures
					// side by side; the page says why there is no comparison.
					in.Comparisons = []htmlreport.Table{{Title: "No comparison", Text: err.Error() + "\n"}}
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
				warnNotDrawn(cmd.ErrOrStderr(), s)
				in.NotDrawn = append(in.NotDrawn, s.String())
			}
			if err := report.WriteFile(out, func(w io.Writer) error { return htmlreport.Write(w, in) }); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d run(s), %d point(s), %d figure(s)\n", out, len(res.Runs), len(res.Points), len(in.Figures))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&out, "output", "o", "report.html", "the HTML file to write")
	fl.StringVar(&title, "title", "skampi report", "the page title")
	fl.StringVar(&errbars, "errors", string(plots.ErrStderr), "error bars: stderr, p10-p90, or none")
	return cmd
}

// comparisons compares every source with the first: the text table, as `skampi
// compare` prints it, and a ratio-vs-size figure per measurement (those that cannot be
// drawn in notDrawn).
func comparisons(ls []compare.Labelled) ([]htmlreport.Table, []htmlreport.Figure, []plots.Skipped, error) {
	c, err := compare.Compare(ls, compare.Options{})
	if err != nil {
		return nil, nil, nil, err
	}
	var text strings.Builder
	if err := compare.WriteComparison(&text, c); err != nil {
		return nil, nil, nil, err
	}
	tables := []htmlreport.Table{{Title: fmt.Sprintf("%s compared with %s", strings.Join(c.Others, ", "), c.Baseline), Text: text.String()}}
	figs, notDrawn := plots.RatioFigures(c)
	out, more := htmlreport.Render(figs)
	return tables, out, append(notDrawn, more...), nil
}
