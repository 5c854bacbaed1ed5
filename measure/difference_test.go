package measure

import (
	"math"
	"testing"
	"time"
)

// alternating returns v-d and v+d in turn, on both ranks, and logs its name.
func alternating(c *fakeComm, log *[]string, name string, v, d float64) *fakeOp {
	return &fakeOp{c: c, times: func(rep, _ int) []float64 {
		*log = append(*log, name)
		x := v - d
		if rep%2 == 1 {
			x = v + d
		}
		return []float64{x, x}
	}}
}

func diffTask(min int, rel float64) Task {
	return Task{Participants: []int{0, 1}, Reduce: ReduceMax, Iterations: 1, Warmup: 1,
		Stop: StopRule{Min: min, Max: 100_000, MaxRelStderr: rel, MaxTime: time.Minute, MaxDiscarded: 10}}
}

// The stop rule judges the difference: 10±1 minus 9±1 is 1 with a standard error of
// sqrt(2)*2/sqrt(n) (a little more: h(h-1) < n²/4), 5 % of it just past n = 3200, so
// at the next checkpoint, 3264; the whole alone was within 5 % of its 10 at n = 16.
func TestMeasureDifference(t *testing.T) {
	c := &fakeComm{size: 2}
	var log []string
	whole, part := alternating(c, &log, "whole", 10, 1), alternating(c, &log, "part", 9, 1)
	res, err := MeasureDifference(c, whole, part, diffTask(4, 0.05))
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Converged || res.N != 3264 || !near(res.Time, 1) || !near(res.Mean, 1) {
		t.Fatalf("verdict %v, n %d, time %v, mean %v", res.Verdict, res.N, res.Time, res.Mean)
	}
	se := math.Sqrt(3264.0 / (1632 * 1631)) // sqrt(sum of squares / (h(h-1))): n squares of 1, h = n/2
	if !near(res.SubtractedStderr, se) || !near(res.Stderr, math.Sqrt2*se) || !near(*res.Subtracted, 9) {
		t.Errorf("stderr %v (part %v), want %v (%v); subtracted %v", res.Stderr, res.SubtractedStderr, math.Sqrt2*se, se, *res.Subtracted)
	}
	if res.Stderr > 0.05*res.Time {
		t.Errorf("stopped with stderr %v of %v", res.Stderr, res.Time)
	}
	if res.Samples[0] != 2 || res.Samples[1] != 0 || res.Min != 0 || res.Max != 2 {
		t.Errorf("samples are the whole's less the part's time: %v..., min %v max %v", res.Samples[:2], res.Min, res.Max)
	}
	// Warm-up of each, then whole, part, whole, part, ...
	if len(log) != 2+2*3264 || log[0] != "whole" || log[1] != "part" {
		t.Fatalf("runs %v...", log[:4])
	}
	for i := 2; i < len(log); i++ {
		if want := []string{"whole", "part"}[i%2]; log[i] != want {
			t.Fatalf("run %d is the %s, want the %s", i, log[i], want)
		}
	}
}

// A part longer than the whole gives a negative difference, kept as measured.
func TestMeasureDifferenceNegative(t *testing.T) {
	c := &fakeComm{size: 2}
	var log []string
	res, err := MeasureDifference(c, alternating(c, &log, "whole", 1, 0), alternating(c, &log, "part", 3, 0), diffTask(4, 0.05))
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Converged || res.N != 4 || res.Time != -2 || res.Stderr != 0 || *res.Subtracted != 3 {
		t.Errorf("%+v", res)
	}
}

// Without a valid repetition of the part there is no difference: no valid result.
func TestMeasureDifferenceNoPart(t *testing.T) {
	c := &fakeComm{size: 2}
	var log []string
	part := &fakeOp{c: c, times: func(int, int) []float64 { return []float64{math.NaN(), 1} }}
	res, err := MeasureDifference(c, alternating(c, &log, "whole", 1, 0), part, diffTask(4, 0.05))
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != DiscardCap || res.N != 0 || res.Samples != nil || res.Discarded != 11 {
		t.Errorf("%+v", res)
	}
}

// With a StopScale the difference converges once its error is small against the scale:
// 10±1 minus 9±1 against 10 needs about 2.83/sqrt(n) <= 0.5, n = 33, not the 3264 of
// the relative rule.
func TestMeasureDifferenceStopScale(t *testing.T) {
	c := &fakeComm{size: 2}
	var log []string
	task := diffTask(4, 0.05)
	task.StopScale = 10
	res, err := MeasureDifference(c, alternating(c, &log, "whole", 10, 1), alternating(c, &log, "part", 9, 1), task)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Converged || res.N < 30 || res.N > 40 || !near(res.Mean, 1) {
		t.Fatalf("verdict %v, n %d, mean %v", res.Verdict, res.N, res.Mean)
	}
	if res.Stderr > 0.05*10 || res.Stderr < 0.05*10*0.8 {
		t.Errorf("stderr %v: want just under 5%% of the whole's 10", res.Stderr)
	}
}
