// Package halo is the halo exchange's part in the runner (halo_compute): each step's
// computation, calibrated on every rank at its own rate.
package halo

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name: "halo",
		Has:  func(op ops.Info) bool { return op.Computes },
		Prepare: func(r *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			spec.SetParam(ops.ParamComputeSpin, float64(r.SpinFor(pt.Settings().HaloCompute)))
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			compute := pt.Settings().HaloCompute.Seconds()
			p.HaloComputeS = &compute
		},
	})
}
