package runner

import (
	"math"
	"time"

	"github.com/skampi/skampi/inputs"
)

// lockHold calibrates Lock_Held's busy hold on its holder (rank 0 of the
// communicator) and returns the spin count, the same on every rank.
func (r *Runner) lockHold(pt *inputs.Point) (int64, error) {
	w, holder := r.World, pt.Ranks[0]
	ns := 0.0
	if w.Rank() == holder {
		ns = w.CalibrateSpin()
	}
	vals, err := w.Gather(ns)
	if err != nil {
		return 0, err
	}
	spin := int64(0)
	if w.Rank() == 0 && vals[holder] > 0 {
		spin = int64(math.Round(pt.Settings().LockHold.Seconds() * 1e9 / vals[holder]))
	}
	return w.Bcast(spin)
}

// delaySpin calibrates the late partner's busy wait (the setting delay) on this rank
// and returns its spin count here: each rank counts at its own rate.
func (r *Runner) delaySpin(pt *inputs.Point) int64 { return r.spinFor(pt.Settings().Delay) }

// spinFor calibrates a busy computation of d on this rank and returns its spin count
// here (a halo step's computation, a late partner's wait).
func (r *Runner) spinFor(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	ns := r.World.CalibrateSpin()
	if !(ns > 0) {
		return 0
	}
	return int64(math.Round(d.Seconds() * 1e9 / ns))
}

// busySpin calibrates a busy passive target's computation (the setting target_busy)
// on this rank and returns its spin count here, at least 1: each rank counts at its
// own rate (only the target's is used), short ones calibrated at their own length.
func (r *Runner) busySpin(target float64) int64 {
	ns := r.World.CalibrateSpin()
	if !(ns > 0) {
		return 1
	}
	return max(1, r.World.SpinFor(target, ns))
}
