package runner

import (
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
)

// perTask measures a per-task method for every task (every rank of the communicator
// but the root) in turn, each until its own stop rule ends, within an equal share of
// the point's time; the result is the slowest task's, with every task's time in
// TaskTimes (the method paper's Alg. 4: the maximum over tasks of each task's mean, not
// the mean over broadcasts of the slowest task, which is biased upwards).
type perTask struct{}

func (perTask) measure(r *Runner, pt *inputs.Point, spec ops.Request, t measure.Task) (outcome, error) {
	root := pt.Settings().Root
	tasks := pt.NProcs - 1
	if tasks < 1 {
		// A root alone: nobody to acknowledge, the operation itself is the time.
		spec.Kernel = pt.Op().Kernel
		res, err := r.measureOnce(spec, t)
		return outcome{res: res}, err
	}
	t.Stop.MaxTime = max(t.Stop.MaxTime/time.Duration(tasks), time.Millisecond)
	if t.Stop.Budget > 0 {
		t.Stop.Budget = max(t.Stop.Budget/time.Duration(tasks), time.Millisecond)
	}
	var slowest *measure.Result
	var times []float64
	for task := range pt.NProcs {
		if task == root {
			continue
		}
		spec.Task = task
		res, err := r.measureOnce(spec, t)
		if err != nil {
			return outcome{}, err
		}
		if res == nil { // not rank 0: nothing to compare
			continue
		}
		times = append(times, res.Time)
		if slowest == nil || res.N > 0 && (slowest.N == 0 || res.Time > slowest.Time) {
			slowest = res
		}
	}
	if slowest != nil {
		slowest.TaskTimes = times
	}
	return outcome{res: slowest}, nil
}
