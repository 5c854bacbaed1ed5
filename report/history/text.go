package history

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
)

// WriteHistory prints a history as aligned text: what the runs are, then per
// measurement one line per setup (its runs, the latest value, the rolling baseline, the
// latest's change from it, the change points) and the measurement's change points as a
// whole, and last the runs the change points name. Names and labels come from files:
// control characters in them are escaped.
func WriteHistory(w io.Writer, h *History) error {
	b := &strings.Builder{}
	h.writeHeader(b)
	named := map[int]bool{}
	for i := range h.Measurements {
		fmt.Fprintln(b)
		h.writeMeasurement(b, &h.Measurements[i], named)
	}
	if len(named) > 0 {
		fmt.Fprintf(b, "\nruns with a change point:\n")
		tw := tabwriter.NewWriter(b, 0, 4, 2, ' ', 0)
		for _, r := range h.Runs {
			if named[r.Index] {
				start := "no start time"
				if !r.StartTime.IsZero() {
					start = r.StartTime.UTC().Format("2006-01-02T15:04:05Z")
				}
				fmt.Fprintf(tw, "  run %d\t%s\t%s\t%s\t%s\t%s\n", r.Index, start, r.RunID, r.Label, r.Library, strings.Join(r.Hosts, ","))
			}
		}
		tw.Flush()
	}
	for _, n := range h.Notes {
		fmt.Fprintf(b, "note: %s\n", n)
	}
	_, err := io.WriteString(w, report.PrintableLines(b.String()))
	return err
}

func (h *History) writeHeader(b *strings.Builder) {
	if len(h.Runs) == 0 {
		return
	}
	var labels, libs, hosts []string
	count := map[string]int{}
	for _, r := range h.Runs {
		if count[r.Label] == 0 {
			labels = append(labels, r.Label)
		}
		count[r.Label]++
		if r.Library != "" && !slices.Contains(libs, r.Library) {
			libs = append(libs, r.Library)
		}
		if hs := strings.Join(r.Hosts, ","); hs != "" && !slices.Contains(hosts, hs) {
			hosts = append(hosts, hs)
		}
	}
	var from []string
	for _, l := range labels {
		name := l
		if name == "" {
			name = "-"
		}
		from = append(from, fmt.Sprintf("%s (%d)", name, count[l]))
	}
	fmt.Fprintf(b, "%s, %s to %s, from %s", report.Count(len(h.Runs), "run"), fmtDate(h.Runs[0]), fmtDate(h.Runs[len(h.Runs)-1]), strings.Join(from, ", "))
	if len(libs) > 0 {
		fmt.Fprintf(b, "; %s", strings.Join(libs, ", "))
	}
	if len(hosts) > 0 {
		fmt.Fprintf(b, " on %s", strings.Join(hosts, "; "))
	}
	fmt.Fprintln(b)
	setups, series := 0, 0
	for _, m := range h.Measurements {
		setups += len(m.Setups)
		series += 2
	}
	fmt.Fprintf(b, "each run is one sample: a setup's value is the run's time_s, a measurement's the geometric mean over its sizes (absolute, and against the median of the run's other measurements)\n")
	fmt.Fprintf(b, "change points: binary segmentation, at least %d runs a side; each split's p by permutation, adjusted over the %d setups and over the %d series of the measurements as a whole (Benjamini-Hochberg), alpha %g\n",
		h.MinSegment, setups, series, h.Alpha)
	fmt.Fprintf(b, "latest: the last run's value; baseline: the median of the %d runs before it\n", h.Window)
}

// Title names the measurement: its name, operation, method and the settings that tell
// it from another of its operation.
func (m *Measurement) Title() string { return m.title() }

func (m *Measurement) title() string {
	t := m.Measurement
	if m.Op != m.Measurement {
		t += " (" + m.Op + ")"
	}
	if m.Method != "" {
		t += ", method " + m.Method
	}
	if m.Settings != "" {
		t += ", " + m.Settings
	}
	return t
}

