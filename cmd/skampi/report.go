package main

import (
	"fmt"

	"github.com/skampi/skampi/htmlreport"
	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/plots"
	"github.com/skampi/skampi/report"
	"github.com/spf13/cobra"
)

func newReportCmd() *cobra.Command {
	var (
		o       htmlreport.FileOptions
		errbars string
	)
	cmd := &cobra.Command{
		Use:   "report [RESULTS...] [-o report.html]",
		Short: "Write one self-contained HTML page: provenance, figures, tables, flags, analyses, comparisons",
		Long: "report writes a single HTML file (figures inline as SVG, nothing loaded from the\n" +
			"network) with every run's provenance, figures, per-measurement tables, flagged points\n" +
			"and faults, protocol regimes, and, given several sources, their comparison; a\n" +
			"ping-pong's table shows its one-way latency with the round trip beside it, each\n" +
			"column's header its unit.\n" +
			"Reads files or a run's -o directory (its results.jsonl), or stdin when none is\n" +
			"given; \"label=file\" names a source, and files sharing a label are one side.\n" +
			"Sources under two or more labels make an A/B report (the first label the baseline):\n" +
			"the comparison first (per setup: each side, the ratio, its test and verdict), the\n" +
			"provenance once per label with the differences marked, and a figure per measurement\n" +
			"with a colour per label (median and min-max band over its runs); each run's own\n" +
			"figures are left to skampi plot.",
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.Errors, err = plots.ParseErrorBars(errbars); err != nil {
				return cli.UsageError(fmt.Errorf("--errors: %w", err))
			}
			o.Sources, o.Stdin = report.ParseSources(args), cli.StdinFunc(cmd)
			o.Stdout, o.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return htmlreport.WriteFile(o)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.Out, "output", "o", "report.html", "the HTML file to write")
	fl.StringVar(&o.Title, "title", "skampi report", "the page title")
	fl.StringVar(&errbars, "errors", string(plots.ErrStderr), "error bars: stderr, p10-p90, or none")
	return cmd
}
