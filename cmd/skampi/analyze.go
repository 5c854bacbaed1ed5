package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/analyze"
	"github.com/spf13/cobra"
)

func newAnalyzeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "analyze [RESULTS...]",
		Short: "Find protocol breakpoints in latency curves and fit L+o and G per regime",
		Long: "analyze splits every latency-vs-size curve into the linear regimes that explain it\n" +
			"(eager, rendezvous, cache effects), and fits each with t = (L + o) + G * size.\n" +
			"Reads files, or stdin when none is given.",
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := stdinIfNone(cmd, args)
			if err != nil {
				return err
			}
			res, err := report.LoadAll(report.ParseSources(args), in)
			if err != nil {
				return err
			}
			report.PrintProblems(cmd.ErrOrStderr(), res.Problems, maxProblemLines)
			bds := analyze.Analyze(res)
			if len(bds) == 0 {
				return fmt.Errorf("no latency curve with at least 6 sizes to analyse")
			}
			var out strings.Builder
			for _, b := range bds {
				printBreakdown(&out, b)
			}
			_, err = io.WriteString(cmd.OutOrStdout(), report.PrintableLines(out.String())) // names come from files
			return err
		},
	}
}

func printBreakdown(w io.Writer, b analyze.Breakdown) {
	what := "time"
	if b.OneWay {
		what = "one-way latency (round trip / 2)"
	}
	fmt.Fprintf(w, "%s (%s), %d processes, run %s: %s\n", b.Measurement, b.Op, b.NProcs, b.RunID, what)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "regime\tsizes\tpoints\tL+o\tG\t1/G\tfit error\t\n")
	for i, r := range b.Regimes {
		fmt.Fprintf(tw, "%d\t%s - %s\t%d\t%s\t%.4g ns/B\t%s\t%.1f%%\t\n", i+1, report.Bytes(r.FromBytes), report.Bytes(r.ToBytes),
			r.Points, report.Seconds(r.InterceptS), r.PerByteS*1e9, report.Rate(r.BandwidthBps()), 100*r.RelRMS)
	}
	tw.Flush()
	if bp := b.Breakpoints(); len(bp) > 0 {
		s := make([]string, len(bp))
		for i, x := range bp {
			s[i] = report.Bytes(x)
		}
		fmt.Fprintf(w, "breakpoints: %s\n", strings.Join(s, ", "))
	}
	fmt.Fprintln(w)
}
