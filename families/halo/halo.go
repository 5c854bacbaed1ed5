// Package halo is the halo exchanges of a 1-D decomposed stencil code (SKaMPI's border
// exchanges): their operations (ops.go), their kernels (kernels/), their setting
// halo_compute and their part in the runner: each step's computation, calibrated on
// every rank at its own rate.
package halo

import (
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"

	_ "github.com/skampi/skampi/families/halo/kernels" // the kernels' table
)

// paramCompute: a step's computation, in spin iterations of the calibrated spin (the
// kernels' c->kparam[0]).
const paramCompute = "compute_spin"

// settingCompute: how long each halo step computes while its rows are in flight.
const settingCompute = "halo_compute"

func init() {
	// Listed before data_layout, where the core had it.
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:     settingCompute,
		Doc:      `the halo exchanges (Halo_Twosided, Halo_Onesided_PSCW, Halo_Onesided_Fence): how long each step computes while its rows are in flight (default "0s": none)`,
		Default:  time.Duration(0),
		Parse:    inputs.SettingWait(time.Second, "every halo step computes this long"),
		Applies:  func(m *inputs.Measurement) bool { return m.Op.Computes },
		What:     "the halo exchanges (Halo_Twosided, Halo_Onesided_PSCW, Halo_Onesided_Fence)",
		StepWait: func(m *inputs.Measurement) time.Duration { return computeOf(m.Settings) },
		Before:   "data_layout",
		Sample:   `"5us"`,
		Recorded: []string{"halo_compute_s"},
	})
	runner.Register(runner.Family{
		Name: "halo",
		Has:  func(op ops.Info) bool { return op.Computes },
		Prepare: func(r *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			spec.SetParam(paramCompute, float64(r.SpinFor(computeOf(pt.Settings()))))
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			compute := computeOf(pt.Settings()).Seconds()
			p.HaloComputeS = &compute
		},
	})
}

// computeOf is how long a halo step computes under these settings.
func computeOf(s inputs.Settings) time.Duration { return s.Value(settingCompute).(time.Duration) }
