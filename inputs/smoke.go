package inputs

import "time"

// A smoke run (skampi --smoke) checks that every point of a suite runs on this machine
// and library, not what it costs: each point measures two repetitions of its steps,
// after no warm-up, with its repetitions calibrated to a short time, and no curve is
// refined. It takes seconds where the suite takes minutes, also where every step
// waits for the scheduler (more ranks than cores, a library whose ranks poll). Its
// numbers are marked (the run header's smoke) and are no measurement to compare.

// Bounds of a smoke run's points.
const (
	smokeReps    = 2
	smokeRepTime = 100 * time.Microsecond
	smokeMaxTime = 2 * time.Second
)

// Smoke makes the plan a smoke run's.
func (p *Plan) Smoke() {
	p.Smoked = true
	smoke(&p.Settings)
	for i := range p.Measurements {
		smoke(&p.Measurements[i].Settings)
	}
}

func smoke(s *Settings) {
	s.MinReps, s.MaxReps, s.AutoReps = smokeReps, smokeReps, false
	s.Warmup = 0
	s.RepTime = min(s.RepTime, smokeRepTime)
	s.MaxTime = min(s.MaxTime, smokeMaxTime)
	s.Refine = Refine{}
}
