package inputs

import (
	"testing"
	"time"
)

// A smoke run's plan: every measurement at two repetitions, no warm-up, short
// repetitions and caps, nothing refined; the plan says it is one.
func TestSmoke(t *testing.T) {
	p, err := Parse("s.toml", []byte(`[settings]
warmup = 5
max_repetitions = "auto"
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [8, 64, 512]
refine = true
min_repetitions = 20
[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8]
max_time_per_point = "30s"
`))
	if err != nil {
		t.Fatal(err)
	}
	p.Smoke()
	if !p.Smoked {
		t.Error("Smoked not set")
	}
	for _, s := range append([]Settings{p.Settings}, func() (out []Settings) {
		for _, m := range p.Measurements {
			out = append(out, m.Settings)
		}
		return
	}()...) {
		if s.MinReps != 2 || s.MaxReps != 2 || s.AutoReps || s.Warmup != 0 || s.RepTime > 100*time.Microsecond ||
			s.MaxTime > 2*time.Second || s.Refine != (Refine{}) {
			t.Errorf("settings after Smoke: %+v", s)
		}
	}
}
