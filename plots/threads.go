package plots

import (
	"fmt"
	"sort"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// threadsKind: a multi-threaded operation's time (the slowest thread's; at 1:N the
// sender's) vs the threads per rank (at 1:N the receiver threads), one line per message
// size: flat when the threads share the library well, rising when they queue for it
// (or, with more threads than cores, for the cores).
var threadsKind = Kind{
	Name:   "threads",
	Doc:    "multi-threaded operations: the slowest thread's time vs threads per rank, one line per message size",
	Groups: threadsGroups,
	Build:  buildThreads,
}

// threadsGroups groups the points of multi-threaded operations by op, process count,
// how the threads communicate, their pinning and the MPI library, across measurements
// and runs, and keeps the groups with two thread counts or more.
func threadsGroups(res *report.Results) []Group {
	lib := libraries(res)
	all := groupBy(res, func(p *record.Point) bool { return p.Threads > 0 }, func(p *record.Point) string {
		return fmt.Sprintf("%s/np%d/%s/%s/%s", p.Op, p.NProcs, p.ThreadComm, p.ThreadPinning, lib[p.RunID])
	})
	var out []Group
	for _, g := range all {
		counts := map[int]bool{}
		for _, p := range g.Points {
			counts[p.Threads] = true
		}
		if len(counts) >= 2 {
			out = append(out, g)
		}
	}
	return out
}

func buildThreads(g Group, opts Options) (*Figure, error) {
	e := opts.errors()
	ax := timeAxisOf(g.Points)
	var lines []chart.Line
	var ys []float64
	for _, size := range spread(sortedSizes(g.Points), scalingSizes) {
		at := map[int][]record.Point{}
		for _, p := range g.Points {
			if p.MsgBytes == size {
				at[p.Threads] = append(at[p.Threads], p)
			}
		}
		var counts []int
		for n := range at {
			counts = append(counts, n)
		}
		sort.Ints(counts)
		line := chart.Line{Label: chart.FormatBytes(float64(size))}
		for _, n := range counts {
			y, lo, hi := combine(at[n], e, ax)
			line.X, line.Y = append(line.X, float64(n)), append(line.Y, y)
			if e != ErrNone {
				line.Lo, line.Hi = append(line.Lo, lo), append(line.Hi, hi)
			}
			ys = append(ys, y)
		}
		lines = append(lines, line)
	}
	p := g.Points[0]
	comm, how, title, xLabel := p.ThreadComm, "own communicators", "slowest thread vs threads", "threads per rank"
	if p.ThreadComm == "tag" {
		how = "tags"
	}
	if in, _ := ops.Lookup(p.Op); in.OneToN { // one sender, its receivers on one communicator
		comm, how, title, xLabel = "shared", "one communicator and its tags", "the sender's time vs receiver threads", "receiver threads (one sender thread)"
	}
	if p.ThreadPinning == "core" {
		how += ", pinned"
	}
	return lineFigure(fmt.Sprintf("threads-%s-%s-%s-np%d", p.Op, comm, p.ThreadPinning, p.NProcs), "threads", chart.LineSpec{
		Title:   fmt.Sprintf("%s: %s (%s)", p.Op, title, how),
		Caption: caption(g, opts, ax.notes()...),
		X:       chart.AxisSpec{Quantity: chart.Count, Label: xLabel},
		Y:       chart.AxisSpec{Quantity: chart.Seconds, Label: ax.label(g.Points), Scale: scaleOf(chart.SpansDecade(ys))},
		Lines:   lines,
		Width:   opts.Width, Height: opts.Height,
	})
}
