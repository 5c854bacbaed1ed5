package locks

import (
	"fmt"
	"time"

	"github.com/skampi/skampi/inputs"
)

// settingHold: how long a held lock's holder keeps it in every step (a busy
// computation): MPI's Lock_Held and OpenSHMEM's Shmem_Lock_Held (ops.Info.LockHold).
const settingHold = "lock_hold"

func init() {
	// Listed before delay, where the core had it: skampi run --help and a one-line
	// suite's text are what they were.
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingHold,
		Doc:     "Lock_Held: how long the holder keeps the lock (default 10us)",
		Default: 10 * time.Microsecond,
		Parse: func(v any) (any, error) {
			d, err := inputs.SettingDuration(v)
			if err == nil && d.(time.Duration) > time.Second {
				err = fmt.Errorf("at most 1s, got %v: a waiter waits this long per step", d)
			}
			return d, err
		},
		Applies: func(m *inputs.Measurement) bool { return m.Op.LockHold },
		What:    "operations that hold a lock for a while (Lock_Held, Shmem_Lock_Held)",
		Bound:   boundHold,
		With:    []string{"max_time_per_point", "hang_timeout", "iterations"},
		// The waiters' step waits for the hold. (That no rank finishes a step
		// meanwhile, which the watchdog could take for a hang, is the core's check.)
		StepWait: func(m *inputs.Measurement) time.Duration {
			if m.Op.LockHold {
				return holdOf(m.Settings)
			}
			return 0
		},
		Before:   "delay",
		Recorded: []string{"hold_s"},
	})
}

// holdOf is how long the holder keeps the lock under these settings.
func holdOf(s inputs.Settings) time.Duration { return s.Value(settingHold).(time.Duration) }

// boundHold says why a lock held so long cannot be measured: every step holds it for
// lock_hold, so a repetition of `iterations` steps at or past max_time_per_point
// leaves a single repetition per point.
func boundHold(m *inputs.Measurement) string {
	s := m.Settings
	if !m.Op.LockHold {
		return ""
	}
	hold := holdOf(s)
	rep := hold * time.Duration(max(1, s.Iterations))
	switch {
	case rep >= s.MaxTime && s.Iterations > 1:
		return fmt.Sprintf("%s holds the lock for lock_hold (%v) in each of iterations = %d steps: a repetition (%v) is not shorter than max_time_per_point (%v), so a point would end after one repetition; lower lock_hold or iterations",
			m.Op.Name, hold, s.Iterations, rep, s.MaxTime)
	case rep >= s.MaxTime:
		return fmt.Sprintf("%s holds the lock for lock_hold (%v) in every step, not shorter than max_time_per_point (%v): a point would end after one repetition; lower lock_hold or raise max_time_per_point",
			m.Op.Name, hold, s.MaxTime)
	}
	return ""
}
