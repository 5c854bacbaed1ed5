package compare

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/skampi/skampi/report"
)

// WriteComparison prints a comparison as aligned text: for each other source a heading,
// one table per measurement (size, baseline value ± relative stderr, other value ±
// relative stderr, the change and its verdict), a geomean line per table, notes as
// numbered footnotes, and a total line.
// Names and labels come from files: control characters in them are escaped.
func WriteComparison(w io.Writer, c *Comparison) error {
	bw := &strings.Builder{}
	for i, other := range c.Others {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		tot := c.Totals[i]
		if tot.Tested > 0 {
			fmt.Fprintf(bw, "%s vs %s (baseline): each run is one sample; Mann-Whitney U test over the runs, p adjusted for the %d rows tested (Benjamini-Hochberg: q), alpha %g\n",
				other, c.Baseline, tot.Tested, c.Alpha)
		} else {
			fmt.Fprintf(bw, "%s vs %s (baseline): each run is one sample; no row has the runs a side the U test needs (%d at alpha %g): changes are shown, no significance is claimed\n",
				other, c.Baseline, RunsNeeded(c.Alpha), c.Alpha)
		}
		if n := countShifts(tablesOf(c, other)); n > 0 {
			fmt.Fprintf(bw, "each measurement as a whole (all its sizes together): Welch's t-test over the runs' geometric means, adjusted for the %d measurements tested\n", n)
		}
		fmt.Fprintf(bw, "values: median over runs of time_s (a run's mean of the middle half of its repetitions) or bandwidth, ± the largest deviation of a run (one run: ± its standard error)\n")
		for _, t := range c.Tables {
			if t.Other == other {
				fmt.Fprintln(bw)
				writeTable(bw, &t)
			}
		}
		writeTotals(bw, c.Totals[i], c.Baseline)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(bw, "note: %s\n", n)
	}
	_, err := io.WriteString(w, report.PrintableLines(bw.String()))
	return err
}

// Heading names the table's measurement: "Bcast", "Put, method flush", "bcast-linear
// (Bcast), radix=2".
func (t *Table) Heading() string {
	title := t.Measurement
	if t.Op != t.Measurement {
		title += " (" + t.Op + ")"
	}
	if t.Method != "" {
		title += ", method " + t.Method
	}
	if t.Settings != "" {
		title += ", " + t.Settings
	}
	return title
}

func writeTable(w io.Writer, t *Table) {
	procs := map[int]bool{}
	for _, r := range t.Rows {
		procs[r.NProcs] = true
	}
	title := t.Heading()
	if len(procs) == 1 {
		title += fmt.Sprintf(", %d processes", t.Rows[0].NProcs)
	}
	if t.Metric == MetricBandwidth {
		title += ", bandwidth"
	}
	fmt.Fprintln(w, title)
	var notes []string
	marks := func(r *Row) string {
		var m string
		for _, n := range r.Notes {
			i := slices.Index(notes, n)
			if i < 0 {
				notes = append(notes, n)
				i = len(notes) - 1
			}
			m += fmtSuperscript(i + 1)
		}
		return m
	}
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 4, 3, ' ', tabwriter.AlignRight)
	procsCol := len(procs) > 1
	if procsCol {
		fmt.Fprintf(tw, "size\tprocs\t%s\t%s\tvs base\t\t\n", t.Baseline, t.Other)
	} else {
		fmt.Fprintf(tw, "size\t%s\t%s\tvs base\t\t\n", t.Baseline, t.Other)
	}
	for i := range t.Rows {
		r := &t.Rows[i]
		fmt.Fprintf(tw, "%s\t", report.Bytes(r.MsgBytes))
		if procsCol {
			fmt.Fprintf(tw, "%d\t", r.NProcs)
		}
		delta, test := r.Delta(), r.Test()
		if test != "" {
			test = "(" + test + ")"
		}
		if !r.Compared() {
			delta = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s%s\t\n", fmtSideCell(r.Base, t.Metric), fmtSideCell(r.Other, t.Metric), delta, test, marks(r))
	}
	if g := t.Geomean; g.N > 0 {
		fmt.Fprintf(tw, "geomean\t")
		if procsCol {
			fmt.Fprintf(tw, "\t")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t\t\n", fmtMetric(g.Base, t.Metric), fmtMetric(g.Other, t.Metric), Percent(g.Ratio-1))
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line != "" { // empty last cells leave trailing blanks
			fmt.Fprintln(w, strings.TrimRight(line, " \n"))
		}
	}
	if t.Shift.Tested || t.Shift.Rows > 1 {
		fmt.Fprintf(w, "as a whole: %s\n", t.Shift)
	}
	for i, n := range notes {
		fmt.Fprintf(w, "%s %s\n", fmtSuperscript(i+1), n)
	}
}

func writeTotals(w io.Writer, t Totals, baseline string) {
	fmt.Fprintf(w, "\ntotal %s vs %s: %d rows, %d compared, %d significantly different (%d better, %d worse)",
		t.Other, baseline, t.Rows, t.Compared, t.Significant, t.Better, t.Worse)
	if t.Untested > 0 {
		fmt.Fprintf(w, ", %d not tested (too few runs a side)", t.Untested)
	}
	if t.OnlyBase > 0 {
		fmt.Fprintf(w, ", %d missing in %s", t.OnlyBase, t.Other)
	}
	if t.OnlyOther > 0 {
		fmt.Fprintf(w, ", %d missing in %s", t.OnlyOther, baseline)
	}
	if t.Faults > 0 {
		fmt.Fprintf(w, ", %d with faults", t.Faults)
	}
	if t.Compared > 0 {
		fmt.Fprintf(w, "; geomean of the time ratios %s", Percent(t.Geomean-1))
	}
	fmt.Fprintln(w)
}

// sideCell is a value with its relative spread, or what stands in its place.
func fmtSideCell(s Side, m Metric) string {
	switch s.State {
	case SideMissing:
		return "missing"
	case SideFault:
		return "fault: " + s.Fault
	case SideNoValue:
		return "no valid reps"
	}
	v := s.Value(m)
	if v <= 0 {
		v, m = s.TimeS, MetricTime
	}
	return fmt.Sprintf("%s ± %s", fmtMetric(v, m), fmtSpread(s.RelSpread()))
}

func fmtMetric(v float64, m Metric) string {
	if m == MetricBandwidth {
		return report.Rate(v)
	}
	return report.Seconds(v)
}

func fmtSpread(rel float64) string {
	if p := 100 * rel; p < 10 {
		return fmt.Sprintf("%.1f%%", p)
	}
	return fmt.Sprintf("%.0f%%", 100*rel)
}

func fmtSuperscript(n int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	var b strings.Builder
	for _, c := range fmt.Sprint(n) {
		b.WriteString(string([]rune(digits)[c-'0']))
	}
	return b.String()
}

func tablesOf(c *Comparison, other string) []Table {
	var out []Table
	for _, t := range c.Tables {
		if t.Other == other {
			out = append(out, t)
		}
	}
	return out
}
