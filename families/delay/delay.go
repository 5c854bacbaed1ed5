// Package delay is the delayed operation's part in the runner (the setting delay): the
// late rank's busy wait, calibrated where it runs, and a step timed on the wall clock.
package delay

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name: "delayed",
		Has:  func(op ops.Info) bool { return op.Delayed },
		Task: func(_ *inputs.Point, t *measure.Task) { t.CalibrateOnWall = true },
		// Each rank counts the late partner's wait at its own rate.
		Prepare: func(r *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			spec.SetParam(ops.ParamDelay, pt.Settings().Delay.Seconds())
			spec.SetParam(ops.ParamLateSpin, float64(r.SpinFor(pt.Settings().Delay)))
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			delay := pt.Settings().Delay.Seconds()
			p.DelayS = &delay
		},
	})
}
