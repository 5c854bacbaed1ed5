package runner

import (
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/repsync"
)

// measurement is one way of measuring a point: plain, difference (the subtraction
// method), nonblocking (the breakdown) or perTask, chosen from the catalogue by
// strategyFor. Every strategy makes the same MPI calls in the same order on every rank,
// and brings back the outcome rank 0 builds the point's record from (buildRecord).
type measurement interface {
	measure(r *Runner, pt *inputs.Point, spec ops.Request, t measure.Task) (outcome, error)
}

// outcome is what measuring a point brought back: on rank 0, what its record is built
// from; on the other ranks, nothing (res is nil).
type outcome struct {
	res     *measure.Result // the point's result (a breakdown's: full's)
	parts   *breakdownParts // a non-blocking point's breakdown; nil for the others
	window  *repsync.Window // the window synchronisation the point ended with; nil without
	corrupt *record.Corrupt // check_data: the first corrupt byte any rank received
	pvars   *pvarValues     // rank 0's performance variables (pvars), when asked for
	notes   map[string]any  // rank 0: what the point's family noted (family name: Family.Measured's note)
	// noise: each world rank's preemptions and time off its core during the point
	// (noiseSince; agree gathers them; nil: not known).
	noise []float64
}

// strategyFor chooses how a point is measured from its operation's and its timing
// method's fields (never from names).
func strategyFor(pt *inputs.Point) measurement {
	op := pt.Op()
	method, _ := op.Method(pt.Method)
	switch {
	case method.Subtract != "":
		return difference{method: method}
	case op.BreaksDown(pt.Method, pt.Measurement.TimedWhole(pt.Method)):
		return nonblocking{}
	case method.PerTask:
		return perTask{}
	}
	return plain{}
}

// plain prepares the operation, measures it and releases it.
type plain struct{}

func (plain) measure(r *Runner, _ *inputs.Point, spec ops.Request, t measure.Task) (outcome, error) {
	res, err := r.measureOnce(spec, t)
	return outcome{res: res}, err
}
