package runner

import (
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
)

// A point is noisy when a participating rank was preempted often AND spent much of the
// point off its core; ranks outside the point do not count, and an unknown count
// records nothing. Each rank's value is its preemptions plus its off-core fraction.
func TestNoiseFields(t *testing.T) {
	pt := &inputs.Point{Ranks: []int{1, 2}}
	for _, c := range []struct {
		name  string
		noise []float64
		most  int64 // -1: none recorded
		off   float64
		noisy bool
	}{
		{"not known", nil, -1, 0, false},
		{"unknown on every participant", []float64{50.9, -1, -1}, -1, 0, false},
		{"quiet", []float64{0, 1.01, 0}, 1, 0.01, false},
		{"a rank outside the point", []float64{500.9, 0, 0}, 0, 0, false},
		// A quiet machine's spinning rank: preempted often by its own helper threads,
		// never off its core for long.
		{"many short preemptions", []float64{0, 17.02, 12.05}, 17, 0.05, false},
		{"a quarter of the point taken", []float64{0, 3.25, 0}, 3, 0.25, false},
		{"half of the point taken", []float64{0, 3.5, 0}, 3, 0.5, true},
		{"most of the point taken", []float64{0, 0.1, 40.6}, 40, 0.6, true},
		{"asleep, not preempted", []float64{0, 2.9, 0}, 2, 0.9, false},
	} {
		p := &record.Point{}
		noiseFields(p, pt, c.noise)
		if c.most < 0 {
			if p.Preemptions != nil || p.OffCPU != nil || len(p.Flags) > 0 {
				t.Errorf("%s: preemptions %v, flags %v", c.name, p.Preemptions, p.Flags)
			}
			continue
		}
		if p.Preemptions == nil || *p.Preemptions != c.most || p.OffCPU == nil || math.Abs(*p.OffCPU-c.off) > 1e-9 ||
			slices.Contains(p.Flags, record.FlagNoisy) != c.noisy {
			t.Errorf("%s: preemptions %v, off %v, flags %v; want %d, %g, noisy %v", c.name, p.Preemptions, p.OffCPU, p.Flags, c.most, c.off, c.noisy)
		}
	}
}

// noiseSince carries the switches and the off-core fraction in one number.
func TestNoiseSince(t *testing.T) {
	// The counts are the thread's: a goroutine moved to another thread between the two
	// readings would compare two threads' (as a rank, which runs on its locked thread,
	// never does).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	u := usageNow()
	if !u.ok {
		t.Skip("getrusage(RUSAGE_THREAD) not available")
	}
	if v := noiseSince(u, 0); v != -1 {
		t.Errorf("no wall time: %g", v)
	}
	for i := 0; i < 1e7; i++ { // on the core: little off it
		_ = math.Sqrt(float64(i))
	}
	v := noiseSince(u, time.Since(time.Now().Add(-time.Millisecond)).Seconds())
	if v < 0 || v-math.Floor(v) >= 1 {
		t.Errorf("noise %g", v)
	}
	if v := noiseSince(threadUsage{}, 1); v != -1 {
		t.Errorf("unknown start: %g", v)
	}
}

// Every measured point records its preemptions: the runner counts them around the
// point and agree brings them to rank 0.
func TestRunnerCountsPreemptions(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 2
max_repetitions = 3

[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [8]
`)
	sink := &collect{}
	r := &Runner{World: &fakeWorld{size: 2}, RunID: "r", Sink: sink}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	if len(sink.points) != 1 || sink.points[0].Preemptions == nil || *sink.points[0].Preemptions < 0 {
		t.Fatalf("points %+v", sink.points)
	}
}
