package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/skampi/skampi/measure"
)

// Table prints what a user watches while a suite runs: a heading per measurement,
// then one line per point with its progress, time, relative stderr and flags.
type Table struct {
	w       io.Writer
	total   int
	current string
}

func NewTable(w io.Writer) *Table { return &Table{w: w} }

func (t *Table) Run(r *measure.Run) error {
	t.total = r.Points
	hosts := len(r.Hosts)
	_, err := fmt.Fprintf(t.w, "skampi %s | %s | %d processes on %d host%s | suite %s, %d points\n",
		r.SkampiVersion, r.MPILibrary, r.NProcs, hosts, plural(hosts), r.Suite, r.Points)
	return err
}

func (t *Table) Point(p *measure.Point) error {
	var b strings.Builder
	if p.Measurement != t.current {
		t.current = p.Measurement
		fmt.Fprintf(&b, "\n%s (%s, ranks %s)\n", p.Measurement, p.Op, ranksText(p.Ranks))
		fmt.Fprintf(&b, "%11s %10s %12s %8s %5s %12s  %s\n", "point", "size", "time", "stderr", "reps", "bandwidth", "flags")
	}
	rel := "-"
	if p.MeanS > 0 {
		rel = fmt.Sprintf("%.1f%%", 100*p.StderrS/p.MeanS)
	}
	bw := ""
	if p.BandwidthBps != nil {
		bw = Rate(*p.BandwidthBps)
	}
	progress := fmt.Sprintf("[%d/%d]", p.PointIndex, t.total)
	fmt.Fprintf(&b, "%11s %10s %12s %8s %5d %12s  %s\n", progress, Bytes(p.MsgBytes), Seconds(p.TimeS),
		rel, p.Reps, bw, strings.Join(p.Flags, ","))
	_, err := io.WriteString(t.w, b.String())
	return err
}

func (t *Table) Close() error { return nil }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func ranksText(r []int) string {
	if len(r) > 4 {
		return fmt.Sprintf("%d..%d (%d)", r[0], r[len(r)-1], len(r))
	}
	s := make([]string, len(r))
	for i, x := range r {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}
