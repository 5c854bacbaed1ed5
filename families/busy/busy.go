// Package busy is the busy passive target's part in the runner (target_busy): the
// target's computation, calibrated on every rank, a step timed whole, and the poll.
package busy

import (
	"slices"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name: "busy target",
		Has: func(op ops.Info) bool {
			return op.PassiveTarget("") || slices.ContainsFunc(op.Methods, func(m ops.Method) bool { return m.Passive })
		},
		// A busy target's step lasts its computation whatever the operation reports (an
		// OpenSHMEM put done in 50 ns while its target computes 100 us).
		Task: func(pt *inputs.Point, t *measure.Task) {
			if busyTarget(pt) {
				t.CalibrateOnWall = true
			}
		},
		Prepare: func(r *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			if busyTarget(pt) {
				spec.SetParam(ops.ParamBusySpin, float64(r.BusySpin(busyFor(pt.Measurement).Seconds())))
				spec.ProgressEvery, spec.Poll = pt.Settings().Progress, pollFor(pt)
			}
			return nil
		},
		Record: busyFields,
	})
}

// busyTarget: the point keeps its operation's target busy (target_busy), which the
// operation's kernel then times whole in every step (a put with its completion): its
// post and completion apart would each wait for the same computation.
func busyTarget(pt *inputs.Point) bool {
	return busyFor(pt.Measurement) > 0 && pt.Op().PassiveTarget(pt.Method)
}

// busyFields records a passive target's computation, and how it polled.
func busyFields(p *record.Point, pt *inputs.Point, _ any) {
	if !pt.Op().PassiveTarget(pt.Method) {
		return
	}
	busy := busyFor(pt.Measurement).Seconds()
	p.TargetBusyS = &busy
	if busy > 0 { // poll_every 0: it never polled, so no call is named
		every := pt.Settings().Progress
		p.PollEvery = &every
		if every > 0 {
			p.Poll = pollFor(pt)
		}
	}
}
