package runner

import (
	"errors"
	"fmt"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// agree has every rank say whether its part of the point ended in an error, and
// returns the ranks that did (on rank 0; an empty list elsewhere), or nil when none
// did. An error in a point is a fault of the point, not of the job, as long as every
// rank gets here; a rank left waiting inside the library is the watchdog's. A rank
// without an error tells in the same gather how often its core was taken from it
// during the point (switches; -1: not known), which rank 0 gets back by world rank
// (nil elsewhere, or when some rank failed).
func (r *Runner) agree(err error, switches float64) ([]int, []float64, error) {
	v := max(-1, switches) // -1: not known
	if err != nil {
		v = agreeFailed
	}
	vals, gerr := r.World.Gather(v)
	if gerr != nil {
		return nil, nil, gerr
	}
	failed := []int{}
	for rank, x := range vals {
		if x == agreeFailed {
			failed = append(failed, rank)
		}
	}
	n, berr := r.World.Bcast(int64(len(failed)))
	if berr != nil {
		return nil, nil, berr
	}
	if n == 0 {
		if err != nil {
			// This rank failed where the others did not even see a failure (they were
			// in another call when it gathered): the ranks are out of step, so end the
			// job rather than move on a point ahead of them.
			return nil, nil, err
		}
		return nil, vals, nil
	}
	return failed, nil, nil
}

// agreeFailed is what a rank whose part of the point failed tells agree.
const agreeFailed = -2

// pointError records a point some rank could not measure (rank 0), and each failing
// rank says why on its standard error.
func (r *Runner) pointError(pt *inputs.Point, failed []int, err error) error {
	if errors.Is(err, ops.ErrUnsupported) {
		return r.unsupportedFault(pt, err)
	}
	if err != nil && r.Stderr != nil {
		fmt.Fprintf(r.Stderr, "skampi: rank %d: measurement %q, %d bytes: %v\n", r.World.Rank(), pt.Measurement.Name, pt.Size, err)
	}
	if r.World.Rank() != 0 {
		return nil
	}
	var detail string
	if err != nil {
		detail = err.Error()
	} else {
		detail = fmt.Sprintf("rank(s) %v failed (their message is on their standard error)", failed)
	}
	return r.writeFault(pt, record.FaultError, detail)
}

// LackingDetail is the detail of the denied points of an operation the library lacks,
// after its first, whose record says why in full.
const LackingDetail = "not in this MPI library (the operation's first point says why)"

// NotBuiltDetail is the detail of the denied points of an operation this binary was
// built without (OpenSHMEM in an MPICH build), after its first, whose record says why
// in full.
const NotBuiltDetail = "not in this build (the operation's first point says why)"

// notBuilt is why this binary cannot run op at all ("" when it can).
func (r *Runner) notBuilt(op ops.Info) string {
	if r.NotBuilt == nil {
		return ""
	}
	return r.NotBuilt(op)
}

// lack notes, on rank 0, that op's next points are denied unprepared with brief.
func (r *Runner) lack(op, brief string) {
	if r.lacking == nil {
		r.lacking = map[string]string{}
	}
	r.lacking[op] = brief
}

// unsupportedFault records, on rank 0, that the library lacks a routine the point's
// operation calls (MPI_Psend_init in Open MPI 4.1): a denied point with the reason;
// decide denies its other points without preparing them, saying so in brief. Every
// rank refused it alike (each asks the same library whether it provides the routine),
// so no rank has more to say.
func (r *Runner) unsupportedFault(pt *inputs.Point, err error) error {
	if r.World.Rank() != 0 {
		return nil
	}
	r.lack(pt.Op().Name, LackingDetail)
	return r.writeFault(pt, record.FaultDenied, err.Error())
}

// newOp prepares an operation on every rank and has them agree, before any of them
// measures it, that each could: a rank whose preparation failed (a window the library
// would not create on it, say) must not leave the others waiting for it in the
// point's first collective. An operation made here but not everywhere is abandoned,
// not closed: its release is collective too, and would wait for the ranks that have
// none.
func (r *Runner) newOp(spec ops.Request) (Op, error) {
	op, err := r.World.NewOp(spec)
	v := 0.0
	if err != nil {
		v = 1
	}
	vals, gerr := r.World.Gather(v)
	if gerr != nil {
		return nil, gerr
	}
	var failed []int
	for rank, x := range vals {
		if x != 0 {
			failed = append(failed, rank)
		}
	}
	n, berr := r.World.Bcast(int64(len(failed)))
	if berr != nil {
		return nil, berr
	}
	switch {
	case err != nil:
		return nil, err
	case n == 0:
		return op, nil
	case len(failed) > 0: // rank 0 knows which
		return nil, fmt.Errorf("%s could not be prepared on rank(s) %v (their message is on their standard error)", spec.Info.Name, failed)
	}
	return nil, fmt.Errorf("%s could not be prepared on %d other rank(s)", spec.Info.Name, n)
}
