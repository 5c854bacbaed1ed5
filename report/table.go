package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// Table prints what a user watches while a suite runs: a heading per measurement with
// its settings, then one line per point with its progress, time, relative stderr and
// flags. Text from
// the suite or the library (names, details) is printed with control characters escaped.
type Table struct {
	w         io.Writer
	opt       TableOptions
	total     int
	current   string
	roundTrip bool      // the current measurement's time is a round trip
	start     time.Time // the run header's arrival (ETA)
	seen      int       // points and faults since (ETA)
}

// TableOptions add columns, as OSU's options do: Full (-f) the minimum, maximum and
// mean of a point's repetitions, Percentiles (-z) their 50th, 90th and 99th
// percentiles (of the samples kept: with fewer than 100 repetitions the 99th is near
// the maximum). A ping-pong's are of the one-way time, as its first column.
type TableOptions struct {
	Full, Percentiles bool
	// ETA, on a live run, ends each point line with the time left (table_eta.go).
	ETA *ETA
	// Latency: OpenSHMEM puts and gets show their time on a plain line, not their
	// breakdown (table_latency.go).
	Latency bool
}

func NewTable(w io.Writer) *Table { return &Table{w: w} }

// NewTableWith is a table with the columns opt adds.
func NewTableWith(w io.Writer, opt TableOptions) *Table { return &Table{w: w, opt: opt} }

// statsHeading is the added columns' heading (each 10 wide, with a space before).
func (t *Table) statsHeading(oneWay bool) string {
	var b strings.Builder
	unit := " [us]"
	if oneWay {
		unit = " 1w"
	}
	if t.opt.Full {
		for _, n := range []string{"min", "max", "mean"} {
			fmt.Fprintf(&b, " %10s", n+unit)
		}
	}
	if t.opt.Percentiles {
		for _, n := range []string{"p50", "p90", "p99"} {
			fmt.Fprintf(&b, " %10s", n+unit)
		}
	}
	return b.String()
}

// stats is the added columns of a point: of its samples, halved for a one-way time.
func (t *Table) stats(p *record.Point, oneWay bool) string {
	if !t.opt.Full && !t.opt.Percentiles {
		return ""
	}
	x := slices.Clone(p.SamplesS)
	slices.Sort(x)
	scale := 1.0
	if oneWay {
		scale = 0.5
	}
	cell := func(v float64, ok bool) string {
		if !ok {
			return fmt.Sprintf(" %10s", "-")
		}
		return fmt.Sprintf(" %10s", micro(v*scale))
	}
	var b strings.Builder
	n := len(x)
	if t.opt.Full {
		var sum float64
		for _, v := range x {
			sum += v
		}
		if n > 0 {
			b.WriteString(cell(x[0], true) + cell(x[n-1], true) + cell(sum/float64(n), true))
		} else {
			b.WriteString(cell(0, false) + cell(0, false) + cell(0, false))
		}
	}
	if t.opt.Percentiles {
		for _, q := range []float64{0.5, 0.9, 0.99} {
			b.WriteString(cell(percentile(x, q), n > 0))
		}
	}
	return b.String()
}

// percentile of sorted x by linear interpolation between closest ranks.
func percentile(x []float64, q float64) float64 {
	if len(x) == 0 {
		return 0
	}
	pos := q * float64(len(x)-1)
	lo := int(pos)
	if lo+1 >= len(x) {
		return x[len(x)-1]
	}
	return x[lo] + (pos-float64(lo))*(x[lo+1]-x[lo])
}

func (t *Table) Run(r *record.Run) error {
	t.total = r.Points
	if e := t.opt.ETA; e != nil && e.Now != nil {
		t.start, t.seen = e.Now(), 0
	}
	hosts := len(r.Hosts)
	smoke := ""
	if r.Smoke {
		smoke = " | smoke run: two repetitions a point, numbers not for comparison"
	}
	line := fmt.Sprintf("skampi %s | %s | %d processes on %s | suite %s, %d points%s\n",
		r.SkampiVersion, r.MPILibrary, r.NProcs, Count(hosts, "host"), r.Suite, r.Points, smoke)
	_, err := io.WriteString(t.w, PrintableLines(line))
	return err
}

