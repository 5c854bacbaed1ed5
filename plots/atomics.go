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
// PE, a figure per run and process count (2: uncontended; more: contention).
var atomicsKind = Kind{
	Name: "atomics",
	Doc:  "atomics (OpenSHMEM): time per operation of each kind, int beside long, per run and process count",
	Groups: func(res *report.Results) []Group {
		return groupBy(res, atomic, func(p *record.Point) string { return fmt.Sprintf("%s/np%d", p.RunID, p.NProcs) })
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
	// Every atomic of the catalogue, in its order: one that was not measured (denied,
	// crashed, not in the suite) is a gap the notes name.
	var kinds, types []string
	for _, in := range ops.All() {
		if in.AtomicRate {
			if !slices.Contains(kinds, in.AtomicKind) {
				kinds = append(kinds, in.AtomicKind)
			}
			if !slices.Contains(types, in.AtomicType) {
				types = append(types, in.AtomicType)
			}
		}
	}
	at := map[[2]string]float64{}
	maxT := 0.0
	for _, p := range g.Points {
		at[atomicBar(p.Op)] = p.TimeS
		maxT = math.Max(maxT, p.TimeS)
	}
	if len(kinds) == 0 || !(maxT > 0) || math.IsInf(maxT, 0) {
		return nil, fmt.Errorf("no bar to draw: every atomic's time is 0, negative or not finite")
	}
	p0 := g.Points[0]
	extra := "uncontended: one PE issues, one is the target"
	if p0.NProcs > 2 {
		extra = fmt.Sprintf("%d PEs at once on one target", p0.NProcs-1)
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
	return &Figure{Name: fmt.Sprintf("atomics-np%d", p0.NProcs), Kind: "atomics", Figure: c}, nil
}
