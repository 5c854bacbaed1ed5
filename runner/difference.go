package runner

import (
	"fmt"
	"math"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
)

// difference is the subtraction method: the method's kernel (the whole) less the
// operation it names (the part), measured right after with the same settings, their
// repetitions alternating. The same task: the same ranks, synchronisation and stop rule
// as the whole, which stops on the difference.
type difference struct{ method ops.Method }

func (d difference) measure(r *Runner, pt *inputs.Point, spec ops.Request, t measure.Task) (outcome, error) {
	info, ok := ops.Lookup(d.method.Subtract)
	if !ok {
		return outcome{}, fmt.Errorf("%s, method %s: no operation %q to subtract", pt.Op().Name, d.method.Name, d.method.Subtract)
	}
	res, err := r.measureDifference(spec, request(info, info.Kernel, 0, pt.Settings(), [2]int{}, pt.Comm), t)
	return outcome{res: res}, err
}

// measureDifference prepares the whole and the part, measures whole minus part with
// their repetitions alternating, and releases both. The whole is prepared first: the
// part (a piece of the whole) needs no larger buffers, so preparing it does not
// reallocate the ones the whole runs on.
func (r *Runner) measureDifference(whole, part ops.Request, t measure.Task) (res *measure.Result, err error) {
	wop, err := r.newOp(whole)
	if err != nil {
		return nil, err
	}
	defer closeOp(wop, whole, &err)
	if sp, ok := wop.(phaser); ok && whole.SameBuffers(part) {
		// Two measurements of one non-blocking operation: one preparation, its
		// measurement switched between runs, so both run on the same buffers.
		w, p := phased{sp, whole.Phase}, phased{sp, part.Phase}
		if res, err = measure.MeasureDifference(r.World, w, p, t); err == nil && whole.CheckData {
			err = r.noteCorruption(wop, whole)
		}
		return res, err
	}
	pop, err := r.newOp(part)
	if err != nil {
		return nil, fmt.Errorf("the %s to subtract: %w", part.Info.Name, err)
	}
	defer closeOp(pop, part, &err)
	if res, err = measure.MeasureDifference(r.World, wop, pop, t); err == nil && whole.CheckData {
		err = r.noteCorruption(wop, whole) // the whole carries the operation's data
	}
	return res, err
}

// phaser is an operation that can switch among its non-blocking measurements.
type phaser interface {
	Op
	SetPhase(ops.Phase) error
}

// phased runs an operation as one of its measurements.
type phased struct {
	op    phaser
	phase ops.Phase
}

func (p phased) Run(iters int, slot measure.Slot) (float64, error) {
	if err := p.op.SetPhase(p.phase); err != nil {
		return math.NaN(), err
	}
	return p.op.Run(iters, slot)
}

// closeOp releases op, reporting a failure in *err unless there is one already.
func closeOp(op Op, spec ops.Request, err *error) {
	if cerr := op.Close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("releasing %s: %w", spec.Info.Name, cerr)
	}
}
