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

// atomicsKind: one bar per atomic operation and width, the time per operation on each
// PE, a figure per run and process count (2: uncontended; more: contention).
var atomicsKind = Kind{
	Name: "atomics",
	Doc:  "atomics (OpenSHMEM): time per operation of each kind, int beside long, per run and process count",
	Groups: func(res *report.Results) []Group {
		return groupBy(res, atomic, func(p *record.Point) string { return fmt.Sprintf("%s/np%d", p.RunID, p.NProcs) })
	},
	Build: buildAtomics,
}

// atomicName splits "Shmem_Atomic_Fetch_Add_Long" into its kind and width.
func atomicName(op string) (kind, width string) {
	name := strings.TrimPrefix(op, "Shmem_Atomic_")
	i := strings.LastIndex(name, "_")
	if i < 0 {
		return name, ""
	}
	return name[:i], name[i+1:]
}

func buildAtomics(g Group, opts Options) (*Figure, error) {
	// Every atomic of the catalogue, in its order: one that was not measured (denied,
	// crashed, not in the suite) is a gap the notes name.
	var kinds, widths []string
	for _, in := range ops.All() {
		if in.AtomicRate {
			k, w := atomicName(in.Name)
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
			if !slices.Contains(widths, w) {
				widths = append(widths, w)
			}
		}
	}
	at := map[[2]string]float64{}
	maxT := 0.0
	for _, p := range g.Points {
		k, w := atomicName(p.Op)
		at[[2]string{k, w}] = p.TimeS
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
	bars := make([]chart.Part, len(widths))
	for i, w := range widths {
		bars[i] = chart.Part{Label: w, Values: make([]float64, len(kinds))}
		for j, k := range kinds {
			bars[i].Values[j] = at[[2]string{k, w}] // 0 where not measured (denied)
		}
	}
	var notes, missing []string
	for _, k := range kinds {
		for _, w := range widths {
			if _, ok := at[[2]string{k, w}]; !ok {
				missing = append(missing, k+" "+w)
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
