package plots

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// latencyKind: time vs message size for every operation of a family measured in one
// run (all ping-pong variants together), one line per (measurement, op).
var latencyKind = Kind{
	Name: "latency",
	Doc:  "time vs message size, one line per operation of a family in one run",
	Groups: func(res *report.Results) []Group {
		return splitWide(groupBy(res, func(p *record.Point) bool { return p.BandwidthBps == nil && !atomic(p) }, familyKey), measurementOp)
	},
	Build: func(g Group, opts Options) (*Figure, error) {
		ax := timeAxisOf(g.Points)
		lines, ps := linesBy(g.Points, measurementOp, func(p *record.Point) (float64, float64, float64, bool) {
			return ax.value(p, opts.errors())
		}, opts.errors())
		styleByOp(lines, g.Points, measurementOp)
		logX := chart.SpansDecade(sizes(g.Points))
		return lineFigure(fmt.Sprintf("latency-%s%s-np%d", ps.Family, g.partName(), ps.NProcs), "latency", chart.LineSpec{
			Title:   g.partTitle(familyTitle(g.Points, "time vs message size")),
			Caption: caption(g, opts, ax.notes()...),
			X:       chart.AxisSpec{Quantity: chart.Bytes, Label: "message size", Scale: scaleOf(logX)},
			Y:       chart.AxisSpec{Quantity: chart.Seconds, Label: ax.label(g.Points), Scale: scaleOf(logX)},
			Lines:   lines,
			Width:   opts.Width, Height: opts.Height,
		})
	},
}

// rateKind is a rate vs message size for the points that report it, one line per
// (measurement, op, method) of a family in one run, a figure per timing method (every
// RMA mode of every measurement in one figure is more lines than a legend can hold).
func rateKind(name, doc, what, label string, rate func(*record.Point) *float64, notes ...string) Kind {
	return Kind{
		Name: name,
		Doc:  doc,
		Groups: func(res *report.Results) []Group {
			return splitWide(groupBy(res, func(p *record.Point) bool { return rate(p) != nil }, func(p *record.Point) string {
				return familyKey(p) + "/" + p.Method
			}), measurementOp)
		},
		Build: func(g Group, opts Options) (*Figure, error) {
			lines, ps := linesBy(g.Points, measurementOp, func(p *record.Point) (float64, float64, float64, bool) {
				lo, hi, ok := rateEnds(*rate(p), p, opts.errors())
				return *rate(p), lo, hi, ok
			}, opts.errors())
			styleByOp(lines, g.Points, measurementOp)
			logX := chart.SpansDecade(sizes(g.Points))
			var ys []float64
			for i := range g.Points {
				ys = append(ys, *rate(&g.Points[i]))
			}
			// The method is in the legend ("Put, lock_all"), not again in the title.
			fig := fmt.Sprintf("%s-%s%s-np%d", name, ps.Family, g.partName(), ps.NProcs)
			if ps.Method != "" {
				fig = fmt.Sprintf("%s-%s-%s%s-np%d", name, ps.Family, ps.Method, g.partName(), ps.NProcs)
			}
			title := g.partTitle(familyTitle(g.Points, what))
			return lineFigure(fig, name, chart.LineSpec{
				Title:   title,
				Caption: caption(g, opts, notes...),
				X:       chart.AxisSpec{Quantity: chart.Bytes, Label: "message size", Scale: scaleOf(logX)},
				Y:       chart.AxisSpec{Quantity: chart.Rate, Label: label, Scale: scaleOf(logX && chart.SpansDecade(ys))},
				Lines:   lines,
				Width:   opts.Width, Height: opts.Height,
			})
		},
	}
}

// bandwidthKind: bandwidth_Bps vs message size for the operations that report it.
var bandwidthKind = rateKind("bandwidth", "bandwidth vs message size, one line per bandwidth operation of a family in one run",
	"bandwidth vs message size", "bandwidth", func(p *record.Point) *float64 { return p.BandwidthBps })

