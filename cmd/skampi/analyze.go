package main

import (
	"github.com/skampi/skampi/internal/cli"
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
			in, err := cli.StdinIfNone(cmd, args)
			if err != nil {
				return err
			}
			return analyze.Print(analyze.PrintOptions{Sources: report.ParseSources(args), Stdin: in,
				Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()})
		},
	}
}
