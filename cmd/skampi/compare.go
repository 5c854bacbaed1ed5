package main

import (
	"fmt"

	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
	"github.com/spf13/cobra"
)

func newCompareCmd() *cobra.Command {
	var alpha float64
	var metric string
	cmd := &cobra.Command{
		Use:   "compare BASELINE OTHER [MORE...]",
		Short: "Compare result files with a baseline: ratios, significance (U test), geomeans",
		Long: "compare matches the points of every file with the first (the baseline) by measurement,\n" +
			"op, message size and process count, and prints per measurement the baseline and the\n" +
			"other value ± relative standard error and the change: \"+3.1% (p=0.002 n=8+8)\" when the\n" +
			"Mann-Whitney U test on the stored repetitions finds it significant, \"~ (p=...)\" when\n" +
			"not, as benchstat does; a geomean line closes each table. Points missing or faulted\n" +
			"on one side are listed as such. Name sources with labels: openmpi=a.jsonl mpich=b.jsonl.\n" +
			"SKaMPI .sko files are read too (no repetitions: differences are not tested).\n" +
			"Exit status 0 when the comparison ran, whatever it found.",
		Example: "  skampi compare openmpi=ompi/results.jsonl mpich=mpich/results.jsonl\n" +
			"  skampi compare --metric bandwidth --alpha 0.01 a.jsonl b.jsonl c.jsonl",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return usageMistake(cmd, fmt.Errorf("compare needs at least two result files, the first being the baseline (got %d)", len(args)))
			}
			if !(alpha > 0 && alpha < 1) {
				return usageMistake(cmd, fmt.Errorf("--alpha must be between 0 and 1, got %g", alpha))
			}
			m := compare.Metric(metric)
			if m != compare.MetricTime && m != compare.MetricBandwidth {
				return usageMistake(cmd, fmt.Errorf("--metric must be time or bandwidth, got %q", metric))
			}
			return compare.Print(compare.PrintOptions{Sources: report.ParseSources(args), Stdin: cmd.InOrStdin(),
				Options: compare.Options{Alpha: alpha, Metric: m}, Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()})
		},
	}
	cmd.Flags().Float64Var(&alpha, "alpha", compare.DefaultAlpha, "significance level of the U test")
	cmd.Flags().StringVar(&metric, "metric", string(compare.MetricTime), "what to compare: time, or bandwidth (operations without a bandwidth fall back to time)")
	return cmd
}

// usageMistake is a mistake in the command line: exit status 2 (main adds the line
// naming --help).
func usageMistake(cmd *cobra.Command, err error) error {
	return &exitError{Code: 2, Err: err}
}
