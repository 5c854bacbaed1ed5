package plots

import (
	"fmt"
	"sort"
	"strings"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// Method is a record field that says how a point was measured. Points of the same op
// (and processes, and library) that differ in it are compared in one figure, one line
// per value: the timer, and the timing method (broadcast: barrier, rounds, ack).
type Method struct {
	Name  string                       // in the kind's name: "method-" + Name
	Field string                       // the record field, as in JSON: "timer"
	Of    func(p *record.Point) string // its value; "" when the record has none
}

// TimerMethod compares the global-loop timer with the per-iteration timer.
var TimerMethod = Method{Name: "timer", Field: "timer", Of: func(p *record.Point) string { return p.Timer }}

// TimingMethod compares the broadcast timing methods of the method paper (Alg. 1-5).
var TimingMethod = Method{Name: "timing", Field: "method", Of: func(p *record.Point) string { return p.Method }}

// methodKind compares the values of one Method: one figure per op, one line per value.
func methodKind(m Method) Kind {
	name := "method-" + m.Name
	return Kind{
		Name:   name,
		Doc:    fmt.Sprintf("the same op and sizes measured with different %s values, one line each", m.Field),
		Groups: func(res *report.Results) []Group { return MethodGroups(res, m) },
		Build: func(g Group, opts Options) (*Figure, error) {
			lines := MethodLines(g, m, opts)
			p := g.Points[0]
			logX := chart.SpansDecade(sizes(g.Points))
			ax := timeAxisOf(g.Points)
			return lineFigure(fmt.Sprintf("%s-%s%s-np%d", name, p.Op, g.partName(), p.NProcs), name, chart.LineSpec{
				Title:   g.partTitle(p.Op),
				Caption: caption(g, opts, append([]string{m.Field + ": " + strings.Join(methodValues(g, m), " vs ")}, ax.notes()...)...),
				X:       chart.AxisSpec{Quantity: chart.Bytes, Label: "message size", Scale: scaleOf(logX)},
				Y:       chart.AxisSpec{Quantity: chart.Seconds, Label: ax.label(g.Points), Scale: scaleOf(logX)},
				Lines:   lines,
				Width:   opts.Width, Height: opts.Height,
			})
		},
	}
}

// MethodGroups groups points by op, processes and MPI library, across runs, and keeps
// the groups measured with at least two values of m.
func MethodGroups(res *report.Results, m Method) []Group {
	lib := libraries(res)
	all := groupBy(res, func(p *record.Point) bool { return m.Of(p) != "" }, func(p *record.Point) string {
		return fmt.Sprintf("%s/np%d/%s", p.Op, p.NProcs, lib[p.RunID])
	})
	var out []Group
	for _, g := range all {
		if len(methodValues(g, m)) >= 2 {
			out = append(out, g)
		}
	}
	// At most maxSeries lines a figure: a line is a value in a measurement of a run.
	return splitBy(out, func(p *record.Point) string { return m.Of(p) + "/" + p.Measurement + "/" + p.RunID }, maxSeries)
}

// MethodLines is one line of time vs size per value of m, values in order of
// appearance; a value measured in several runs or measurements gets a line for each,
// labelled with the run (or the measurement) too. A comparison figure of ratios
// between methods starts from these lines.
func MethodLines(g Group, m Method, opts Options) []chart.Line {
	type key struct{ value, run, measurement string }
	series := map[string]map[key]bool{} // value -> its series
	runs := map[string]bool{}
	for _, p := range g.Points {
		v := m.Of(&p)
		if series[v] == nil {
			series[v] = map[key]bool{}
		}
		series[v][key{v, p.RunID, p.Measurement}] = true
		runs[p.RunID] = true
	}
	label := func(p *record.Point) string {
		v := m.Of(p)
		switch {
		case len(series[v]) == 1:
			return v
		case len(runs) > 1:
			return v + " (run " + runName(p.RunID, opts) + ")"
		}
		return v + " (" + p.Measurement + ")"
	}
	rank := map[string]int{}
	for i, v := range methodValues(g, m) {
		rank[v] = i
	}
	ps := append([]record.Point(nil), g.Points...)
	sort.SliceStable(ps, func(i, j int) bool { return rank[m.Of(&ps[i])] < rank[m.Of(&ps[j])] })
	e := opts.errors()
	ax := timeAxisOf(ps)
	lines, _ := linesBy(ps, label, func(p *record.Point) (float64, float64, float64, bool) {
		return ax.value(p, e)
	}, e)
	return lines
}

func methodValues(g Group, m Method) []string {
	var out []string
	for _, p := range g.Points {
		out = addOnce(out, m.Of(&p))
	}
	return out
}

func libraries(res *report.Results) map[string]string {
	lib := map[string]string{}
	for _, r := range res.Runs {
		lib[r.RunID] = r.MPILibrary
	}
	return lib
}

// timeLabel says what time_s is: a round trip for ping-pongs, a window of messages
// for windowed operations, one call for those that time one call of their step
// (even after a window of puts), else one operation.
func timeLabel(points []record.Point) string {
	rt, win, call := true, true, true
	for _, p := range points {
		in, ok := ops.Lookup(p.Op)
		rt = rt && ok && in.RoundTrip
		win = win && ok && in.Windowed && !in.CallTimed
		call = call && ok && in.CallTimed
	}
	switch {
	case len(points) > 0 && rt:
		return "round-trip time"
	case len(points) > 0 && win:
		return "time per window of messages"
	case len(points) > 0 && call:
		return "time per call"
	}
	return "time per operation"
}

// sortedSizes are the distinct sizes of the points, ascending.
func sortedSizes(points []record.Point) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, p := range points {
		if !seen[p.MsgBytes] {
			seen[p.MsgBytes] = true
			out = append(out, p.MsgBytes)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
