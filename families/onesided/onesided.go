// Package onesided is the one-sided MPI family: its operations (ops*.go: every RMA
// operation under every synchronisation mode, the synchronisation calls, SKaMPI's and
// IMB-RMA's patterns), its kernels (kernels/, on the engine's window), the setting
// rma_window (settings.go), its built-in suites and OSU's one-sided names (suite.go),
// and its part in the runner: the window kind of its records, and what its data checks
// and cache settings reach.
package onesided

import (
	_ "github.com/skampi/skampi/families/onesided/kernels" // the kernels' tables
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name: "one-sided",
		Has:  func(op ops.Info) bool { return op.OneSided },
		Prepare: func(_ *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
			spec.RMAWindow = window(pt.Settings())
			// The target is the window: moving skampi's buffers would not make it
			// cold, so it is measured warm (and recorded so: WarmUnchecked).
			spec.Cold = false
			return nil
		},
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			p.RMAWindow = window(pt.Settings())
			runner.WarmUnchecked(p, pt)
		},
	})
}
