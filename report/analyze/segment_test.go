package analyze

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// curve is a protocol switch at switchAt with ±noise relative error, at n sizes spaced
// step bytes apart from 1 byte.
func curve(n int, step int64, switchAt int64, noise float64, seed uint64) ([]int64, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	sizes := make([]int64, n)
	times := make([]float64, n)
	for i := range sizes {
		s := 1 + int64(i)*step
		tm := 1e-6 + 0.2e-9*float64(s)
		if s >= switchAt {
			tm = 5e-6 + 0.1e-9*float64(s)
		}
		sizes[i], times[i] = s, tm*(1+noise*(2*r.Float64()-1))
	}
	return sizes, times
}

// The sums give what fitting point by point gives, also for times spanning decades.
func TestPrefixCostIsTheFit(t *testing.T) {
	var sizes []int64
	var times []float64
	for s := int64(1); s <= 1<<30; s *= 2 {
		sizes = append(sizes, s)
		times = append(times, (1e-7+1e-10*float64(s))*(1+0.01*math.Sin(float64(s))))
	}
	ps := newPrefix(sizes, times)
	for i := 0; i < len(sizes); i++ {
		for j := i + 1; j <= len(sizes); j++ {
			r := fit(sizes[i:j], times[i:j])
			want := r.RelRMS * r.RelRMS * float64(j-i)
			if got := ps.cost(i, j); math.Abs(got-want) > 1e-9*float64(j-i) {
				t.Fatalf("cost(%d, %d) = %g, fit says %g", i, j, got, want)
			}
		}
	}
}

// A long curve is split where the exhaustive search splits it.
func TestSegmentLongCurve(t *testing.T) {
	sizes, times := curve(5000, 64, 100_000, 0.01, 7)
	regs := Segment(sizes, times)
	if len(regs) != 2 || regs[1].FromBytes < 100_000 || regs[1].FromBytes > 100_000+64 {
		t.Fatalf("%d regimes: %+v", len(regs), regs)
	}
}

// BenchmarkAnalyze: a result file with a curve of 200,000 sizes, analysed in time
// linear in its length.
func BenchmarkAnalyze(b *testing.B) {
	sizes, times := curve(200_000, 16, 1_000_000, 0.01, 1)
	res := &report.Results{}
	for i := range sizes {
		res.Points = append(res.Points, record.Point{Kind: record.KindPoint, RunID: "r", PointIndex: i + 1, Measurement: "pp",
			Op: "Pingpong_Send_Recv", MsgBytes: sizes[i], NProcs: 2, TimeS: times[i], Reps: 1})
	}
	for b.Loop() {
		start := time.Now()
		bds := Analyze(res)
		if len(bds) != 1 {
			b.Fatalf("%d breakdowns", len(bds))
		}
		b.Logf("%d points: %v, %d regimes", len(sizes), time.Since(start), len(bds[0].Regimes))
	}
}
