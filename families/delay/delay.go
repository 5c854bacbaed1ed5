// Package delay is the late partner: the collectives with one late rank (ops.go,
// kernels/), the setting delay, and every delayed operation's part in the runner (the
// one-sided synchronisation calls' and OpenSHMEM's send-receives' too, ops.Info.Delayed):
// the late rank's busy wait, calibrated where it runs, and a step timed on the wall
// clock.
package delay

import (
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"

	_ "github.com/skampi/skampi/families/delay/kernels" // the kernels' table
)

// settingDelay: how late the late rank or partner enters its call in every step.
const settingDelay = "delay"

func init() {
	// Listed before data_layout, where the core had it (lock_hold and ratio are placed
	// around it): skampi run --help and a one-line suite's text are what they were.
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:     settingDelay,
		Doc:      `how late a late rank or partner enters its call, waiting before it: delayed_Alltoall and delayed_Gather's last rank, the late partner of Win_start, Win_complete, Win_test, ..., the last PE of the SHMEM send-receives (default "0s": none)`,
		Default:  time.Duration(0),
		Parse:    inputs.SettingWait(time.Second, "a partner is late by this much in every step"),
		Applies:  func(m *inputs.Measurement) bool { return m.Op.Delayed },
		What:     "delayed collectives and operations with a late partner (delayed_Alltoall, Win_start, Win_complete, Win_test, the SHMEM send-receives, ...)",
		StepWait: func(m *inputs.Measurement) time.Duration { return delayOf(m.Settings) },
		Before:   "data_layout",
		Sample:   `"10us"`,
		Recorded: []string{"delay_s"},
	})
	runner.Register(runner.Family{
		Name: "delayed",
		Has:  func(op ops.Info) bool { return op.Delayed },
		Task: func(_ *inputs.Point, t *measure.Task) { t.CalibrateOnWall = true },
		// Each rank counts the late partner's wait at its own rate.
		Prepare: func(r *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			delay := delayOf(pt.Settings())
			spec.SetParam(ops.ParamDelay, delay.Seconds())
			spec.SetParam(ops.ParamLateSpin, float64(r.SpinFor(delay)))
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			delay := delayOf(pt.Settings()).Seconds()
			p.DelayS = &delay
		},
	})
}

// delayOf is how late the late partner is under these settings.
func delayOf(s inputs.Settings) time.Duration { return s.Value(settingDelay).(time.Duration) }