// throughputKind: throughput_Bps, the data a process moves per second (all-to-all,
// the transposes' communication), vs message size.
var throughputKind = rateKind("throughput",
	"throughput per process vs message size (all-to-all, transposes), one line per operation of a family in one run",
	"throughput per process vs message size", "throughput per process", func(p *record.Point) *float64 { return p.ThroughputBps },
	"throughput = (processes - 1) × msg_bytes / time")

func familyKey(p *record.Point) string {
	return fmt.Sprintf("%s/%s/np%d", p.RunID, p.Family, p.NProcs)
}

// measurementOp names a line: the op, or the measurement and (on a second line of
// the legend entry) its op when they differ; and the timing method, which makes a
// line of its own.
func measurementOp(p *record.Point) string {
	l := p.Op
	if p.Measurement != p.Op {
		l = p.Measurement + "\n" + p.Op
	}
	if p.Method != "" {
		l += ", " + p.Method
	}
	return l
}

// linesBy splits points into lines by label (in order of first appearance), sorted by
// size; value returns y and its error-bar ends. It also returns the first point.
func linesBy(points []record.Point, label func(*record.Point) string,
	value func(*record.Point) (y, lo, hi float64, ok bool), e ErrorBars) ([]chart.Line, record.Point) {
	byLabel := map[string][]record.Point{}
	var order []string
	for _, p := range points {
		l := label(&p)
		if _, ok := byLabel[l]; !ok {
			order = append(order, l)
		}
		byLabel[l] = append(byLabel[l], p)
	}
	var lines []chart.Line
	for _, l := range order {
		ps := byLabel[l]
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].MsgBytes < ps[j].MsgBytes })
		line := chart.Line{Label: l}
		for i := range ps {
			y, lo, hi, ok := value(&ps[i])
			line.X = append(line.X, float64(ps[i].MsgBytes))
			line.Y = append(line.Y, y)
			if e != ErrNone {
				if !ok {
					lo, hi = y, y
				}
				line.Lo, line.Hi = append(line.Lo, lo), append(line.Hi, hi)
			}
		}
		lines = append(lines, line)
	}
	var first record.Point
	if len(points) > 0 {
		first = points[0]
	}
	return lines, first
}

// timeEnds are the error-bar ends of a time.
func timeEnds(p *record.Point, e ErrorBars) (lo, hi float64, ok bool) {
	switch e {
	case ErrNone:
		return 0, 0, false
	case ErrP10P90:
		return p.P10S, p.P90S, true
	}
	return p.TimeS - p.StderrS, p.TimeS + p.StderrS, true
}

// rateEnds are the error-bar ends of a bandwidth, bytes/time: the relative stderr of
// the time, or the bandwidths at the p90 and p10 times.
func rateEnds(bw float64, p *record.Point, e ErrorBars) (lo, hi float64, ok bool) {
	if e == ErrNone || p.TimeS <= 0 {
		return 0, 0, false
	}
	if e == ErrP10P90 {
		if p.P10S <= 0 || p.P90S <= 0 {
			return 0, 0, false
		}
		return bw * p.TimeS / p.P90S, bw * p.TimeS / p.P10S, true
	}
	rel := p.StderrS / p.TimeS
	return bw * (1 - rel), bw * (1 + rel), true
}

func sizes(points []record.Point) []float64 {
	out := make([]float64, len(points))
	for i, p := range points {
		out[i] = float64(p.MsgBytes)
	}
	return out
}

func scaleOf(log bool) chart.Scale {
	if log {
		return chart.Log
	}
	return chart.Linear
}

// familyTitle is the measurement name when the points have one, else the op when
// they share it, else the family and what.
func familyTitle(points []record.Point, what string) string {
	ms, os := map[string]bool{}, map[string]bool{}
	for _, p := range points {
		ms[p.Measurement], os[p.Op] = true, true
	}
	switch {
	case len(ms) == 1:
		return points[0].Measurement
	case len(os) == 1:
		return points[0].Op
	}
	return points[0].Family + " operations: " + what
}

// caption is the group's provenance and what the error bars show.
func caption(g Group, opts Options, extra ...string) string {
	parts := append([]string{g.Caption(opts)}, extra...)
	if d := opts.errors().describe(); d != "" {
		parts = append(parts, d)
	}
	return strings.Join(parts, " · ")
}
