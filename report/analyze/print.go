package analyze

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/skampi/skampi/report"
)

// PrintOptions are skampi analyze's: the result sources, the input of a "-" source,
// the output (the breakdowns) and where the input's problems go.
type PrintOptions struct {
	Sources        []report.Source
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Print is skampi analyze: it reads the sources and prints the breakdown of every
// latency curve they hold; none is an error.
func Print(o PrintOptions) error {
	res, err := report.LoadReporting(o.Sources, o.Stdin, o.Stderr)
	if err != nil {
		return err
	}
	bds := Analyze(res)
	if len(bds) == 0 {
		return fmt.Errorf("no latency curve with at least 6 sizes to analyse")
	}
	var out strings.Builder
	for _, b := range bds {
		writeBreakdown(&out, b)
	}
	_, err = io.WriteString(o.Stdout, report.PrintableLines(out.String())) // names come from files
	return err
}

// writeBreakdown prints one curve's regimes as a table, then its breakpoints.
func writeBreakdown(w io.Writer, b Breakdown) {
	what := "time"
	if b.OneWay {
		what = "one-way latency (round trip / 2)"
	}
	op := b.Op
	if b.Method != "" {
		op += ", method " + b.Method
	}
	fmt.Fprintf(w, "%s (%s), %d processes, run %s: %s\n", b.Measurement, op, b.NProcs, b.RunID, what)
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
			s[i] = report.Bytes(x) + b.Resolution[i]
		}
		fmt.Fprintf(w, "breakpoints: %s\n", strings.Join(s, ", "))
		for i, cs := range b.Changes {
			for _, c := range cs {
				fmt.Fprintf(w, "  at %s: %s %.6g -> %.6g\n", report.Bytes(bp[i]), c.Name, c.Before, c.After)
			}
		}
		for i, why := range b.Unsteady {
			if why != "" {
				fmt.Fprintf(w, "  at %s: not steady (%s): the step may be the machine's\n", report.Bytes(bp[i]), why)
			}
		}
	}
	fmt.Fprintln(w)
}
