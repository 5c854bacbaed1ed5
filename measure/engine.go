// Package measure is the engine: it repeats an operation under a stop rule, reduces
// the per-rank times of each repetition, and summarises them. It is pure Go; the
// operations and the communicator come from ops/* through the interfaces below.
package measure

import (
	"fmt"
	"math"
	"time"
)

// Reduce says how the per-rank times of one repetition become the repetition's time.
type Reduce int

const (
	// ReduceFirst takes the time measured by the first rank of the pair (the initiator),
	// SKaMPI's convention for point-to-point operations.
	ReduceFirst Reduce = iota
	// ReduceMax takes the slowest participating rank: the operation is done when the
	// last process is done.
	ReduceMax
	// ReduceMean takes the mean over the participating ranks: OSU's collective
	// benchmarks print the ranks' average (each rank's own mean per call).
	ReduceMean
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
	// take part, or when slot was given and the repetition started after slot.Start
	// (it is then invalid).
	Run(iters int, slot Slot) (float64, error)
}

// Slot is when a repetition must run, on this rank's local clock (seconds of the
// timer the operations use); the zero Slot means "start now". Barrier asks the
// operation to meet every rank of the job in a barrier first, inside its own call, so
// nothing runs between the barrier and the timer.
type Slot struct {
	Start   float64
	Barrier bool
}

// Syncer decides when each repetition starts (package repsync implements it).
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
	Reduce       Reduce
	Stop         StopRule
	Warmup       int           // repetitions run and thrown away first
	Iterations   int           // operations per repetition; 0 = calibrate to RepTime
	RepTime      time.Duration // target repetition length when calibrating
	Sync         Syncer
	// CalibrateOnWall: the operation's time is one call of a longer step (the rest
	// untimed, a partner late by a delay), so "auto" iterations are calibrated on how
	// long a repetition's steps take, not on the time they report.
	CalibrateOnWall bool
	// StopScale > 0: a measurement (or a difference, MeasureDifference) has converged
	// when its standard error is MaxRelStderr of this many seconds, not of its own
	// value: a part near zero (the wait after an eager send) has no useful relative
	// error, but one against the operation it is a part of.
	StopScale float64
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
	Subtracted *float64 // seconds taken off every sample (the subtraction method); nil: none
	// SubtractedStderr is the standard error of Subtracted (0: taken off as a
	// constant); Stderr already includes it.
	SubtractedStderr float64
	// TaskTimes: a per-task method, every task's time (set by the caller).
	TaskTimes []float64
	// Transient: valid repetitions dropped as a transient before the rest converged
	// (steady.go); Unsteady: why the samples were still not steady when the point
	// stopped ("" when they were).
	Transient int
	Unsteady  string
}

// Measure runs one point on every rank; the Result is returned on rank 0 and nil
// elsewhere. All decisions are taken by rank 0 and broadcast, so every rank runs the
// same number of repetitions with the same iteration count.
func Measure(c Comm, op Op, t Task) (*Result, error) {
	start := time.Now()
	s := newSeries(t, 0)
	iters, err := warmUp(c, op, t, start, s)
	if err != nil {
		return nil, err
	}
	s.iters = iters
	verdict, err := loop(c, func() (Verdict, error) {
		if err := s.rep(c, op, t); err != nil {
			return Continue, err
		}
		if s.overran(t.Stop) {
			return Overrun, nil
		}
		judge := func() Verdict {
			return t.Stop.judgeAfter(len(s.samples), s.dropped, s.discarded, time.Since(start), func() (float64, float64) {
				if t.StopScale > 0 {
					return t.StopScale, Summarize(s.samples).Stderr
				}
				sum := Summarize(s.samples)
				return sum.Time, sum.Stderr
			})
		}
		limit := func() Verdict { return t.Stop.limit(len(s.samples), s.dropped, s.discarded, time.Since(start)) }
		if t.StopScale > 0 { // a part judged against its whole: its own level may be ~0
			return judge(), nil
		}
		return s.steady(judge(), t.Stop.MaxRelStderr, judge, limit), nil
	})
	if err != nil || c.Rank() != 0 {
		return nil, err
	}
	res := s.result()
	res.Verdict, res.Elapsed = verdict, time.Since(start)
	return res, nil
}

// warmUp runs the warm-up repetitions and returns the iteration count to measure
// with, the same on every rank. With calibration, warm-up goes on (a little) while the
// iteration count still moves by more than 2x: the first repetitions include
// connection set-up. It ends early, on every rank, once the point has spent its
// max_time_per_point: the measurement then runs the one repetition the time cap
// allows. s (rank 0) learns how fast a repetition can be.
func warmUp(c Comm, op Op, t Task, start time.Time, s *series) (int, error) {
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
	for w := 0; w < warm || (calibrate && w < warm+maxExtraWarmup && unsettled); w++ {
		vals, wall, err := timedRep(c, op, t.Sync, iters)
		if err != nil {
			return 0, err
		}
		next := int64(iters)
		if c.Rank() == 0 {
			if v, ok := reduce(vals, t.Participants, t.Reduce); ok {
				s.clocked(v, iters)
				if calibrate {
					per := v
					if t.CalibrateOnWall && wall/float64(iters) > per {
						per = wall / float64(iters)
					}
					next = calibrated(per, t.RepTime)
				}
			}
		}
		if c.Rank() == 0 && t.Stop.MaxTime > 0 && time.Since(start) >= t.Stop.MaxTime {
			next = -next // out of time: no more warming up
		}
		if next, err = c.Bcast(next); err != nil {
			return 0, err
		}
		if next < 0 {
			return int(-next), nil
		}
		unsettled = next > 2*int64(iters) || 2*next < int64(iters)
		iters = int(next)
	}
	return iters, nil
}

