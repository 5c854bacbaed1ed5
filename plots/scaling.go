package plots

import (
	"fmt"
	"math"
	"sort"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// scalingSizes is how many message sizes a scalability figure shows at most.
const scalingSizes = 4

// scalabilityKind: time vs number of processes, one line per message size, for an op
// measured at several process counts (in one run or across runs and files).
var scalabilityKind = Kind{
	Name:   "scalability",
	Doc:    "time vs number of processes, one line per message size (a few sizes)",
	Groups: scalabilityGroups,
	Build:  buildScalability,
}

// scalabilityGroups groups by measurement, op, timing method, timer and MPI library
// across runs (a measurement of the same name in several runs is one line), and keeps
// the groups with some size measured at two process counts or more. Measurements or
// methods of one op (exclusive and shared locks, two hold times) stay apart.
func scalabilityGroups(res *report.Results) []Group {
	lib := libraries(res)
	all := groupBy(res, func(*record.Point) bool { return true }, func(p *record.Point) string {
		return fmt.Sprintf("%s/%s/%s/%s/%s", p.Measurement, p.Op, p.Method, p.Timer, lib[p.RunID])
	})
	var out []Group
	for _, g := range all {
		if len(scalingSizesOf(g.Points)) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// scalingSizesOf are the sizes measured at two process counts or more.
func scalingSizesOf(points []record.Point) []int64 {
	procs := map[int64]map[int]bool{}
	for _, p := range points {
		if procs[p.MsgBytes] == nil {
			procs[p.MsgBytes] = map[int]bool{}
		}
		procs[p.MsgBytes][p.NProcs] = true
	}
	var out []int64
	for _, s := range sortedSizes(points) {
		if len(procs[s]) >= 2 {
			out = append(out, s)
		}
	}
	return out
}

// spread picks at most n values, the first, the last and evenly between.
func spread(vs []int64, n int) []int64 {
	if len(vs) <= n {
		return vs
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = vs[int(math.Round(float64(i)*float64(len(vs)-1)/float64(n-1)))]
	}
	return out
}

func buildScalability(g Group, opts Options) (*Figure, error) {
	e := opts.errors()
	ax := timeAxisOf(g.Points)
	averaged := 0
	var lines []chart.Line
	var ys []float64
	for _, size := range spread(scalingSizesOf(g.Points), scalingSizes) {
		at := map[int][]record.Point{}
		for _, p := range g.Points {
			if p.MsgBytes == size {
				at[p.NProcs] = append(at[p.NProcs], p)
			}
		}
		var procs []int
		for np := range at {
			procs = append(procs, np)
		}
		sort.Ints(procs)
		line := chart.Line{Label: chart.FormatBytes(float64(size))}
		for _, np := range procs {
			y, lo, hi := combine(at[np], e, ax)
			if len(at[np]) > 1 {
				averaged++
			}
			line.X, line.Y = append(line.X, float64(np)), append(line.Y, y)
			if e != ErrNone {
				line.Lo, line.Hi = append(line.Lo, lo), append(line.Hi, hi)
			}
			ys = append(ys, y)
		}
		lines = append(lines, line)
	}
	var notes []string
	if averaged > 0 {
		notes = append(notes, fmt.Sprintf("%s measured more than once: mean of the times", report.Count(averaged, "point")))
	}
	var procs []float64
	for _, p := range g.Points {
		procs = append(procs, float64(p.NProcs))
	}
	p := g.Points[0]
	title := familyTitle(g.Points, "") // the measurement name, else the op
	name := "scalability-" + p.Measurement
	if p.Method != "" {
		title += ", method " + p.Method
		name += "-" + p.Method
	}
	return lineFigure(name, "scalability", chart.LineSpec{
		Title:   title,
		Caption: caption(g, opts, ax.notes()...),
		X:       chart.AxisSpec{Quantity: chart.Count, Label: "processes", Scale: scaleOf(ratio(procs) >= 8)},
		Y:       chart.AxisSpec{Quantity: chart.Seconds, Label: ax.label(g.Points), Scale: scaleOf(chart.SpansDecade(ys))},
		Lines:   lines,
		Notes:   notes,
		Width:   opts.Width, Height: opts.Height,
	})
}

// combine is the mean time of points measured more than once (a ping-pong's one-way
// latency, as ax draws it), with error-bar ends: the stderr of the mean, or the widest
// p10-p90.
func combine(ps []record.Point, e ErrorBars, ax timeAxis) (y, lo, hi float64) {
	var sum, se2 float64
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range ps {
		f := 1.0 // what the drawn value is of time_s
		if ax.oneWay[p.Op] && p.TimeS > 0 {
			f = *p.LatencyS / p.TimeS
		}
		sum += f * p.TimeS
		se2 += f * f * p.StderrS * p.StderrS
		lo, hi = math.Min(lo, f*p.P10S), math.Max(hi, f*p.P90S)
	}
	n := float64(len(ps))
	y = sum / n
	if e == ErrP10P90 {
		return y, lo, hi
	}
	se := math.Sqrt(se2) / n
	return y, y - se, y + se
}

// ratio is the largest positive value over the smallest.
func ratio(vs []float64) float64 {
	lo, hi := math.Inf(1), 0.0
	for _, v := range vs {
		if v > 0 {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if hi == 0 {
		return 1
	}
	return hi / lo
}