// heading starts a measurement's block; ranks is "" when unknown, settings nil. A
// non-blocking operation's breakdown has columns of its own; a ping-pong's time is its
// one-way latency (OSU's osu_latency, IMB's PingPong), the round trip beside it.
func (t *Table) heading(b *strings.Builder, measurement, op, ranks string, settings []record.Field, breakdown, roundTrip bool) {
	if measurement == t.current {
		return
	}
	t.current, t.roundTrip = measurement, roundTrip
	if ranks != "" {
		op += ", ranks " + ranks
	}
	fmt.Fprintf(b, "\n%s (%s)\n", measurement, op)
	if len(settings) > 0 {
		kv := make([]string, len(settings))
		for i, f := range settings {
			kv[i] = f.Name + "=" + f.Value
		}
		fmt.Fprintf(b, "  %s\n", strings.Join(kv, " "))
	}
	switch {
	case breakdown:
		fmt.Fprintf(b, "%11s %10s %5s %12s %7s %11s %11s %15s %8s %6s  %s\n",
			"point", "bytes", "procs", "full [us]", "stderr", "post [us]", "wait [us]", "not hidden [us]", "overlap", "reps", "flags")
	case roundTrip:
		fmt.Fprintf(b, "%11s %10s %5s %8s %12s %15s %7s %6s %12s%s  %s\n",
			"point", "bytes", "procs", "method", "one-way [us]", "round trip [us]", "stderr", "reps", "1-way [MB/s]", t.statsHeading(true), "flags")
	default:
		fmt.Fprintf(b, "%11s %10s %5s %8s %12s %7s %6s %11s %11s%s  %s\n",
			"point", "bytes", "procs", "method", "time [us]", "stderr", "reps", "rate [MB/s]", "msg/s", t.statsHeading(false), "flags")
	}
}

// Each column keeps one unit, as OSU's and IMB's tables do, so columns compare at a
// glance and paste into a spreadsheet: bytes, microseconds, MB/s (10^6 bytes).
func micro(s float64) string { return fmt.Sprintf("%.3f", s*1e6) }

// oneWayRate is a ping-pong's MB/s as IMB's PingPong prints it: the message's bytes
// over the one-way time (latency_s, half the round trip), in 10^6 bytes per second;
// computed from the record, which carries no bandwidth for a ping-pong. Blank without
// a positive latency_s, and for many pairs at once (IMB-P2P prints their aggregate,
// which the slowest pair's time does not give).
func oneWayRate(p *record.Point) string {
	if p.LatencyS == nil || *p.LatencyS <= 0 {
		return ""
	}
	if in, ok := ops.Lookup(p.Op); ok && in.Pattern == ops.PatternPairs {
		return ""
	}
	return fmt.Sprintf("%.2f", float64(p.MsgBytes) / *p.LatencyS / 1e6)
}

// roundTrip tells whether an operation's time is a round trip (a ping-pong).
func roundTrip(op string) bool {
	in, ok := ops.Lookup(op)
	return ok && in.RoundTrip
}

