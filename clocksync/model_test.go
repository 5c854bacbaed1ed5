package clocksync_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/skampi/skampi/clocksync"
)

func randModel(rng *rand.Rand) clocksync.Model {
	return clocksync.Model{Offset: rng.NormFloat64(), Slope: 1e-4 * rng.NormFloat64(),
		Ref: 100 * rng.Float64(), Err: 1e-6 * rng.Float64(), SlopeErr: 1e-7 * rng.Float64()}
}

func TestModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	if g := (clocksync.Model{}).Global(12.5); g != 12.5 {
		t.Errorf("zero model is not the identity: %g", g)
	}
	for range 1000 {
		m1, m2 := randModel(rng), randModel(rng)
		c := m1.Compose(m2)
		for _, x := range []float64{0, m1.Ref, 50 + 100*rng.Float64()} {
			if got, want := c.Global(x), m2.Global(m1.Global(x)); math.Abs(got-want) > 1e-12 {
				t.Fatalf("Compose: %g, want %g", got, want)
			}
			if got, want := c.Uncertainty(x), m1.Uncertainty(x)+m2.Uncertainty(m1.Global(x)); got < want*(1-1e-9) {
				t.Fatalf("Compose: uncertainty %g below the sum of the parts %g", got, want)
			}
			if got := m1.Local(m1.Global(x)); math.Abs(got-x) > 1e-12 {
				t.Fatalf("Local(Global(%g)) = %g", x, got)
			}
		}
		if clocksync.ModelFromWords(m1.Words()) != m1 {
			t.Fatal("Words round trip")
		}
		if c := m1.Compose(clocksync.Model{}); math.Abs(c.Offset-m1.Offset) > 1e-12 || c.Slope != m1.Slope ||
			c.Ref != m1.Ref || c.Err != m1.Err || c.SlopeErr != m1.SlopeErr {
			t.Fatalf("Compose with the identity: %+v, want %+v", c, m1)
		}
	}
}

func TestFitLine(t *testing.T) {
	// Exact points on offset(t) = 0.3 + 2e-5·(t - 7); one slow outlier must be dropped.
	var pts []clocksync.Point
	for i := range 10 {
		tt := 5 + 0.5*float64(i)
		pts = append(pts, clocksync.Point{Time: tt, Offset: 0.3 + 2e-5*(tt-7), RTT: 2e-6 + 1e-8*float64(i%3)})
	}
	pts = append(pts, clocksync.Point{Time: 6, Offset: 0.4, RTT: 50e-6})
	m := clocksync.FitLine(pts)
	for _, tt := range []float64{5, 7, 100} {
		if got, want := m.Global(tt)-tt, 0.3+2e-5*(tt-7); math.Abs(got-want) > 1e-12 {
			t.Errorf("offset at %g: %g, want %g (model %+v)", tt, got, want, m)
		}
	}
	if m.Err > 1e-12 || m.SlopeErr > 1e-12 {
		t.Errorf("exact points, error estimates %g %g", m.Err, m.SlopeErr)
	}
	two := clocksync.FitLine(pts[:2])
	if math.Abs(two.Slope-2e-5) > 1e-9 || two.Err != 1e-6 {
		t.Errorf("two points: %+v", two)
	}
	if one := clocksync.FitLine(pts[:1]); one.Slope != 0 || one.Offset != pts[0].Offset {
		t.Errorf("one point: %+v", one)
	}
}

func TestFitBounds(t *testing.T) {
	// Server clock = client clock + 2; latencies (out, back) in µs.
	lat := [][2]float64{{3, 1}, {1, 4}, {2, 2}}
	var s []clocksync.Sample
	t0 := 10.0
	for _, l := range lat {
		send := t0
		remote := send + l[0]*1e-6 + 2
		recv := send + (l[0]+l[1])*1e-6
		s = append(s, clocksync.Sample{Send: send, Remote: remote, Recv: recv})
		t0 = recv + 1e-3
	}
	m := clocksync.FitBounds(s)
	// lo = 2 - min back = 2 - 1 µs, hi = 2 + min out = 2 + 1 µs.
	if math.Abs(m.Offset-2) > 1e-12 || math.Abs(m.Err-1e-6) > 1e-12 || m.Slope != 0 {
		t.Errorf("FitBounds: %+v", m)
	}
}

func TestNew(t *testing.T) {
	for _, name := range []string{"skampi", "hca"} {
		a, err := clocksync.New(name)
		if err != nil || a.Name() != name {
			t.Errorf("New(%q) = %v, %v", name, a, err)
		}
	}
	if _, err := clocksync.New("ntp"); err == nil {
		t.Error("New(ntp): no error")
	}
}
