package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/skampi/skampi/htmlreport"
	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/internal/numflag"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/history"
	"github.com/spf13/cobra"
)

func newHistoryCmd() *cobra.Command {
	var alpha, failAbove float64
	var window int
	var format, htmlOut, figureDir string
	var failOnChange, gated bool
	cmd := &cobra.Command{
		Use:   "history [--fail-on-change] [--window N] [--html FILE] SOURCE...",
		Short: "Follow nightly runs over time: each setup's latest value, its rolling baseline and change points",
		Long: "history reads result files or run directories (label=file as compare takes them; a\n" +
			"label may repeat), orders every run by its start time and follows each setup\n" +
			"(operation, method, size, process count and settings, matched as compare matches them)\n" +
			"from run to run: one line per setup with the runs holding it, the latest value, the\n" +
			"median of the --window runs before it and the latest's change from that, and the\n" +
			"change points of the setup's series: \"run 8 (date, label): before → after, change, p\".\n" +
			"Each measurement is also followed as a whole: each run's geometric mean over its\n" +
			"sizes, and the same against the median of the run's other measurements (a busy\n" +
			"machine moves a run's measurements together); a change there counts only when the\n" +
			"measurement's own level moved the same way.\n" +
			"Change points: binary segmentation (at least 3 runs a side), the split with the\n" +
			"largest t statistic of the log times, a step or a stretch against the rest (a\n" +
			"change undone later), each time held to within 3 noise levels of its neighbours'\n" +
			"median (so one run on a busy machine cannot make or hide a change); its p by\n" +
			"permuting the runs, adjusted by Benjamini-Hochberg over the setups and over the\n" +
			"measurements' series; then the same within each segment while significant.\n" +
			"A series needs 6 runs to be tested (3 a side) and 8 to show even a clean change at\n" +
			"alpha 0.05; 12 or more to find a 30 % change on a loaded machine most of the time.\n" +
			"--html FILE also writes one self-contained page: the history as printed, then a trend\n" +
			"figure per measurement (each size over its median across the runs, their geometric\n" +
			"mean, its rolling baseline, the change points marked, a run without a value as a gap\n" +
			"with its fault, the latest run shaded); --figures DIR writes those figures as PNG.\n" +
			"The text or JSON keeps stdout: the files written are named on stderr.\n\n" +
			"Exit status 0 when the history ran; with --fail-on-change (or --fail-above P), 5 when\n" +
			"the latest change point of a setup or of a measurement as a whole is a slowdown\n" +
			"(larger than P): a regression that is still there, one line each on stderr; and 1\n" +
			"when no series has the runs to be tested.",
		Example: "  skampi -i pt2pt -o nightly/ --append     # every night, then:\n" +
			"  skampi history nightly/\n" +
			"  skampi history --html history.html nightly/\n" +
			"  skampi history --fail-on-change nightly/2026-*/\n" +
			"  skampi history --fail-above 10% --format json a=old/results.jsonl a=new/results.jsonl",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cli.UsageError(errors.New("history needs at least one result file or run directory"))
			}
			if !slices.Contains(history.Formats, format) {
				return cli.UsageError(fmt.Errorf("--format must be one of %s, got %q", strings.Join(history.Formats, ", "), format))
			}
			var gate *history.Gate
			if failOnChange || gated {
				gate = &history.Gate{FailAbove: failAbove}
			}
			err := history.Print(history.PrintOptions{Sources: report.ParseSources(args), Stdin: cmd.InOrStdin(),
				Options: history.Options{Alpha: alpha, Window: window}, Format: format, Gate: gate,
				Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr(),
				After: func(h *history.History) error {
					return htmlreport.WriteHistoryFiles(h, htmlreport.HistoryFileOptions{HTML: htmlOut, FigureDir: figureDir,
						Sources: report.ParseSources(args), Stderr: cmd.ErrOrStderr()})
				}})
			var ge *history.GateError
			if errors.As(err, &ge) && len(ge.Regressions) > 0 {
				return &exitError{Code: 5, Err: err}
			}
			return err
		},
	}
	numflag.Float(cmd.Flags(), &alpha, "alpha", history.DefaultAlpha, 0, 1, true, true, "false discovery rate of the change points (Benjamini-Hochberg over the series)")
	numflag.Int(cmd.Flags(), &window, "window", history.DefaultWindow, 1, 1000, "runs before the latest whose median is its baseline")
	cmd.Flags().BoolVar(&failOnChange, "fail-on-change", false, "exit 5 when the latest change point of a setup or measurement is a slowdown")
	numflag.Percent(cmd.Flags(), &failAbove, &gated, "fail-above", "as --fail-on-change, for slowdowns larger than this (\"5%\" or 0.05)")
	cmd.Flags().StringVar(&format, "format", "text", "text, or json (every series, its values and change points)")
	cmd.Flags().StringVar(&htmlOut, "html", "", "also write this HTML page: the history, then a trend figure per measurement")
	cmd.Flags().StringVar(&figureDir, "figures", "", "also write the trend figures as PNG files to this directory")
	return cmd
}
