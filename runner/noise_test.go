package runner

import (
	"slices"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
)

// A point is noisy when a participating rank lost its core often, for the point's
// length; ranks outside the point do not count, and an unknown count records nothing.
func TestNoiseFields(t *testing.T) {
	pt := &inputs.Point{Ranks: []int{1, 2}}
	for _, c := range []struct {
		name     string
		switches []float64
		wall     float64
		most     int64 // -1: none recorded
		noisy    bool
	}{
		{"not known", nil, 1, -1, false},
		{"unknown on every participant", []float64{50, -1, -1}, 1, -1, false},
		{"quiet", []float64{0, 1, 0}, 0.5, 1, false},
		{"a rank outside the point", []float64{500, 0, 0}, 0.1, 0, false},
		{"a few over a long point", []float64{0, 10, 2}, 2, 10, false},
		{"many for its length", []float64{0, 3, 40}, 1, 40, true},
		{"a short point preempted thrice", []float64{0, 3, 0}, 0.05, 3, true},
		{"twice is not enough", []float64{0, 2, 0}, 0.01, 2, false},
	} {
		p := &record.Point{}
		noiseFields(p, pt, c.switches, c.wall)
		if c.most < 0 {
			if p.Preemptions != nil || len(p.Flags) > 0 {
				t.Errorf("%s: preemptions %v, flags %v", c.name, p.Preemptions, p.Flags)
			}
			continue
		}
		if p.Preemptions == nil || *p.Preemptions != c.most || slices.Contains(p.Flags, record.FlagNoisy) != c.noisy {
			t.Errorf("%s: preemptions %v, flags %v; want %d, noisy %v", c.name, p.Preemptions, p.Flags, c.most, c.noisy)
		}
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
