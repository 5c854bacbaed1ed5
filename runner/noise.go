package runner

import (
	"math"
	"syscall"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
)

// A point is noisy when a participating rank's MPI thread was preempted at least
// noisyMin times AND was off its core for at least noisyOffCPU of the point's wall
// time: another process then ran in its place for much of the point, enough to move
// a part measured apart, or one point against the next. The count alone says
// nothing: on a quiet 2-core machine a spinning rank is preempted 10-20 times in a
// 10 ms point (its own process's helper threads waking), ~1,700 times a second, more
// often than under stress-ng (~130 a second, in points that take far longer); what a
// loaded machine takes is the core's time. Measured here (pt2pt at np 2, 408 points):
// quiet, off its core 12 % of a point at the median, 47 % at most; under stress-ng
// --cpu 4, 66-70 %; 4 ranks on the 2 cores, 50-92 %.
const (
	noisyMin    = 3
	noisyOffCPU = 0.5
)

// threadUsage is what the kernel says of the calling thread (the rank's MPI thread,
// to which the runner's goroutine is locked; Go's helper threads do not count): its
// involuntary context switches and its CPU time. ok is false where it cannot tell.
type threadUsage struct {
	switches, cpuS float64
	ok             bool
}

func usageNow() threadUsage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return threadUsage{}
	}
	cpu := float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	return threadUsage{switches: float64(ru.Nivcsw), cpuS: cpu, ok: true}
}

// noiseSince is the one number agree gathers for the point: the switches since u,
// plus the fraction of wallS this thread was off its core (below 1), so rank 0 gets
// both in the gather it makes anyway; -1: not known.
func noiseSince(u threadUsage, wallS float64) float64 {
	now := usageNow()
	if !u.ok || !now.ok || now.switches < u.switches || wallS <= 0 {
		return -1
	}
	off := 1 - (now.cpuS-u.cpuS)/wallS
	return now.switches - u.switches + math.Min(math.Max(off, 0), 0.999)
}

// noiseFields records the most preemptions a participating rank had during the point
// and the largest share of the point it spent off its core (noise by world rank, as
// agree gathered it; nil: not known), and flags the point noisy when one rank had
// both many preemptions and much time off its core.
func noiseFields(p *record.Point, pt *inputs.Point, noise []float64) {
	most, off, noisy := -1.0, -1.0, false
	for _, rank := range pt.Ranks {
		if rank < 0 || rank >= len(noise) || noise[rank] < 0 {
			continue
		}
		n := math.Floor(noise[rank])
		f := noise[rank] - n
		most, off = math.Max(most, n), math.Max(off, f)
		noisy = noisy || n >= noisyMin && f >= noisyOffCPU
	}
	if most < 0 {
		return
	}
	n := int64(most)
	p.Preemptions = &n
	off = math.Round(off*1000) / 1000
	p.OffCPU = &off
	if noisy {
		p.AddFlag(record.FlagNoisy)
	}
}
