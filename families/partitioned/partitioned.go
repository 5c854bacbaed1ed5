// Package partitioned is partitioned communication's part in the runner: the parts of
// a message, asked of the kernel and recorded.
package partitioned

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name: "partitioned",
		Has:  func(op ops.Info) bool { return op.Partitioned },
		Prepare: func(_ *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			spec.SetParam(ops.ParamPartitions, float64(partsOf(pt.Settings())))
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) { p.Partitions = partsOf(pt.Settings()) },
	})
}
