package runner

import (
	"math"

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
