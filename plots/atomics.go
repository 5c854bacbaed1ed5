package plots

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/plots/chart"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// atomic reports whether a point is an atomic every PE but one issues at once (a
// time against message size says nothing of those: their size is their type's).
func atomic(p *record.Point) bool {
	in, ok := ops.Lookup(p.Op)
	return ok && in.AtomicRate
}

// atomicsKind: one bar per atomic kind and type, the time per operation on each
// PE, a figure per run, process count (2: uncontended; more: contention) and method
// (the atomic alone, or less an empty quiet: never one bar of each mixed).
var atomicsKind = Kind{
	Name: "atomics",
	Doc:  "atomics (OpenSHMEM): time per operation of each kind, int beside long (and on a context), per run, process count and method",
	Groups: func(res *report.Results) []Group {
		return groupBy(res, atomic, func(p *record.Point) string { return fmt.Sprintf("%s/np%d/%s", p.RunID, p.NProcs, p.Method) })
	},
	Build: buildAtomics,
}

// atomicBar is the bar an atomic point is drawn as: its operation's kind and type,
// as the catalogue gives them (ops.Info.AtomicKind, AtomicType).
func atomicBar(op string) [2]string {
	in, _ := ops.Lookup(op)
	return [2]string{in.AtomicKind, in.AtomicType}
}

func buildAtomics(g Group, opts Options) (*Figure, error) {
	at := map[[2]string]float64{}
	measuredType := map[string]bool{}
	maxT := 0.0
	for _, p := range g.Points {
		b := atomicBar(p.Op)
		at[b] = p.TimeS
		measuredType[b[1]] = true
		maxT = math.Max(maxT, p.TimeS)
	}
	// Every atomic of the catalogue with the group's method, in its order, of the types
	// the group measured: one that was not measured (denied, crashed, not in the
	// suite) is a gap the notes name.
	method := g.Points[0].Method
	var kinds, types []string
	for _, in := range ops.All() {
		if _, ok := in.Method(method); !in.AtomicRate || !measuredType[in.AtomicType] || (method != "" && !ok) {
			continue
		}
		if !slices.Contains(kinds, in.AtomicKind) {
			kinds = append(kinds, in.AtomicKind)
		}
		if !slices.Contains(types, in.AtomicType) {
			types = append(types, in.AtomicType)
		}
	}
	if len(kinds) == 0 || !(maxT > 0) || math.IsInf(maxT, 0) {
		return nil, fmt.Errorf("no bar to draw: every atomic's time is 0, negative or not finite")
	}
	p0 := g.Points[0]
	extra := "uncontended: one PE issues, one is the target"
	if p0.NProcs > 2 {
		extra = fmt.Sprintf("%d PEs at once on one target", p0.NProcs-1)
	}
	name := fmt.Sprintf("atomics-np%d", p0.NProcs)
	if method != "" {
		extra += "; method " + method
		name = fmt.Sprintf("atomics-%s-np%d", method, p0.NProcs)
	}
	bars := make([]chart.Part, len(types))
	for i, ty := range types {
		bars[i] = chart.Part{Label: ty, Values: make([]float64, len(kinds))}
		for j, k := range kinds {
			bars[i].Values[j] = at[[2]string{k, ty}] // 0 where not measured (denied)
		}
	}
	var notes, missing []string
	for _, k := range kinds {
		for _, ty := range types {
			if _, ok := at[[2]string{k, ty}]; !ok {
				missing = append(missing, k+" "+ty)
			}
		}
	}
	if len(missing) > 0 {
		notes = append(notes, "not measured (no bar): "+strings.Join(missing, ", "))
	}
	c, err := chart.NewBarFigure(chart.BarSpec{
		Title:      "atomics: time per operation",
		Caption:    caption(g, Options{Labels: opts.Labels, Errors: ErrNone}, extra),
		Notes:      notes,
		X:          chart.AxisSpec{Quantity: chart.Count, Label: "operation"},
		Y:          chart.AxisSpec{Quantity: chart.Seconds, Label: "time per operation"},
		Categories: kinds,
		Groups:     bars,
		Width:      opts.Width, Height: opts.Height,
	})
	if err != nil {
		return nil, err
	}
	return &Figure{Name: name, Kind: "atomics", Figure: c}, nil
}
