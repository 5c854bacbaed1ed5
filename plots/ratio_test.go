package plots

import (
	"math"
	"testing"

	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
)

func TestRatioFigures(t *testing.T) {
	var ls []compare.Labelled
	for _, name := range []string{"a", "b"} {
		res, err := report.LoadAll(report.ParseSources([]string{"../report/testdata/pt2pt-" + name + ".jsonl"}), nil)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, compare.Labelled{Label: name, Results: res})
	}
	c, err := compare.Compare(ls, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	figs, skipped := RatioFigures(c)
	if len(skipped) > 0 {
		t.Fatal(skipped)
	}
	if len(figs) == 0 || len(figs) > len(c.Tables) {
		t.Fatalf("%d figures for %d tables", len(figs), len(c.Tables))
	}
	f, tab := figs[0], c.Tables[0]
	if f.Kind != "ratio" || f.Y.Log || len(f.Series) != 1 {
		t.Fatalf("figure %+v", f)
	}
	var want []float64
	for _, r := range tab.Rows {
		if r.Compared() {
			want = append(want, r.Ratio)
		}
	}
	got := f.Series[0].Y
	if len(got) != len(want) {
		t.Fatalf("%d plotted ratios, %d compared rows", len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]*f.Y.Div-want[i]) > 1e-12 {
			t.Errorf("ratio %d: plotted %g, compared %g", i, got[i], want[i])
		}
	}
}
