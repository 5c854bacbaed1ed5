package plots

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// Overlap is the breakdown of one point of an overlap measurement: a nonblocking
// operation is posted, computation runs, then the operation is waited for. No record
// carries it yet. The expected schema, as optional fields of a "point" record
// (record.Point has none of them today):
//
//	post_s             float  time in the posting call(s) (MPI_Isend/MPI_Irecv/MPI_Ibcast ...)
//	overlap_compute_s  float  computation run between the post and the wait
//	wait_s             float  time in the wait (MPI_Wait/MPI_Waitall) after the computation
//	overlap_ratio      float  fraction of the communication time hidden by the
//	                          computation, 0 (none) to 1 (all)
//
// When record.Point gains them (as *float64, absent in other records), overlapOf
// reads them, and the overlap figure appears for those records.
type Overlap struct {
	PostS, ComputeS, WaitS, Ratio float64
}

// overlapOf extracts a point's overlap breakdown. Today's records have none.
var overlapOf = func(p *record.Point) (Overlap, bool) { return Overlap{}, false }

// overlapKind: stacked bars of post / overlapped computation / wait per message size,
// the overlap ratio above each bar. One figure per measurement of a run.
var overlapKind = Kind{
	Name: "overlap",
	Doc:  "stacked bars of post, overlapped computation and wait per size, with the overlap ratio (records with post_s, wait_s: none yet)",
	Groups: func(res *report.Results) []Group {
		return groupBy(res, func(p *record.Point) bool { _, ok := overlapOf(p); return ok },
			func(p *record.Point) string { return fmt.Sprintf("%s/%s/np%d", p.RunID, p.Measurement, p.NProcs) })
	},
	Build: buildOverlap,
}

func buildOverlap(g Group, opts Options) (*Figure, error) {
	ps := append([]record.Point(nil), g.Points...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].MsgBytes < ps[j].MsgBytes })
	var bd []Overlap
	var cats []string
	maxTotal := 0.0
	for i := range ps {
		o, ok := overlapOf(&ps[i])
		if !ok {
			continue
		}
		for _, v := range []float64{o.PostS, o.ComputeS, o.WaitS, o.Ratio} {
			if !finite(v) {
				return nil, fmt.Errorf("%s at %s: overlap breakdown is not finite", ps[i].Op, fmtBytes(float64(ps[i].MsgBytes)))
			}
		}
		bd = append(bd, o)
		cats = append(cats, fmtBytes(float64(ps[i].MsgBytes)))
		maxTotal = math.Max(maxTotal, o.PostS+o.ComputeS+o.WaitS)
	}
	if len(bd) == 0 {
		return nil, fmt.Errorf("no overlap breakdown to draw")
	}
	p0 := ps[0]
	f := &Figure{
		Name:    SafeName(fmt.Sprintf("overlap-%s-np%d", p0.Measurement, p0.NProcs)),
		Kind:    "overlap",
		Title:   p0.Measurement,
		Caption: caption(g, Options{Labels: opts.Labels, Errors: ErrNone}, "above each bar: overlap ratio"),
		Width:   opts.Width, Height: opts.Height,
		Legend: newLegend(),
		X:      Axis{Quantity: Bytes, Label: "message size", Div: 1, Min: -0.5, Max: float64(len(bd)) - 0.5},
	}
	f.Y = makeAxis(AxisSpec{Quantity: Seconds, Label: "time"}, false, []float64{maxTotal})
	f.Y.Min, f.Y.Max = 0, maxTotal/f.Y.Div*1.18
	if maxTotal == 0 {
		f.Y.Max = 1
	}
	st := &Stack{Categories: cats}
	for _, part := range []struct {
		label string
		of    func(Overlap) float64
	}{
		{"post", func(o Overlap) float64 { return o.PostS }},
		{"overlapped computation", func(o Overlap) float64 { return o.ComputeS }},
		{"wait", func(o Overlap) float64 { return o.WaitS }},
	} {
		pt := Part{Label: part.label}
		for _, o := range bd {
			pt.Values = append(pt.Values, part.of(o)/f.Y.Div)
		}
		st.Parts = append(st.Parts, pt)
	}
	for _, o := range bd {
		st.Annotations = append(st.Annotations, fmt.Sprintf("%.0f%%", 100*o.Ratio))
	}
	f.Stack = st

	p := newPlot(f)
	// Name every k-th bar so the names do not run into each other.
	every := (len(cats) + 9) / 10
	names := make([]string, len(cats))
	for i := range cats {
		if i%every == 0 {
			names[i] = cats[i]
		}
	}
	p.NominalX(names...)
	p.X.Tick.Label.Font = font9
	p.X.Min, p.X.Max = f.X.Min, f.X.Max
	width := vg.Points(math.Max(6, math.Min(30, 380/float64(len(bd))*0.6)))
	colors := []color.Color{palette[0], palette[4], palette[1]}
	var below *plotter.BarChart
	for i, part := range st.Parts {
		bc, err := plotter.NewBarChart(plotter.Values(part.Values), width)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", part.Label, err)
		}
		bc.Color = colors[i]
		bc.LineStyle.Width = vg.Points(0.4)
		bc.LineStyle.Color = color.White
		if below != nil {
			bc.StackOn(below)
		}
		below = bc
		p.Add(bc)
	}
	// The legend lists the top layer first, as the bars stack.
	for i := len(st.Parts) - 1; i >= 0; i-- {
		bc, _ := plotter.NewBarChart(plotter.Values{1}, width)
		bc.Color, bc.LineStyle.Width = colors[i], 0
		f.Legend.Add(st.Parts[i].Label, bc)
	}
	xyl := plotter.XYLabels{Labels: st.Annotations}
	for i, o := range bd {
		xyl.XYs = append(xyl.XYs, plotter.XY{X: float64(i), Y: (o.PostS + o.ComputeS + o.WaitS) / f.Y.Div})
	}
	labels, err := plotter.NewLabels(xyl)
	if err != nil {
		return nil, err
	}
	// Upright above a bar when there is room for it, else turned to read upwards.
	upright := 380/float64(len(bd)) > 30
	for i := range labels.TextStyle {
		sty := text.Style{Color: color.Black, Font: font9, XAlign: draw.XCenter, YAlign: draw.YBottom,
			Handler: labels.TextStyle[i].Handler}
		if !upright {
			sty.Rotation, sty.XAlign, sty.YAlign = math.Pi/2, draw.XLeft, draw.YCenter
		}
		labels.TextStyle[i] = sty
	}
	labels.Offset = vg.Point{Y: vg.Points(2)}
	p.Add(labels)
	f.Plot = p
	return f, nil
}
