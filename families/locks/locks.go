// Package locks is the MPI locks and shared counters (their operations, ops.go, and
// kernels, kernels/: Lock_Held, Lock_Contention, the counters) and the held lock's part
// in the runner (Lock_Held, Shmem_Lock_Held): the holder's busy hold, calibrated on the
// holder, and whether the waiters waited for it; and the setting lock_hold
// (settings.go), which OpenSHMEM's held lock takes too.
package locks

import (
	"math"

	_ "github.com/skampi/skampi/families/locks/kernels" // the kernels' table

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name:    "held lock",
		Has:     func(op ops.Info) bool { return op.LockHold },
		Prepare: prepare,
		Record:  holdFields,
	})
}

// holdShare: the waiters must wait at least this share of the hold, or the lock was
// not held as long as asked (the "go" message takes a little of it).
const holdShare = 0.5

// prepare calibrates the busy hold on its holder (rank 0 of the communicator) and sets
// the spin count, the same on every rank.
func prepare(r *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
	w, holder := r.World, pt.Ranks[0]
	ns := 0.0
	if w.Rank() == holder {
		ns = w.CalibrateSpin()
	}
	vals, err := w.Gather(ns)
	if err != nil {
		return err
	}
	spin := int64(0)
	if w.Rank() == 0 && vals[holder] > 0 {
		spin = int64(math.Round(holdOf(pt.Settings()).Seconds() * 1e9 / vals[holder]))
	}
	if spin, err = w.Bcast(spin); err == nil {
		spec.SetParam(ops.ParamHoldSpin, float64(spin))
	}
	return err
}

// holdFields records the hold, and flags a point whose waiters did not wait for it.
func holdFields(p *record.Point, pt *inputs.Point, _ any) {
	hold := holdOf(pt.Settings()).Seconds()
	p.HoldS = &hold
	if p.Reps > 0 && p.TimeS < holdShare*hold {
		p.AddFlag(record.FlagLockNotHeld)
	}
}
