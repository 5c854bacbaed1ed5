package measure

import (
	"math"
	"math/rand"
	"sort"
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
	// The stderr is the middle mean's, not the mean's: the outlier counts as the 8 it
	// is winsorised to (see TestTrimmedStderr).
	if want := math.Sqrt(42.5 / 30); !near(s.Stderr, want) {
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
		// The outlier inflates the mean's error (77 %), not the middle mean's.
		{"outlier converges", []float64{1, 1.01, 0.99, 1, 100, 1, 1.01, 0.99}, 0, 0, Converged},
	}
	for _, c := range cases {
		if got := r.Decide(c.xs, c.discarded, c.elapsed); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// One sample has no error: it never converges, even when it is all min allows.
	one := StopRule{Min: 1, Max: 1, MaxRelStderr: 0.5, MaxTime: time.Second}
	if got := one.Decide([]float64{1}, 0, 0); got != MaxReps {
		t.Errorf("one sample: %v", got)
	}
	// With a budget, Max is a hard cap and time spent decides, after Min repetitions.
	b := StopRule{Min: 4, Max: 10_000, MaxRelStderr: 0.05, MaxTime: time.Second, Budget: 100 * time.Millisecond}
	budget := []struct {
		name    string
		xs      []float64
		elapsed time.Duration
		want    Verdict
	}{
		{"within budget", noisy, 50 * time.Millisecond, Continue},
		{"budget spent", noisy, 100 * time.Millisecond, MaxReps},
		{"budget spent below min", noisy[:3], time.Second / 2, Continue},
		{"converged when the budget ends", steady, 200 * time.Millisecond, Converged},
	}
	for _, c := range budget {
		if got := b.Decide(c.xs, 0, c.elapsed); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// Past 63 repetitions the estimate is looked at 32 times per doubling, and always
// when a limit would stop the point.
func TestCheckpoints(t *testing.T) {
	checks := 0
	for n := 1; n <= 4096; n++ {
		if checkpoint(n) {
			checks++
		}
	}
	if want := 63 + 6*32 + 1; checks != want { // 1..63, 64..4095 (6 doublings), 4096
		t.Errorf("%d checkpoints up to 4096, want %d", checks, want)
	}
	// 65 converged samples, not a checkpoint: only a stopping limit looks.
	xs := make([]float64, 65)
	for i := range xs {
		xs[i] = 1
	}
	r := StopRule{Min: 2, Max: 1000, MaxRelStderr: 0.1, MaxTime: time.Second}
	if got := r.Decide(xs, 0, 0); got != Continue {
		t.Errorf("between checkpoints: %v", got)
	}
	if got := r.Decide(xs, 0, time.Second); got != Converged {
		t.Errorf("at the time cap: %v", got)
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

func TestTrimmedStderr(t *testing.T) {
	cases := []struct {
		name string
		xs   []float64
		want float64
	}{
		// n=10: g=2 trimmed each side, h=6 kept; winsorised 3,3,3,4,5,6,7,8,8,8 (mean
		// 5.5, squared deviations 42.5): sqrt(42.5 / (6*5)).
		{"outlier", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 100}, math.Sqrt(42.5 / 30)},
		// n=4: g=1, h=2; winsorised 2,2,3,3 (mean 2.5, squares 1): sqrt(1 / (2*1)).
		{"four", []float64{1, 2, 3, 10}, math.Sqrt(0.5)},
		// n<4 trims nothing: the mean's standard error, s/sqrt(n).
		{"three", []float64{1, 2, 6}, math.Sqrt(7.0 / 3)},
		{"two", []float64{1, 3}, 1},
		{"one", []float64{5}, 0},
		{"none", nil, 0},
		{"constant", []float64{2, 2, 2, 2, 2}, 0},
	}
	for _, c := range cases {
		if got := TrimmedStderr(c.xs); !near(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// Normal samples: the 25 % trimmed mean's variance is 1.19 sigma²/n, so its
	// standard error is 1.09 sigma/sqrt(n) (about 1.2 times the mean's variance).
	rng := rand.New(rand.NewSource(1))
	const n, sigma = 100_000, 2.0
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = 10 + sigma*rng.NormFloat64()
	}
	sort.Float64s(xs)
	if r := TrimmedStderr(xs) * math.Sqrt(n) / sigma; math.Abs(r-1.093) > 0.02 {
		t.Errorf("normal: se*sqrt(n)/sigma = %v, want 1.093", r)
	}
}

// The batch means' error matches the order-blind one for independent samples and is
// twice it or more when the level moves during the point; Summarize reports both.
func TestBatchStderr(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	iid := make([]float64, 64)
	for i := range iid {
		iid[i] = 1 + 0.05*rng.NormFloat64()
	}
	sorted := append([]float64(nil), iid...)
	sort.Float64s(sorted)
	b, tr := BatchStderr(iid), TrimmedStderr(sorted)
	if b < tr/2.5 || b > tr*2.5 {
		t.Errorf("independent samples: batch %.3g, trimmed %.3g", b, tr)
	}
	moved := make([]float64, 64)
	for i := range moved {
		moved[i] = 1 + 0.002*rng.NormFloat64()
		if i >= 32 {
			moved[i] += 0.1
		}
	}
	sorted = append(sorted[:0], moved...)
	sort.Float64s(sorted)
	if b, tr := BatchStderr(moved), TrimmedStderr(sorted); b < 2*tr || Summarize(moved).BatchStderr != b || Summarize(moved).Stderr != tr {
		t.Errorf("a level change: batch %.3g, trimmed %.3g, summary %+v", b, tr, Summarize(moved))
	}
	if BatchStderr(iid[:7]) != 0 {
		t.Error("7 samples: no batches")
	}
}
