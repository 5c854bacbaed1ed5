package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/export"
	"github.com/spf13/cobra"
)

func newExportCmd() *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "export [RESULTS...] --format csv|sko|gobench [-o FILE]",
		Short: "Write result files as CSV, SKaMPI's .sko text, or Go benchmark format for benchstat",
		Long: "export reads result files (JSONL or .sko; stdin when none is given), merges them by\n" +
			"run, and writes them in another format to stdout or -o FILE:\n" +
			"  csv      one row per point, the columns of results.csv (method, nprocs and every\n" +
			"           setting among them)\n" +
			"  sko      SKaMPI's text output, a block per measurement and timing method\n" +
			"           (\"Put method=lock_all\"), times in microseconds\n" +
			"  gobench  the Go benchmark format, one line per repetition (ns/op, and MB/s for\n" +
			"           bandwidth operations), named by the point's setup\n" +
			"           (BenchmarkPut/method=lock_all/bytes=8/procs=2, and any setting that\n" +
			"           varies), for benchstat: `benchstat a.txt b.txt`, the methods side by\n" +
			"           side: `benchstat -col /method put.txt`. Two MPI libraries differ in the\n" +
			"           mpi_library/mpi_version configuration keys:\n" +
			"           `benchstat -ignore mpi_library,mpi_version a.txt b.txt`.\n" +
			"Reads files or a run's -o directory (its results.jsonl).",
		Example: "  skampi export results/results.jsonl --format gobench -o a.txt",
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(export.Formats, format) {
				return cli.UsageError(fmt.Errorf("--format must be one of %s, got %q", strings.Join(export.Formats, ", "), format))
			}
			in, err := cli.StdinIfNone(cmd, args)
			if err != nil {
				return err
			}
			return export.WriteFile(export.FileOptions{Sources: report.ParseSources(args), Stdin: in, Format: format, Out: out,
				Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()})
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "csv, sko or gobench (required)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "file to write (default stdout)")
	return cmd
}
