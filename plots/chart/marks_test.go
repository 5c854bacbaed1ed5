package chart

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// A line with breaks is drawn in pieces (a value left out breaks it too); context lines
// share one legend entry; named ticks are thinned to fit, the last always named; the
// value axis leaves room above the data for the marks' labels and below for the gaps'.
func TestMarksBreaksAndTicks(t *testing.T) {
	x := []float64{1, 2, 3, 5, 6, 7}
	y := []float64{1, 1.1, math.NaN(), 1.3, 1.2, 1.25}
	var ticks []Tick
	for i := 1; i <= 40; i++ {
		ticks = append(ticks, Tick{X: float64(i), Label: "run\n11-25"})
	}
	spec := LineSpec{
		Title: "t", X: AxisSpec{Quantity: Count, Label: "run", Scale: Linear}, Y: AxisSpec{Quantity: Ratio, Label: "r", Scale: Linear},
		Lines: []Line{
			{Label: "part", X: x, Y: []float64{1, 1, 1, 1, 1, 1}, Role: RoleContext},
			{Label: "other part", X: x, Y: []float64{1.2, 1, 1, 1, 1, 1}, Role: RoleContext},
			{Label: "whole", X: x, Y: y, Break: []bool{false, false, false, true, false, false}},
		},
		Marks:  []Mark{{X: 4.5, Label: "run 5: +30.0%"}, {X: 5.5, Label: "run 6: -5.0%", Minor: true}},
		Gaps:   []Gap{{X: 4, Label: "timeout"}},
		Spans:  []Span{{From: 39.5, To: 40.5, Label: "latest"}},
		XTicks: ticks,
	}
	f, err := NewLineFigure(spec)
	if err != nil {
		t.Fatal(err)
	}
	whole := f.Series[2]
	if !slices.Equal(whole.X, []float64{1, 2, 5, 6, 7}) || !slices.Equal(whole.Break, []bool{false, false, true, false, false}) {
		t.Errorf("whole: x %v breaks %v", whole.X, whole.Break)
	}
	if segs := segments(whole); len(segs) != 2 || len(segs[0]) != 2 || len(segs[1]) != 3 {
		t.Errorf("segments %v", segs)
	}
	if f.X.Max < 40.5 || len(f.Marks) != 2 || len(f.Gaps) != 1 {
		t.Errorf("x range %g..%g, marks %v gaps %v", f.X.Min, f.X.Max, f.Marks, f.Gaps)
	}
	// Room above 1.3 and below 1 beyond the plain 6 % padding.
	if f.Y.Max < 1.3+0.1*0.3 || f.Y.Min > 1-0.1*0.3 {
		t.Errorf("y range %g..%g", f.Y.Min, f.Y.Max)
	}
	nt, ok := f.Plot.X.Tick.Marker.(namedTicks)
	if !ok {
		t.Fatalf("x ticks %T", f.Plot.X.Tick.Marker)
	}
	got := nt.Ticks(f.X.Min, f.X.Max)
	named := 0
	for _, tk := range got {
		if tk.Label != "" {
			named++
		}
	}
	if len(got) != 40 || got[39].Label == "" || named == 40 || named < 5 {
		t.Errorf("%d ticks, %d named, the last %q", len(got), named, got[39].Label)
	}
	svg := string(render(t, f, "svg"))
	for _, want := range []string{"run 5: +30.0%", "timeout", "latest", "whole", "part"} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %q", want)
		}
	}
	if strings.Contains(svg, "other part") {
		t.Error("every context line in the legend")
	}
	render(t, f, "png")
	render(t, f, "pdf")
}
