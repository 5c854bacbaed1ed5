// Package skewed is the skewed all-to-all's part in the runner: how many times more
// its rank 0 sends, in the record.
package skewed

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name:   "skewed",
		Has:    func(op ops.Info) bool { return op.Skewed },
		Record: func(p *record.Point, pt *inputs.Point, _ any) { p.Ratio = pt.Settings().Ratio },
	})
}
