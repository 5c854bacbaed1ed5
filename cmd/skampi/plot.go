package main

import (
	"fmt"
	"strings"

	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/plots"
	"github.com/skampi/skampi/report"
	"github.com/spf13/cobra"
)

func newPlotCmd() *cobra.Command {
	var (
		o       plots.FilesOptions
		formats []string
		errbars string
	)
	cmd := &cobra.Command{
		Use:   "plot [RESULTS...]",
		Short: "Draw figures from result files: latency, bandwidth, method comparison, scalability, overlap",
		Long: "plot draws every figure the results allow and writes each to DIR (default figures)\n" +
			"as NAME.FORMAT, one line per file written:\n" +
			figureKinds() +
			"Ping-pongs are drawn by their one-way latency (half the round trip, as OSU and IMB\n" +
			"report). Reads files or a run's -o directory (its results.jsonl), or stdin when\n" +
			"none is given; \"label=file\" names a source in captions and legends.",
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.Formats, err = plots.ParseFormats(formats); err != nil {
				return cli.UsageError(fmt.Errorf("--format: %w", err))
			}
			if o.Errors, err = plots.ParseErrorBars(errbars); err != nil {
				return cli.UsageError(fmt.Errorf("--errors: %w", err))
			}
			o.Sources, o.Stdin = report.ParseSources(args), cli.StdinFunc(cmd)
			o.Stdout, o.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			return plots.WriteFiles(o)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.Dir, "output", "o", "figures", "directory for the figures (created if missing)")
	fl.StringSliceVar(&formats, "format", []string{"png"}, "output formats, comma-separated: "+strings.Join(plots.Formats, ", "))
	fl.StringVar(&errbars, "errors", string(plots.ErrStderr), "error bars: stderr (time ± stderr_s), p10-p90, or none")
	return cmd
}

func figureKinds() string {
	var b strings.Builder
	for _, k := range plots.Kinds() {
		fmt.Fprintf(&b, "  %-14s %s\n", k.Name, k.Doc)
	}
	return b.String()
}
