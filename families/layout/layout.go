// Package layout is the strided data layouts' part in the runner (data_layout, stride,
// type_commit): the derived datatype asked of the kernel, and recorded.
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
			if s := pt.Settings(); ops.Strided(s.DataLayout) {
				spec.DataLayout, spec.Stride = s.DataLayout, s.Stride
				if s.TypeCommit == inputs.TypeCommitEveryCall {
					spec.TypeCommit = s.TypeCommit
				}
			}
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			if s := pt.Settings(); ops.Strided(s.DataLayout) {
				p.DataLayout, p.Stride = s.DataLayout, s.Stride
				if s.TypeCommit == inputs.TypeCommitEveryCall {
					p.TypeCommit = s.TypeCommit
				}
			}
		},
	})
}
