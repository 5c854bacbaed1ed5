// Package skewed is the skewed all-to-all's part in the runner: how many times more
// its rank 0 sends, asked of the kernel and recorded.
package skewed

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name: "skewed",
		Has:  func(op ops.Info) bool { return op.Skewed },
		Prepare: func(_ *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			spec.SetParam(ops.ParamRatio, float64(pt.Settings().Ratio))
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) { p.Ratio = pt.Settings().Ratio },
	})
}
