package runner

import (
	"syscall"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
)

// A point is noisy when a participating rank lost its core to another process at
// least noisyMin times, and at least noisyRate times a second of the point: a
// preemption costs a scheduler's time slice (milliseconds), enough to move a part
// measured apart, or one point against the next, while a quiet machine's rare
// preemptions (its own daemons) fall out of the trimmed mean.
const (
	noisyMin  = 3
	noisyRate = 20.0 // per second
)

// involuntarySwitches is how many times the kernel has taken the calling thread's
// core from it so far: the rank's MPI thread, to which the runner's goroutine is
// locked (Go's helper threads, which only wait, do not count). -1: not known.
func involuntarySwitches() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return -1
	}
	return float64(ru.Nivcsw)
}

// noiseFields records the most preemptions a participating rank had during the point
// (switches by world rank, as agree gathered them; nil: not known) and flags the
// point noisy when they were many for its length (wallS, seconds).
func noiseFields(p *record.Point, pt *inputs.Point, switches []float64, wallS float64) {
	most := -1.0
	for _, rank := range pt.Ranks {
		if rank >= 0 && rank < len(switches) && switches[rank] > most {
			most = switches[rank]
		}
	}
	if most < 0 {
		return
	}
	n := int64(most)
	p.Preemptions = &n
	if n >= noisyMin && (wallS <= 0 || float64(n) >= noisyRate*wallS) {
		p.AddFlag(record.FlagNoisy)
	}
}
