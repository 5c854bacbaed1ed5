package runner

import (
	"fmt"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
)

// methodsOf lists the timing methods a measurement's points are taken with; "" is the
// operation's only way of timing.
func methodsOf(m inputs.Measurement) []string {
	if len(m.Methods) == 0 {
		return []string{""}
	}
	return m.Methods
}

// measurePoint measures one point with a timing method. "ack" is timed by the root
// alone; "barrier" subtracts a barrier measured right after with the same settings
// (the method paper's Alg. 1). The point is nil on ranks other than 0.
func (r *Runner) measurePoint(m inputs.Measurement, spec OpSpec, task measure.Task, index int) (*measure.Point, error) {
	w := r.World
	if spec.Method == "ack" { // the root's world rank
		root := m.Settings.Root
		if spec.Ranks != nil {
			root = spec.Ranks[root]
		}
		task.Participants, task.Reduce = []int{root}, ops.ReduceFirst
	}
	op, err := w.NewOp(spec)
	if err != nil {
		return nil, err
	}
	res, err := measure.Measure(w, op, task)
	if err != nil {
		return nil, err
	}
	var barrier *measure.Result
	if spec.Method == "barrier" {
		info, _ := ops.Lookup("Barrier")
		bop, err := w.NewOp(OpSpec{Info: info, Settings: spec.Settings, Ranks: spec.Ranks})
		if err != nil {
			return nil, err
		}
		if barrier, err = measure.Measure(w, bop, task); err != nil {
			return nil, fmt.Errorf("the barrier to subtract: %w", err)
		}
	}
	if res == nil {
		return nil, nil
	}
	p := r.point(index, m, spec.Bytes, task.Participants, res)
	p.Method = spec.Method
	if barrier != nil {
		p.Subtract(barrier.Time)
	}
	if spec.Method == "ack" && p.Reps > 0 && p.TimeS < 0 { // the ack time was subtracted in C
		p.AddFlag(measure.FlagNegative)
	}
	return p, nil
}
