package runner

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// request is what a point asks the kernel of op to do under settings s: the one
// translation of settings into a kernel's request, made here and nowhere else.
func request(op ops.Info, kernel string, bytes int64, s inputs.Settings, pair [2]int, ranks []int) ops.Request {
	r := ops.Request{Info: op, Kernel: kernel, Bytes: bytes,
		Window: s.Window, Slots: s.Slots(op), CheckData: s.CheckData,
		Cold: s.Cache == inputs.CacheCold, CacheSize: s.CacheSize, Iteration: s.Timer == inputs.TimerIteration,
		Pair: pair, Ranks: ranks, Datatype: s.DatatypeFor(op), ReduceOp: s.ReduceOp, Root: s.Root,
		BarrierAbove: s.BarrierAbove, PVars: s.PVars}
	return r
}

// pointRequest is the request of a point's own operation under its timing method.
func pointRequest(pt *inputs.Point) ops.Request {
	op := pt.Op()
	r := request(op, op.KernelFor(pt.Method), pt.Size, pt.Settings(), pt.Pair, pt.Comm)
	if m, ok := op.Method(pt.Method); ok {
		r.Mode, r.BarrierEach = m.Mode, m.BarrierEach
		if m.Aggregate {
			r.Aggregate, r.Window = true, pt.Settings().WindowFor(op, pt.Method)
		}
	}
	return r
}
