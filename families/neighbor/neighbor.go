// Package neighbor is the neighbourhood collectives' part in the runner: the process
// topology asked for, and the one resolved for the communicator, in the record.
package neighbor

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name: "neighbourhood",
		Has:  func(op ops.Info) bool { return op.Neighborhood },
		Prepare: func(_ *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			spec.Topology = pt.Settings().TopologyFor(pt.Op())
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			if t, err := pt.Settings().TopologyFor(pt.Op()).Resolve(pt.NProcs); err == nil {
				p.Topology = t.String()
			}
		},
	})
}
