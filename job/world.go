package job

import (
	"slices"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/runner"
)

// world adapts ops/mpi to the runner's World.
type world struct{ *mpi.World }

func (w world) Clock() clocksync.Exchanger { return w.World.NewClock() }
func (w world) Now() float64               { return mpi.Now() }
func (w world) CalibrateSpin() float64     { return mpi.CalibrateSpin() }
func (w world) TimerOverhead() float64     { return mpi.TimerOverhead() }
func (w world) SpinFor(target, nsPerIter float64) int64 {
	return mpi.SpinFor(target, nsPerIter)
}

func (w world) NewOp(o runner.OpSpec) (runner.Op, error) {
	s := o.Settings
	op, err := w.World.NewOp(mpi.Spec{Info: o.Info, Kernel: o.Kernel, Bytes: o.Bytes, Window: s.Window, Slots: s.Slots(o.Info), Check: s.CheckData, Cold: s.Cache == inputs.CacheCold, CacheSize: s.CacheSize,
		Iteration: s.Timer == inputs.TimerIteration, Pair: o.Pair, Datatype: s.DatatypeFor(o.Info),
		ReduceOp: s.ReduceOp, Root: s.Root, Task: o.Task, BarrierAbove: s.BarrierAbove, Ranks: o.Ranks,
		Phase: o.Phase, Spin: o.Spin, ProgressEvery: o.ProgressEvery, TimerOverhead: o.TimerOverhead, RMAWindow: slices.Index(inputs.RMAWindows, s.RMAWindow)})
	if err != nil {
		return nil, err
	}
	return op, nil
}
