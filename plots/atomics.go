package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/skampi/skampi/ops"
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
	f := &Figure{
		Name:    fmt.Sprintf("atomics-np%d", p0.NProcs),
		Kind:    "atomics",
		Title:   "atomics: time per operation",
		Caption: caption(g, Options{Labels: opts.Labels, Errors: ErrNone}, extra),
		Width:   opts.Width, Height: opts.Height,
		Legend: newLegend(),
		X:      Axis{Quantity: Count, Label: "operation", Div: 1, Min: -0.5, Max: float64(len(kinds)) - 0.5},
	}
	f.Y = makeAxis(AxisSpec{Quantity: Seconds, Label: "time per operation"}, false, []float64{maxT})
	f.Y.Min, f.Y.Max = 0, maxT/f.Y.Div*1.1
	p := newPlot(f)
	p.NominalX(kinds...)
	p.X.Tick.Label.Font = font9
	p.X.Tick.Label.Rotation = math.Pi / 4
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	p.X.Min, p.X.Max = f.X.Min, f.X.Max
	width := vg.Points(math.Max(4, math.Min(14, 300/float64(len(kinds)*len(widths)))))
	colors := []color.Color{palette[0], palette[1], palette[2], palette[3]}
	for i, w := range widths {
		vals := make(plotter.Values, len(kinds))
		for j, k := range kinds {
			vals[j] = at[[2]string{k, w}] / f.Y.Div // 0 where not measured (denied)
		}
		bc, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		bc.Color, bc.LineStyle.Width = colors[i%len(colors)], 0
		bc.Offset = vg.Length(float64(i)-float64(len(widths)-1)/2) * width
		p.Add(bc)
		f.Legend.Add(w, bc)
	}
	var missing []string
	for _, k := range kinds {
		for _, w := range widths {
			if _, ok := at[[2]string{k, w}]; !ok {
				missing = append(missing, k+" "+w)
			}
		}
	}
	if len(missing) > 0 {
		f.Notes = append(f.Notes, "not measured (no bar): "+strings.Join(missing, ", "))
	}
	f.Plot = p
	return f, nil
}
