package compare

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/skampi/skampi/report"
)

// scaleOp multiplies the times of one operation's points, every point's when op is ""
// (and divides the bandwidths).
func scaleOp(res *report.Results, op string, f float64) *report.Results {
	out := &report.Results{Runs: res.Runs}
	for _, p := range res.Points {
		if op == "" || p.Op == op {
			p.TimeS *= f
			if p.BandwidthBps != nil {
				bw := *p.BandwidthBps / f
				p.BandwidthBps = &bw
			}
		}
		out.Points = append(out.Points, p)
	}
	return out
}

// gateRate is the share of random splits of the recorded A/A runs, per runs a side,
// in which a 5 % gate fails, the other side changed by change.
func gateRate(t *testing.T, per, trials int, change func(*report.Results) *report.Results) float64 {
	t.Helper()
	return gateRateOn(t, loadAA(t), per, trials, change)
}

// gateRateOn is gateRate on the recorded runs given.
func gateRateOn(t *testing.T, aa *report.Results, per, trials int, change func(*report.Results) *report.Results) float64 {
	t.Helper()
	ids := runIDs(aa)
	rng := rand.New(rand.NewPCG(uint64(per), 7))
	failed := 0
	for trial := 0; trial < trials; trial++ {
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		c, err := Compare([]Labelled{{"a", runs(aa, ids[:per], 1)}, {"b", change(runs(aa, ids[per:2*per], 1))}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if g := (Gate{FailAbove: 0.05}).Check(c); len(g.Failed)+len(g.FailedShifts) > 0 {
			failed++
		}
	}
	return float64(failed) / float64(trials)
}

// The recorded runs (a loaded machine: a run's level moves by 30 % from run to run) at
// the run counts users have. Nothing changed: the gate stays silent in 95 % of splits.
// One measurement doubled: the gate fails in most splits at 4+4 runs (the row tests
// alone never could: their smallest p is 0.029 before correcting over 20 rows) and in
// every one at 8+8. The others halved and one unchanged: that one is not called a
// regression, although it differs from the rest of its runs as a doubled one would.
func TestGatePowerAtFourRuns(t *testing.T) {
	const trials = 100
	same := func(r *report.Results) *report.Results { return r }
	for _, per := range []int{4, 8} {
		if r := gateRate(t, per, trials, same); r > 0.05 {
			t.Errorf("A/A %d+%d: the gate failed in %.0f%% of splits", per, per, 100*r)
		}
	}
	for _, op := range []string{"Pingpong_Send_Recv", "Put", "Allreduce", "Bcast"} {
		doubled := func(r *report.Results) *report.Results { return scaleOp(r, op, 2) }
		if r := gateRate(t, 4, trials, doubled); r < 0.7 {
			t.Errorf("%s doubled, 4+4: the gate failed in only %.0f%% of splits", op, 100*r)
		}
		if r := gateRate(t, 8, trials, doubled); r < 0.95 {
			t.Errorf("%s doubled, 8+8: the gate failed in only %.0f%% of splits", op, 100*r)
		}
		othersHalved := func(r *report.Results) *report.Results { return scaleOp(scaleOp(r, "", 0.5), op, 2) }
		for _, per := range []int{4, 8} {
			if r := gateRate(t, per, trials, othersHalved); r > 0.1 {
				t.Errorf("all but %s halved, %d+%d: the gate called a regression in %.0f%% of splits", op, per, per, 100*r)
			}
		}
	}
}

// Welch's test on made-up samples: its ratio, a p that falls with the shift, a
// detectable change that the same spread at a shift that size reaches, and no spread.
func TestWelch(t *testing.T) {
	base := []float64{0, 0.1, -0.1, 0.05}
	shift := func(d float64) []float64 {
		out := make([]float64, len(base))
		for i, v := range base {
			out[i] = v + d
		}
		return out
	}
	ratio, p0, det := Welch(base, shift(0), 0.05)
	if ratio != 1 || p0 < 0.99 || !(det > 0 && det < 1) {
		t.Errorf("no shift: ratio %g p %g detectable %g", ratio, p0, det)
	}
	ratio, p1, _ := Welch(base, shift(math.Log(1.1)), 0.05)
	_, p2, _ := Welch(base, shift(math.Log(1.5)), 0.05)
	if math.Abs(ratio-1.1) > 1e-9 || !(p2 < p1 && p1 < p0) || p2 > 0.01 {
		t.Errorf("shifts: ratio %g, p %g then %g", ratio, p1, p2)
	}
	// At the detectable change the test is past alpha (its power is 80 %: the observed
	// shift equal to it is well beyond the critical value).
	if _, p, _ := Welch(base, shift(math.Log(1+det)), 0.05); p > 0.05 {
		t.Errorf("a shift of the detectable change %g: p %g", det, p)
	}
	if _, p, d := Welch([]float64{1, 1}, []float64{1, 1}, 0.05); p != 1 || d != 0 {
		t.Errorf("identical, no spread: p %g detectable %g", p, d)
	}
	if r, p, _ := Welch([]float64{1, 1}, []float64{2, 2}, 0.05); p != 0 || math.Abs(r-math.E) > 1e-12 {
		t.Errorf("different, no spread: ratio %g p %g", r, p)
	}
}
