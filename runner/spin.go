package runner

import (
	"math"
	"time"
)

// Busy computations (a late partner's wait, a halo step's computation, a held lock, a
// busy target) are spin loops counted at each rank's own rate, calibrated here for the
// families that ask for them.

// SpinFor calibrates a busy computation of d on this rank and returns its spin count
// here (0: none).
func (r *Runner) SpinFor(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	ns := r.World.CalibrateSpin()
	if !(ns > 0) {
		return 0
	}
	return int64(math.Round(d.Seconds() * 1e9 / ns))
}

// BusySpin calibrates a busy computation of target seconds on this rank and returns
// its spin count here, at least 1: each rank counts at its own rate, short ones
// calibrated at their own length.
func (r *Runner) BusySpin(target float64) int64 {
	ns := r.World.CalibrateSpin()
	if !(ns > 0) {
		return 1
	}
	return max(1, r.World.SpinFor(target, ns))
}