func (h *History) writeMeasurement(b *strings.Builder, m *Measurement, named map[int]bool) {
	procs := map[int]bool{}
	for _, s := range m.Setups {
		procs[s.NProcs] = true
	}
	title := m.title()
	if len(procs) == 1 {
		title += fmt.Sprintf(", %d processes", m.Setups[0].NProcs)
	}
	fmt.Fprintln(b, title)
	changes := func(s *Series, withValues bool) string {
		switch {
		case !s.Tested:
			return fmt.Sprintf("too few runs for a change (%d needed)", 2*h.MinSegment)
		case len(s.Changes) == 0:
			return "none"
		}
		var out []string
		for _, c := range s.Changes {
			named[c.Run] = true
			out = append(out, h.fmtStep(c, withValues))
		}
		return strings.Join(out, "; ")
	}
	var buf strings.Builder
	tw := tabwriter.NewWriter(&buf, 0, 4, 3, ' ', 0)
	procsCol := len(procs) > 1
	// A run without a value is noted where the setup is, not dropped in silence.
	gapsCol := slices.ContainsFunc(m.Setups, func(s Setup) bool { return len(s.Gaps) > 0 })
	if procsCol {
		fmt.Fprintf(tw, "size\tprocs\truns\tlatest\tbaseline\tvs baseline\tchange points")
	} else {
		fmt.Fprintf(tw, "size\truns\tlatest\tbaseline\tvs baseline\tchange points")
	}
	if gapsCol {
		fmt.Fprintf(tw, "\tgaps")
	}
	fmt.Fprintln(tw)
	for i := range m.Setups {
		s := &m.Setups[i]
		fmt.Fprintf(tw, "%s\t", report.Bytes(s.MsgBytes))
		if procsCol {
			fmt.Fprintf(tw, "%d\t", s.NProcs)
		}
		run, latest := s.Latest()
		cell := report.Seconds(latest)
		if run != len(h.Runs) {
			cell += fmt.Sprintf(" (run %d)", run)
		}
		base, vs := "-", "-"
		if s.BaselineRuns > 0 {
			base, vs = report.Seconds(s.Baseline), compare.Percent(latest/s.Baseline-1)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s", len(s.Values), cell, base, vs, changes(&s.Series, true))
		if gapsCol {
			fmt.Fprintf(tw, "\t%s", gapList(s.Gaps, false))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line != "" {
			fmt.Fprintln(b, strings.TrimRight(line, " \n"))
		}
	}
	fmt.Fprintf(b, "as a whole (geometric mean of %s, %s): %s", report.Count(m.Sizes, "size"), report.Count(len(m.Absolute.Values), "run"), changes(&m.Absolute, true))
	if len(m.Absolute.Gaps) > 0 {
		fmt.Fprintf(b, "; without a value: %s", gapList(m.Absolute.Gaps, true))
	}
	fmt.Fprintln(b)
	fmt.Fprintf(b, "%s: %s", relativeName, changes(&m.Relative, false))
	if len(m.OthersMoved) > 0 {
		var out []string
		for _, c := range m.OthersMoved {
			out = append(out, fmt.Sprintf("run %d %s", c.Run, compare.Percent(c.Ratio-1)))
		}
		fmt.Fprintf(b, " (not counted, its own level did not move with it: %s)", strings.Join(out, ", "))
	}
	fmt.Fprintln(b)
}

// fmtStep is "run 8 (2026-11-25 03:01, nightly): 1.02 µs → 1.33 µs, +30.4%, p=0.001
// q=0.008"; without values (a relative series: factors, not times) the change alone.
func (h *History) fmtStep(c Step, withValues bool) string {
	r := h.Runs[c.Run-1]
	at := fmtDate(r)
	if r.Label != "" {
		at += ", " + r.Label
	}
	s := fmt.Sprintf("run %d (%s): ", c.Run, at)
	if withValues {
		s += fmt.Sprintf("%s → %s, ", report.Seconds(c.Before), report.Seconds(c.After))
	}
	s += fmt.Sprintf("%s, p=%.3f", compare.Percent(c.Ratio-1), c.P)
	if c.Q != c.P {
		s += fmt.Sprintf(" q=%.3f", c.Q)
	}
	return s
}

func fmtDate(r Run) string {
	if r.StartTime.IsZero() {
		return "no start time"
	}
	return r.StartTime.UTC().Format("2006-01-02 15:04")
}

// gapList is "run 5: fault timeout; run 9: missing" ("-" when none); of a whole, each
// with the sizes it lacks.
func gapList(gaps []Gap, sizes bool) string {
	if len(gaps) == 0 {
		return "-"
	}
	var out []string
	for _, g := range gaps {
		s := g.String()
		if sizes && g.Detail != "" {
			s += " " + g.Detail
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}
