// Package layout is the strided data layouts: their settings data_layout, stride and
// type_commit (settings.go) and their part in the runner: the derived datatype asked
// of the kernel (the engine's datatypes.c, which the point-to-point, collective and
// one-sided kernels share), recorded, and whether check_data reached a one-sided
// operation's data.
package layout

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name: "data layout",
		Has:  func(op ops.Info) bool { return op.Layouts },
		Prepare: func(_ *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			if s := pt.Settings(); strided(pt.Measurement) {
				spec.DataLayout, spec.Stride = layoutOf(s), strideOf(s)
				if commitOf(s) == commitEveryCall {
					spec.TypeCommit = commitEveryCall
				}
			}
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			s := pt.Settings()
			if !strided(pt.Measurement) {
				// A contiguous one-sided payload is not where the data check looks
				// (datatypes_check.c): only an order its method checks is.
				if pt.Op().OneSided {
					p.CheckData = p.CheckData && pt.Op().OrderChecked(pt.Method)
				}
				return
			}
			p.DataLayout, p.Stride = layoutOf(s), strideOf(s)
			if commitOf(s) == commitEveryCall {
				p.TypeCommit = commitEveryCall
			}
		},
	})
}
