package main

import (
	"errors"
	"fmt"

	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/internal/numflag"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
	"github.com/spf13/cobra"
)

func newCompareCmd() *cobra.Command {
	var alpha, failAbove float64
	var metric string
	var gated bool
	cmd := &cobra.Command{
		Use:   "compare BASELINE OTHER [MORE...]",
		Short: "Compare result files with a baseline: ratios, significance (U test), geomeans",
		Long: "compare matches the points of every file with the first (the baseline) by what they\n" +
			"measured: operation, timing method, message size, process count and the settings that\n" +
			"change the number (window, timer, sync, ...); the measurement's name is only a label.\n" +
			"Each run (run id) is one sample: a side is the median of its runs ± the largest\n" +
			"deviation of a run. A change is tested only when both sides hold the runs the U test\n" +
			"needs to reach alpha (4 a side at 0.05): Mann-Whitney U test over the runs, p adjusted\n" +
			"for the number of rows tested (Benjamini-Hochberg, q); \"+3.1% (p=0.008 q=0.016 n=5+5)\"\n" +
			"is significant, \"~\" is not; with fewer runs the change is shown untested.\n" +
			"Each measurement is also tested as a whole (all its sizes together): Welch's t-test\n" +
			"over the runs' geometric means, and over the same less the run's other measurements\n" +
			"(a busy machine moves a run's measurements together), corrected over measurements;\n" +
			"it prints the smallest change each test can find with the runs given.\n" +
			"Repetitions inside one run are never taken as samples: the machine's level moves\n" +
			"between runs, not within one.\n" +
			"Gather runs with `skampi run --append -o DIR`, or give one label several files:\n" +
			"base=a1.jsonl base=a2.jsonl new=b.jsonl. SKaMPI .sko files are read too.\n\n" +
			"Exit status 0 when the comparison ran; with --fail-above P, 5 when a row or a\n" +
			"measurement as a whole is a significant regression larger than P (more time, or less\n" +
			"bandwidth), and 1 when not one row of a source could be tested (too few runs): a\n" +
			"gate that cannot judge fails. For a nightly gate keep 8 runs a side: on a loaded\n" +
			"2-core machine whose runs moved 30 % between them, 8+8 found a measurement that\n" +
			"doubled in every trial, 4+4 in 75-87 % of them; the gate's last line says what change\n" +
			"the runs given can find.",
		Example: "  skampi compare openmpi=ompi/results.jsonl mpich=mpich/results.jsonl\n" +
			"  for i in $(seq 8); do skampi -i pt2pt -o nightly/ --append; done\n" +
			"  skampi compare --metric bandwidth --alpha 0.01 a.jsonl b.jsonl c.jsonl\n" +
			"  skampi compare --fail-above 5% baseline/results.jsonl nightly/results.jsonl",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return cli.UsageError(fmt.Errorf("compare needs at least two result files, the first being the baseline (got %d)", len(args)))
			}
			m := compare.Metric(metric)
			if m != compare.MetricTime && m != compare.MetricBandwidth {
				return cli.UsageError(fmt.Errorf("--metric must be time or bandwidth, got %q", metric))
			}
			var gate *compare.Gate
			if gated {
				gate = &compare.Gate{FailAbove: failAbove}
			}
			err := compare.Print(compare.PrintOptions{Sources: report.ParseSources(args), Stdin: cmd.InOrStdin(),
				Options: compare.Options{Alpha: alpha, Metric: m}, Gate: gate, Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()})
			var ge *compare.GateError
			if errors.As(err, &ge) && len(ge.Result.Failed)+len(ge.Result.FailedShifts) > 0 {
				return &exitError{Code: 5, Err: err}
			}
			return err
		},
	}
	numflag.Float(cmd.Flags(), &alpha, "alpha", compare.DefaultAlpha, 0, 1, true, true, "significance level of the U test, after the correction over rows")
	numflag.Percent(cmd.Flags(), &failAbove, &gated, "fail-above", "exit 5 when a row is a significant regression larger than this (\"5%\" or 0.05)")
	cmd.Flags().StringVar(&metric, "metric", string(compare.MetricTime), "what to compare: time, or bandwidth (operations without a bandwidth fall back to time)")
	return cmd
}