// loop runs step until rank 0's verdict, broadcast after every step, is to stop.
// step's verdict counts on rank 0 only.
func loop(c Comm, step func() (Verdict, error)) (Verdict, error) {
	for {
		verdict, err := step()
		if err != nil {
			return Continue, err
		}
		code, err := c.Bcast(int64(verdict))
		if err != nil {
			return Continue, err
		}
		if Verdict(code) != Continue {
			return Verdict(code), nil
		}
	}
}

// series is what rank 0 keeps of one operation's measured repetitions.
type series struct {
	iters     int
	samples   []float64
	perRank   [][]float64
	discarded int
	// fastest is the shortest measured time per operation so far (warm-up included),
	// last and lastPer the last repetition's whole time and time per operation: rank
	// 0's, for Overrun. Measured times, not wall time: a synchronised start's wait is
	// not the operation's.
	fastest, lastPer float64
	last             time.Duration
	// dropped: leading repetitions dropped as a transient, in drops cuts; unsteady:
	// why the samples were not steady when the stop rule was last met (steady.go).
	dropped, drops int
	unsteady       string
}

// clocked notes a valid repetition's time per operation (rank 0 judges).
func (s *series) clocked(perOp float64, iters int) {
	if !(perOp > 0) {
		return // a subtraction's part may be negative: it says nothing of speed
	}
	s.lastPer, s.last = perOp, time.Duration(perOp*float64(iters)*float64(time.Second))
	if s.fastest == 0 || perOp < s.fastest {
		s.fastest = perOp
	}
}

// overran says whether the last repetition ran so much longer than the fastest that
// the point's repetitions end (StopRule.Overrun). Compared per operation: no product
// of iterations can overflow.
func (s *series) overran(r StopRule) bool {
	return r.Overrun > 0 && s.last > r.Overrun && s.lastPer > OverrunFactor*s.fastest
}

func newSeries(t Task, iters int) *series {
	return &series{iters: iters, perRank: make([][]float64, len(t.Participants))}
}

// rep runs one repetition and, on rank 0, keeps its time or counts it as discarded.
func (s *series) rep(c Comm, op Op, t Task) error {
	vals, err := rep(c, op, t.Sync, s.iters)
	if err != nil || c.Rank() != 0 {
		return err
	}
	v, ok := reduce(vals, t.Participants, t.Reduce)
	if ok {
		s.clocked(v, s.iters)
		s.samples = append(s.samples, v)
		for i, r := range t.Participants {
			s.perRank[i] = append(s.perRank[i], vals[r])
		}
	} else {
		s.discarded++
	}
	if a, adapts := t.Sync.(Adapter); adapts {
		a.After(ok)
	}
	return nil
}

// result summarises the series (rank 0).
func (s *series) result() *Result {
	res := &Result{Iterations: s.iters, Samples: s.samples, Discarded: s.discarded, Transient: s.dropped, Unsteady: s.unsteady,
		Summary: Summarize(s.samples), RankTime: make([]float64, len(s.perRank))}
	for i, xs := range s.perRank {
		res.RankTime[i] = Summarize(xs).Time
	}
	return res
}

// rep runs one synchronised repetition and gathers every rank's time at rank 0.
func rep(c Comm, op Op, s Syncer, iters int) ([]float64, error) {
	vals, _, err := timedRep(c, op, s, iters)
	return vals, err
}

// timedRep is rep that also returns how long this rank's steps took (seconds, the
// synchronisation before them and the gather after excluded).
func timedRep(c Comm, op Op, s Syncer, iters int) ([]float64, float64, error) {
	var slot Slot
	if s != nil {
		var err error
		if slot, err = s.Before(); err != nil {
			return nil, 0, fmt.Errorf("synchronising: %w", err)
		}
	}
	t0 := time.Now()
	v, err := op.Run(iters, slot)
	wall := time.Since(t0).Seconds()
	if err != nil {
		return nil, 0, err
	}
	vals, err := c.Gather(v)
	return vals, wall, err
}

// reduce turns the gathered per-rank times into the repetition's time. A repetition
// where a participant reports no valid time (NaN, infinite) is invalid. A negative time
// is valid: a subtraction method can produce one, and it is kept and flagged.
func reduce(vals []float64, participants []int, how Reduce) (float64, bool) {
	if len(participants) == 0 {
		return 0, false
	}
	out, sum := math.Inf(-1), 0.0
	for i, r := range participants {
		if r < 0 || r >= len(vals) {
			return 0, false
		}
		v := vals[r]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false
		}
		switch {
		case how == ReduceFirst && i == 0:
			out = v
		case how == ReduceMax && v > out:
			out = v
		}
		sum += v
	}
	if how == ReduceMean {
		return sum / float64(len(participants)), true
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
