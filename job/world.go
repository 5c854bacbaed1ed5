package job

import (
	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/runner"
)

// world adapts ops/mpi to the runner's World: forwarding only (Go has no covariant
// results, so *mpi.Op becomes a runner.Op here).
type world struct{ *mpi.World }

func (w world) Clock() clocksync.Exchanger { return w.World.NewClock() }
func (w world) Now() float64               { return mpi.Now() }
func (w world) CalibrateSpin() float64     { return mpi.CalibrateSpin() }
func (w world) TimerOverhead() float64     { return mpi.TimerOverhead() }
func (w world) SpinFor(target, nsPerIter float64) int64 {
	return mpi.SpinFor(target, nsPerIter)
}

func (w world) NewOp(r ops.Request) (runner.Op, error) {
	op, err := w.World.NewOp(r)
	if err != nil {
		return nil, err
	}
	return op, nil
}
