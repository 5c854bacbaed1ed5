package runner

import (
	"math"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
)

// holdShare: Lock_Held's waiters must wait at least this share of the hold, or the
// lock was not held as long as asked (the "go" message takes a little of it).
const holdShare = 0.5

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

// onesidedFields records the window kind, and for Lock_Held the hold and whether the
// waiters waited for it.
func onesidedFields(pt *inputs.Point, p *record.Point) {
	op, s := pt.Op(), pt.Settings()
	if op.OneSided {
		p.RMAWindow = s.RMAWindow
	}
	if op.LockHold {
		hold := s.LockHold.Seconds()
		p.HoldS = &hold
		if p.Reps > 0 && p.TimeS < holdShare*hold {
			p.AddFlag(record.FlagLockNotHeld)
		}
	}
}
