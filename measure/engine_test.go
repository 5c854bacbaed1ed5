package measure

import (
	"errors"
	"math"
	"testing"
	"time"
)

// fakeComm plays rank 0 of a job whose other ranks' times come from the op.
type fakeComm struct {
	size    int
	pending []float64
	bcasts  []int64
}

func (c *fakeComm) Rank() int { return 0 }
func (c *fakeComm) Size() int { return c.size }
func (c *fakeComm) Gather(v float64) ([]float64, error) {
	out := c.pending
	c.pending = nil
	return out, nil
}
func (c *fakeComm) Bcast(v int64) (int64, error) { c.bcasts = append(c.bcasts, v); return v, nil }

// fakeOp returns scripted per-rank times per repetition.
type fakeOp struct {
	c     *fakeComm
	times func(rep, iters int) []float64
	reps  int
	iters []int
	err   error
}

func (o *fakeOp) Run(iters int, _ Slot) (float64, error) {
	if o.err != nil {
		return 0, o.err
	}
	o.iters = append(o.iters, iters)
	o.c.pending = o.times(o.reps, iters)
	o.reps++
	return o.c.pending[0], nil
}

type countSync struct{ n int }

func (s *countSync) Before() (Slot, error) { s.n++; return Slot{}, nil }

func TestMeasureReducesAndStops(t *testing.T) {
	c := &fakeComm{size: 3}
	op := &fakeOp{c: c, times: func(rep, _ int) []float64 {
		// rank 2 is idle (NaN); rank 1 is always slower.
		return []float64{1e-6, 2e-6, math.NaN()}
	}}
	sy := &countSync{}
	res, err := Measure(c, op, Task{
		Participants: []int{0, 1}, Reduce: ReduceMax,
		Stop:   StopRule{Min: 5, Max: 20, MaxRelStderr: 0.01, MaxTime: time.Minute, MaxDiscarded: 5},
		Warmup: 2, Iterations: 7, Sync: sy,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Converged || res.N != 5 || res.Time != 2e-6 {
		t.Fatalf("verdict %v n %d time %v", res.Verdict, res.N, res.Time)
	}
	if res.RankTime[0] != 1e-6 || res.RankTime[1] != 2e-6 {
		t.Errorf("per-rank %v", res.RankTime)
	}
	if op.reps != 7 || sy.n != 7 { // 2 warm-up + 5 measured, each synchronised
		t.Errorf("ran %d reps, synced %d", op.reps, sy.n)
	}
	for _, it := range op.iters {
		if it != 7 {
			t.Fatalf("fixed iterations changed: %v", op.iters)
		}
	}
	first := &fakeOp{c: c, times: func(int, int) []float64 { return []float64{1e-6, 2e-6, math.NaN()} }}
	res, _ = Measure(c, first, Task{Participants: []int{0, 1}, Reduce: ReduceFirst,
		Stop: StopRule{Min: 2, Max: 2, MaxRelStderr: 0.5, MaxTime: time.Minute}, Iterations: 1})
	if res.Time != 1e-6 {
		t.Errorf("ReduceFirst time %v", res.Time)
	}
}

func TestMeasureCalibratesIterations(t *testing.T) {
	c := &fakeComm{size: 2}
	op := &fakeOp{c: c, times: func(rep, iters int) []float64 {
		if rep == 0 { // connection set-up makes the first repetition slow
			return []float64{1e-3, 1e-3}
		}
		return []float64{1e-6, 1e-6}
	}}
	res, err := Measure(c, op, Task{Participants: []int{0, 1}, Reduce: ReduceFirst,
		Stop:   StopRule{Min: 3, Max: 3, MaxRelStderr: 0.5, MaxTime: time.Minute},
		Warmup: 1, RepTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations != 1000 {
		t.Errorf("calibrated to %d iterations, want 1000 (1 ms / 1 µs); runs %v", res.Iterations, op.iters)
	}
	if op.iters[0] != 1 || op.iters[1] != 1 {
		t.Errorf("calibration should start at 1 and go on while unsettled: %v", op.iters)
	}
}

// A call timed alone inside a longer step (a late partner's delay untimed) reports
// 1 µs per step while each step takes 200 µs: calibrating on the reported time would
// run 10,000 steps (2 s) per repetition for a 10 ms target.
func TestMeasureCalibratesOnWallTime(t *testing.T) {
	c := &fakeComm{size: 2}
	op := &fakeOp{c: c, times: func(rep, iters int) []float64 {
		time.Sleep(time.Duration(iters) * 200 * time.Microsecond)
		return []float64{1e-6, 1e-6}
	}}
	res, err := Measure(c, op, Task{Participants: []int{0, 1}, Reduce: ReduceFirst,
		Stop:   StopRule{Min: 2, Max: 2, MaxRelStderr: 0.5, MaxTime: time.Minute},
		Warmup: 1, RepTime: 10 * time.Millisecond, CalibrateOnWall: true})
	if err != nil {
		t.Fatal(err)
	}
	// Sleeps last at least what they ask (more on a loaded machine): at most 50 steps.
	if res.Iterations < 1 || res.Iterations > 50 {
		t.Errorf("calibrated to %d iterations, want at most 50 (10 ms / 200 µs); runs %v", res.Iterations, op.iters)
	}
	if res.Time != 1e-6 {
		t.Errorf("the reported time is the call's: %v", res.Time)
	}
}

func TestMeasureDiscardsInvalidAndCaps(t *testing.T) {
	c := &fakeComm{size: 2}
	op := &fakeOp{c: c, times: func(rep, _ int) []float64 {
		if rep%2 == 1 {
			return []float64{math.NaN(), 1e-6} // an invalid repetition
		}
		return []float64{1e-6 * float64(rep+1), 1e-6}
	}}
	res, err := Measure(c, op, Task{Participants: []int{0, 1}, Reduce: ReduceFirst,
		Stop:       StopRule{Min: 100, Max: 100, MaxRelStderr: 0.01, MaxTime: time.Minute, MaxDiscarded: 3},
		Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != DiscardCap || res.Discarded != 4 || res.N != 4 {
		t.Errorf("verdict %v discarded %d n %d", res.Verdict, res.Discarded, res.N)
	}
}

func TestMeasureError(t *testing.T) {
	c := &fakeComm{size: 2}
	boom := errors.New("MPI_Send: boom")
	_, err := Measure(c, &fakeOp{c: c, err: boom}, Task{Participants: []int{0, 1}, Iterations: 1,
		Stop: StopRule{Min: 1, Max: 1, MaxTime: time.Minute}})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
}

// With a StopScale a measurement converges against the scale, not its own value: a
// time of 1±1 (relative error 100 %) is done once its error is 5 % of 10.
func TestMeasureStopScale(t *testing.T) {
	c := &fakeComm{size: 2}
	var log []string
	task := Task{Participants: []int{0, 1}, Reduce: ReduceMax, Iterations: 1, Warmup: 1,
		Stop: StopRule{Min: 4, Max: 100_000, MaxRelStderr: 0.05, MaxTime: time.Minute, MaxDiscarded: 10}, StopScale: 10}
	res, err := Measure(c, alternating(c, &log, "op", 1, 1), task)
	if err != nil {
		t.Fatal(err)
	}
	// 2/sqrt(n) <= 0.5 near n = 16; without the scale, 1±1 needs thousands.
	if res.Verdict != Converged || res.N < 12 || res.N > 24 || res.Stderr > 0.5 {
		t.Errorf("verdict %v, n %d, stderr %v", res.Verdict, res.N, res.Stderr)
	}
}

// sleepOp is an operation whose repetitions take real time: delay(rep) each.
type sleepOp struct {
	c     *fakeComm
	delay func(rep int) time.Duration
	reps  int
}

func (o *sleepOp) Run(iters int, _ Slot) (float64, error) {
	d := o.delay(o.reps)
	o.reps++
	time.Sleep(d)
	v := d.Seconds() / float64(iters)
	o.c.pending = []float64{v, v}
	return v, nil
}

// max_time_per_point holds inside warm-up: a point out of time after its warm-up
// measures one repetition and stops by the time cap, with that sample.
func TestWarmUpStopsAtTheTimeCap(t *testing.T) {
	c := &fakeComm{size: 2}
	op := &sleepOp{c: c, delay: func(int) time.Duration { return 30 * time.Millisecond }}
	res, err := Measure(c, op, Task{Participants: []int{0, 1}, Reduce: ReduceMax,
		Stop:   StopRule{Min: 5, Max: 100, MaxRelStderr: 1e-9, MaxTime: 50 * time.Millisecond, MaxDiscarded: 5},
		Warmup: 50, Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if op.reps > 4 || res.Verdict != TimeCap || res.N != 1 {
		t.Errorf("%d repetitions (50 warm-up asked), verdict %v, %d samples", op.reps, res.Verdict, res.N)
	}
}

// A repetition far slower than the fastest and longer than Overrun ends the point's
// repetitions with its samples; a slow one under the bound does not.
func TestOverrunEndsTheRepetitions(t *testing.T) {
	c := &fakeComm{size: 2}
	slowFrom := func(n int, d time.Duration) func(int) time.Duration {
		return func(rep int) time.Duration {
			if rep >= n {
				return d
			}
			return time.Millisecond
		}
	}
	task := Task{Participants: []int{0, 1}, Reduce: ReduceMax, Warmup: 1, Iterations: 10,
		Stop: StopRule{Min: 5, Max: 8, MaxRelStderr: 1e-9, MaxTime: time.Minute, MaxDiscarded: 5, Overrun: 20 * time.Millisecond}}
	op := &sleepOp{c: c, delay: slowFrom(4, 200*time.Millisecond)}
	res, err := Measure(c, op, task)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Overrun || res.N != 4 || op.reps != 5 {
		t.Errorf("verdict %v, %d samples, %d repetitions", res.Verdict, res.N, op.reps)
	}
	// As slow, but shorter than Overrun: the point runs to max_repetitions.
	op = &sleepOp{c: c, delay: slowFrom(4, 200*time.Millisecond)}
	task.Stop.Overrun, task.Stop.Max = time.Second, 6
	if res, err = Measure(c, op, task); err != nil || res.Verdict != MaxReps || res.N != 6 {
		t.Errorf("verdict %v, %d samples, %v", res.Verdict, res.N, err)
	}
}

// The ranks' mean (OSU's collectives) is over the participants only; an invalid rank
// time invalidates the repetition as for the other reductions.
func TestReduceMean(t *testing.T) {
	if v, ok := reduce([]float64{1, 3, math.NaN()}, []int{0, 1}, ReduceMean); !ok || v != 2 {
		t.Errorf("mean of 1 and 3: %v %v", v, ok)
	}
	if _, ok := reduce([]float64{1, math.NaN()}, []int{0, 1}, ReduceMean); ok {
		t.Error("a NaN among the participants: valid")
	}
	if v, _ := reduce([]float64{1, 3}, []int{0, 1}, ReduceMax); v != 3 {
		t.Errorf("max of 1 and 3: %v", v)
	}
}