func (t *Table) Point(p *record.Point) error {
	var b strings.Builder
	ranks := "" // a pair's ranks; a collective's communicators are the procs column
	if in, ok := ops.Lookup(p.Op); !ok || in.Pattern != ops.PatternAll {
		ranks = ranksText(p.Ranks)
	}
	plain := t.latencyView(p)
	flags := p.Flags
	if plain {
		flags = withoutBreakdownFlags(flags)
	}
	t.heading(&b, p.Measurement, p.Op, ranks, p.Setup().Settings(), p.Breakdown != nil && !plain, roundTrip(p.Op) || p.LatencyS != nil)
	rel := "-"
	if r, ok := p.RelStderr(); ok {
		rel = fmt.Sprintf("%.1f%%", 100*r)
	}
	progress := t.progress(p.PointIndex)
	t.seen++
	eta := t.etaText(p.PointIndex)
	if bd := p.Breakdown; bd != nil && !plain {
		fmt.Fprintf(&b, "%11s %10d %5d %12s %7s %11s %11s %15s %7.0f%% %6d  %s\n", progress, p.MsgBytes, p.NProcs,
			micro(bd.FullS), rel, micro(bd.PostS), micro(bd.WaitS), micro(bd.OverlappedS), 100*bd.OverlapRatio, p.Reps,
			strings.Join(flags, ",")+eta)
		_, err := io.WriteString(t.w, PrintableLines(b.String()))
		return err
	}
	bw := "" // bandwidth, or an all-to-all's throughput per process
	if p.BandwidthBps != nil {
		bw = fmt.Sprintf("%.2f", *p.BandwidthBps/1e6)
	} else if p.ThroughputBps != nil {
		bw = fmt.Sprintf("%.2f", *p.ThroughputBps/1e6)
	}
	if t.roundTrip {
		oneWay := "-" // a record without latency_s: nothing is derived, the round trip is beside
		if p.LatencyS != nil {
			oneWay = micro(*p.LatencyS)
		}
		if bw == "" {
			bw = oneWayRate(p)
		}
		fmt.Fprintf(&b, "%11s %10d %5d %8s %12s %15s %7s %6d %12s%s  %s\n", progress, p.MsgBytes, p.NProcs, p.Method, oneWay,
			micro(p.TimeS), rel, p.Reps, bw, t.stats(p, p.LatencyS != nil), strings.Join(flags, ",")+eta)
	} else {
		rate := "" // messages per second, beside the bandwidth (osu_mbw_mr's two columns)
		if p.MessagesPerS != nil {
			rate = fmt.Sprintf("%.4g", *p.MessagesPerS)
		}
		fmt.Fprintf(&b, "%11s %10d %5d %8s %12s %7s %6d %11s %11s%s  %s\n", progress, p.MsgBytes, p.NProcs, p.Method, micro(p.TimeS),
			rel, p.Reps, bw, rate, t.stats(p, false), strings.Join(flags, ",")+eta)
	}
	_, err := io.WriteString(t.w, PrintableLines(b.String())) // names and details come from files
	return err
}

func (t *Table) Fault(f *record.Fault) error {
	var b strings.Builder
	t.heading(&b, f.Measurement, f.Op, "", nil, false, roundTrip(f.Op))
	t.seen++
	fmt.Fprintf(&b, "%11s %10d  %s: %s\n", t.progress(f.PointIndex),
		f.MsgBytes, strings.ToUpper(f.Fault), f.Detail) // the bytes column, as for points
	_, err := io.WriteString(t.w, PrintableLines(b.String())) // names and details come from files
	return err
}

// Step is a line under the curve's last point: where it jumps, to the element when
// measuring both sizes again confirmed it, else the bracket.
func (t *Table) Step(st *record.Step) error {
	var b strings.Builder
	if st.Confirmed {
		fmt.Fprintf(&b, "%11s step between %d and %d B: %s -> %s, confirmed in %d rounds measured again alternately\n", "",
			st.LoBytes, st.HiBytes, micro(st.BeforeS)+" µs", micro(st.AfterS)+" µs", len(st.Rounds))
	} else {
		fmt.Fprintf(&b, "%11s no step confirmed at %d..%d B: the jump refinement saw there did not come back (%s)\n", "",
			st.FoundLo, st.FoundHi, st.Detail)
	}
	_, err := io.WriteString(t.w, PrintableLines(b.String()))
	return err
}

func (t *Table) Close() error { return nil }

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

// progress is "[i/total]"; a point refinement added after the plan's is "[total+k]".
func (t *Table) progress(i int) string {
	if t.total > 0 && i > t.total {
		return fmt.Sprintf("[%d+%d]", t.total, i-t.total)
	}
	return fmt.Sprintf("[%d/%d]", i, t.total)
}
