// Package mt is the multi-threaded family's part in the runner: the threads of a
// point's request, what they did (gathered to rank 0), and their record fields.
package mt

import (
	"fmt"
	"unsafe"

	"github.com/skampi/skampi/families/mt/kernels"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name:     "multi-threaded",
		Has:      func(op ops.Info) bool { return op.Threaded },
		Prepare:  prepare,
		Measured: noteThreads,
		Record:   threadFields,
	})
}

// The numbers the kernels read by name (kernels/mt_steps.c's mt_params).
const (
	paramThreads    = "threads"     // threads per rank
	paramThreadTags = "thread_tags" // 1: the threads share the pair's communicator, a tag each (else one each)
	paramThreadPin  = "thread_pin"  // 1: each thread pinned to a CPU of the rank's set
)

// prepare sets the threads of a multi-threaded point's request: per rank, their
// communicators (1:N threads share one communicator and its tags) and pinning.
func prepare(_ *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
	s := pt.Settings()
	b := map[bool]float64{true: 1}
	spec.SetParam(paramThreads, float64(threads(s)))
	spec.SetParam(paramThreadPin, b[pinning(s) == "core"])
	// 1:N threads share the pair's communicator whatever thread_comm says.
	spec.SetParam(paramThreadTags, b[pt.Op().OneToN || comm(s) == "tag"])
	return nil
}

// threadStater is an operation that says itself what its threads did (the runner's
// tests' fake): the mean thread's time over the slowest's, and the CPU each thread
// last ran on.
type threadStater interface {
	ThreadStats() (meanRatio, spanRatio float64, cpus []int)
}

// threadStats is what op's threads did on this rank: read from its C context (an
// ops/mpi operation, mpi.Op.Ctx) by the family's kernels, or as op says.
func threadStats(op runner.Op) (meanRatio, spanRatio float64, cpus []int) {
	switch o := op.(type) {
	case threadStater:
		return o.ThreadStats()
	case interface{ Ctx() unsafe.Pointer }:
		return kernels.ThreadStats(o.Ctx())
	}
	return 0, 0, nil
}

// threadNote is what a multi-threaded point's threads did, for its record.
type threadNote struct {
	meanRatio float64 // the initiator's mean thread over its slowest, over the runs
	spanRatio float64 // its threads' span (earliest start to latest end) over its slowest
	cpus      [][]int // per rank of the pair, initiator first: each thread's last CPU
}

// noteThreads brings what the threads of a multi-threaded operation did on the pair's
// ranks to rank 0, for the point's record; every rank calls it after the repetitions.
func noteThreads(r *runner.Runner, op runner.Op, spec ops.Request) (any, error) {
	ratio, span, cpus := threadStats(op)
	ratios, err := r.World.Gather(ratio)
	if err != nil {
		return nil, fmt.Errorf("gathering the threads' times: %w", err)
	}
	spans, err := r.World.Gather(span)
	if err != nil {
		return nil, fmt.Errorf("gathering the threads' times: %w", err)
	}
	per := make([][]float64, int(spec.Params[paramThreads]))
	for i := range per {
		v := -1.0
		if i < len(cpus) {
			v = float64(cpus[i])
		}
		if per[i], err = r.World.Gather(v); err != nil {
			return nil, fmt.Errorf("gathering the threads' CPUs: %w", err)
		}
	}
	if r.World.Rank() != 0 {
		return nil, nil
	}
	n := &threadNote{}
	if ini := spec.Pair[0]; ini >= 0 && ini < len(ratios) && ini < len(spans) {
		n.meanRatio, n.spanRatio = ratios[ini], spans[ini]
	}
	for k, rank := range spec.Pair {
		row := make([]int, len(per))
		if k == 0 && spec.Info.OneToN {
			row = row[:min(1, len(row))] // 1:N: the initiator's one thread
		}
		for i := range row {
			row[i] = -1
			if rank >= 0 && rank < len(per[i]) {
				row[i] = int(per[i][rank])
			}
		}
		n.cpus = append(n.cpus, row)
	}
	return n, nil
}

// threadFields records a multi-threaded point's threads: their count, communicators
// and pinning, the mean thread's time, the messages per second of all of them, the
// aggregate bandwidth, and the CPUs they ran on. A 1:N point (ops.Info.OneToN) has
// one communicator and no thread pairs: its count (the receivers), pinning and CPUs
// only; its time is the one sender's, whose mean and span are its own.
func threadFields(p *record.Point, pt *inputs.Point, note any) {
	op, s := pt.Op(), pt.Settings()
	n, _ := note.(*threadNote)
	p.Threads, p.ThreadPinning = threads(s), pinning(s)
	if !op.OneToN {
		p.ThreadComm = comm(s)
	}
	p.Cache, p.ColdAreaBytes = inputs.CacheWarm, 0 // every thread has buffers of its own
	p.Timer = inputs.TimerGlobalLoop               // every thread times its loop whole
	if n != nil {
		p.ThreadCPUs = n.cpus
	}
	if p.Reps == 0 || !(p.TimeS > 0) || op.OneToN {
		return
	}
	// All threads' messages over the time they took together: from the earliest
	// thread's start to the latest one's end, which is the slowest thread's time only
	// when the loops ran side by side (each starts after its own handshake).
	span := p.TimeS
	if n != nil && n.spanRatio >= 1 {
		span = p.TimeS * n.spanRatio
		p.ThreadSpanS = &span
	}
	rate := float64(threads(s)*op.MessagesPerStep(s.Window)) / span
	p.MsgsPerS = &rate
	if p.BandwidthBps != nil {
		bw := *p.BandwidthBps * float64(threads(s)) * p.TimeS / span // one thread's, as Bandwidth's
		p.BandwidthBps = &bw
	}
	if n != nil && n.meanRatio > 0 {
		mean := p.TimeS * n.meanRatio
		p.ThreadMeanS = &mean
	}
}
