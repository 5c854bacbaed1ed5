// Package measure is the engine: it repeats an operation under a stop rule, reduces
// the per-rank times of each repetition, and summarises them. It is pure Go; the
// operations and the communicator come from ops/* through the interfaces below.
package measure

import (
	"fmt"
	"math"
	"time"

	"github.com/skampi/skampi/ops"
)

// Comm is what the engine needs from the communicator all ranks share.
type Comm interface {
	Rank() int
	Size() int
	// Gather collects one value from every rank at rank 0 (nil on other ranks).
	Gather(v float64) ([]float64, error)
	// Bcast distributes rank 0's value to every rank.
	Bcast(v int64) (int64, error)
}

// Op is one operation at one message size, ready to run on this rank.
type Op interface {
	// Run executes iters operations inside one call into the library's language and
	// returns this rank's time per operation in seconds; NaN when this rank does not
	// take part, or when slot was given and the repetition started after slot.Start or
	// ended after slot.Stop (it is then invalid).
	Run(iters int, slot Slot) (float64, error)
}

// Slot is when a repetition must run, on this rank's local clock (seconds of the
// timer the operations use); the zero Slot means "start now".
type Slot struct{ Start, Stop float64 }

// Syncer decides when each repetition starts (package sync implements it).
type Syncer interface {
	Before() (Slot, error)
}

// Adapter is a Syncer that learns from each repetition's validity (told on rank 0).
type Adapter interface {
	After(valid bool)
}

// Task is everything the engine needs to know about one point.
type Task struct {
	Participants []int // ranks whose times count, initiator first
	Reduce       ops.Reduce
	Stop         StopRule
	Warmup       int           // repetitions run and thrown away first
	Iterations   int           // operations per repetition; 0 = calibrate to RepTime
	RepTime      time.Duration // target repetition length when calibrating
	Sync         Syncer
}

// maxIterations bounds calibration: a repetition of a nanosecond operation is long
// enough well before this.
const maxIterations = 1 << 20

// maxExtraWarmup bounds the repetitions calibration may add to the warm-up.
const maxExtraWarmup = 8

// Result is the outcome of one point, known on rank 0 only.
type Result struct {
	Summary
	Samples    []float64 // valid repetition times, in order
	RankTime   []float64 // per participant: mean of the middle half of its own times
	Discarded  int
	Iterations int
	Verdict    Verdict
	Elapsed    time.Duration
	Subtracted *float64  // seconds taken off every sample (the subtraction method); nil: none
	TaskTimes  []float64 // a per-task method: every task's time (set by the caller)
}

// Measure runs one point on every rank; the Result is returned on rank 0 and nil
// elsewhere. All decisions are taken by rank 0 and broadcast, so every rank runs the
// same number of repetitions with the same iteration count.
func Measure(c Comm, op Op, t Task) (*Result, error) {
	root := c.Rank() == 0
	start := time.Now()
	iters := t.Iterations
	calibrate := iters == 0
	if calibrate {
		iters = 1
	}
	unsettled := false
	warm := t.Warmup
	if calibrate && warm < 2 {
		warm = 2 // the first repetition includes connection set-up: calibrate on a later one
	}
	// With calibration, warm-up goes on (a little) while the iteration count still
	// moves by more than 2x: the first repetitions include connection set-up.
	for w := 0; w < warm || (calibrate && w < warm+maxExtraWarmup && unsettled); w++ {
		vals, err := rep(c, op, t.Sync, iters)
		if err != nil {
			return nil, err
		}
		next := int64(iters)
		if root && calibrate {
			if v, ok := reduce(vals, t.Participants, t.Reduce); ok {
				next = calibrated(v, t.RepTime)
			}
		}
		if next, err = c.Bcast(next); err != nil {
			return nil, err
		}
		unsettled = next > 2*int64(iters) || 2*next < int64(iters)
		iters = int(next)
	}
	res := &Result{Iterations: iters}
	perRank := make([][]float64, len(t.Participants))
	for {
		vals, err := rep(c, op, t.Sync, iters)
		if err != nil {
			return nil, err
		}
		verdict := Continue
		if root {
			v, ok := reduce(vals, t.Participants, t.Reduce)
			if ok {
				res.Samples = append(res.Samples, v)
				for i, r := range t.Participants {
					perRank[i] = append(perRank[i], vals[r])
				}
			} else {
				res.Discarded++
			}
			if a, adapts := t.Sync.(Adapter); adapts {
				a.After(ok)
			}
			verdict = t.Stop.Decide(res.Samples, res.Discarded, time.Since(start))
		}
		code, err := c.Bcast(int64(verdict))
		if err != nil {
			return nil, err
		}
		if Verdict(code) != Continue {
			res.Verdict = Verdict(code)
			break
		}
	}
	if !root {
		return nil, nil
	}
	res.Elapsed = time.Since(start)
	res.Summary = Summarize(res.Samples)
	res.RankTime = make([]float64, len(perRank))
	for i, xs := range perRank {
		res.RankTime[i] = Summarize(xs).Time
	}
	return res, nil
}

// rep runs one synchronised repetition and gathers every rank's time at rank 0.
func rep(c Comm, op Op, s Syncer, iters int) ([]float64, error) {
	var slot Slot
	if s != nil {
		var err error
		if slot, err = s.Before(); err != nil {
			return nil, fmt.Errorf("synchronising: %w", err)
		}
	}
	v, err := op.Run(iters, slot)
	if err != nil {
		return nil, err
	}
	return c.Gather(v)
}

// reduce turns the gathered per-rank times into the repetition's time. A repetition
// where a participant reports no valid time (NaN, infinite) is invalid. A negative time
// is valid: a subtraction method can produce one, and it is kept and flagged.
func reduce(vals []float64, participants []int, how ops.Reduce) (float64, bool) {
	if len(participants) == 0 {
		return 0, false
	}
	out := math.Inf(-1)
	for i, r := range participants {
		if r < 0 || r >= len(vals) {
			return 0, false
		}
		v := vals[r]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false
		}
		switch {
		case how == ops.ReduceFirst && i == 0:
			out = v
		case how == ops.ReduceMax && v > out:
			out = v
		}
	}
	return out, true
}

// calibrated picks the iteration count that makes a repetition last about target,
// given one operation takes perOp seconds.
func calibrated(perOp float64, target time.Duration) int64 {
	if !(perOp > 0) {
		return maxIterations
	}
	n := math.Ceil(target.Seconds()/perOp - 1e-9) // 1e-3/1e-6 is 1000.0000000000001
	return int64(max(1, min(n, maxIterations)))
}

// Subtract takes s seconds off every sample and per-rank time (the subtraction method:
// a part measured on its own is removed from the whole) and recomputes the summary. A
// result that goes negative stays negative: the caller flags it.
func (r *Result) Subtract(s float64) {
	if r.N == 0 {
		return // nothing to take it from: the point has no valid repetition
	}
	for i := range r.Samples {
		r.Samples[i] -= s
	}
	for i := range r.RankTime {
		r.RankTime[i] -= s
	}
	total := s
	if r.Subtracted != nil {
		total += *r.Subtracted
	}
	r.Subtracted = &total
	r.Summary = Summarize(r.Samples)
}
