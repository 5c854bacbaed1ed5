package measure

import (
	"math"
	"testing"
	"time"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

func TestSummarize(t *testing.T) {
	xs := []float64{9, 1, 8, 2, 7, 3, 6, 4, 5, 100} // one outlier
	s := Summarize(xs)
	if s.N != 10 || s.Min != 1 || s.Max != 100 || !near(s.Mean, 14.5) || !near(s.Median, 5.5) {
		t.Fatalf("summary = %+v", s)
	}
	// Middle half of 10 sorted samples: indices 2..7 = 3,4,5,6,7,8.
	if !near(s.Time, 5.5) {
		t.Errorf("middle mean = %v, want 5.5", s.Time)
	}
	if !near(s.P10, 1.9) || !near(s.P90, 18.1) {
		t.Errorf("p10 %v p90 %v", s.P10, s.P90)
	}
	// sample sd of xs / sqrt(10)
	var ss float64
	for _, x := range xs {
		ss += (x - 14.5) * (x - 14.5)
	}
	if want := math.Sqrt(ss/9) / math.Sqrt(10); !near(s.Stderr, want) {
		t.Errorf("stderr %v want %v", s.Stderr, want)
	}
	if xs[0] != 9 {
		t.Error("Summarize sorted its input")
	}
	if one := Summarize([]float64{3}); one.Time != 3 || one.Stderr != 0 || one.P90 != 3 {
		t.Errorf("one sample: %+v", one)
	}
	if Summarize(nil).N != 0 {
		t.Error("empty")
	}
}

func TestStopRule(t *testing.T) {
	r := StopRule{Min: 4, Max: 10, MaxRelStderr: 0.05, MaxTime: time.Second, MaxDiscarded: 2}
	steady := []float64{1, 1, 1, 1}
	noisy := []float64{1, 3, 1, 3, 1, 3}
	cases := []struct {
		name      string
		xs        []float64
		discarded int
		elapsed   time.Duration
		want      Verdict
	}{
		{"below min", steady[:3], 0, 0, Continue},
		{"converged at min", steady, 0, 0, Converged},
		{"noisy goes on", noisy, 0, 0, Continue},
		{"noisy stops at max", append(append([]float64{}, noisy...), 1, 3, 1, 3), 0, 0, MaxReps},
		{"time cap", noisy, 0, time.Second, TimeCap},
		{"discard cap", noisy, 3, 0, DiscardCap},
		{"discards within cap", noisy, 2, 0, Continue},
		{"nothing valid, time cap", nil, 0, 2 * time.Second, TimeCap},
	}
	for _, c := range cases {
		if got := r.Decide(c.xs, c.discarded, c.elapsed); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestSubtract(t *testing.T) {
	r := Result{Samples: []float64{5, 6, 7, 8}, RankTime: []float64{6.5, 6}}
	r.Summary = Summarize(r.Samples)
	r.Subtract(2)
	if r.Time != 4.5 || r.Min != 3 || r.Max != 6 || *r.Subtracted != 2 || r.RankTime[0] != 4.5 {
		t.Errorf("%+v", r)
	}
	r.Subtract(10) // the part taken off was longer than the whole: negative, kept
	if r.Time != -5.5 || *r.Subtracted != 12 {
		t.Errorf("%+v", r)
	}
	var none Result
	none.Subtract(1) // no valid repetition: nothing to subtract from, nothing recorded
	if none.Subtracted != nil {
		t.Errorf("%+v", none)
	}
}
