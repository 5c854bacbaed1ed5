package job

import (
	"fmt"
	"time"

	"github.com/skampi/skampi/clocksync"
)

// Bounds of a clock check's schedule: every check is a round of ping-pongs with every
// rank that all ranks make together, so their number is fixed before the first, and
// one takes about a millisecond.
const (
	minCheckInterval = time.Millisecond
	maxChecks        = 10000
)

// Valid says why a clock check cannot be run as asked: an unknown algorithm, or a
// schedule (Duration, Interval) that would not end in reasonable time.
func (o ClockOptions) Valid() error {
	if _, err := clocksync.New(o.Algorithm); err != nil {
		return err
	}
	return checkSchedule(o.Duration, o.Interval)
}

// checkSchedule says why --duration and --interval cannot be run as asked.
func checkSchedule(duration, interval time.Duration) error {
	switch {
	case duration < 0:
		return fmt.Errorf("--duration must be 0 or more, got %v", duration)
	case interval < minCheckInterval:
		return fmt.Errorf("--interval must be at least %v (a check is a round of ping-pongs with every rank), got %v", minCheckInterval, interval)
	case duration/interval+1 > maxChecks:
		return fmt.Errorf("--interval %v over --duration %v makes %d checks, at most %d: raise --interval or shorten --duration", interval, duration, duration/interval+1, maxChecks)
	}
	return nil
}
