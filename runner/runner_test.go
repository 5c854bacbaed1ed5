package runner

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// fakeWorld is rank 0 of a job in which every participant takes 1 µs per KiB + 1 µs.
type fakeWorld struct {
	size    int
	pending []float64
	made    [][2]int // pairs the ops were built for
	kernels []string // and their kernels
	tasks   []int    // and the tasks of per-task methods
	phases  []ops.Phase
	open    int    // ops not closed yet
	fail    string // a kernel whose preparation fails
	// lacking: a kernel the library lacks (its preparation fails with ops.ErrUnsupported),
	// and how often it was asked for
	lacking string
	asked   int
	// nanPhase: the non-blocking measurement whose every repetition is invalid (0: none).
	nanPhase ops.Phase
	// overheads: the TimerOverhead of every op made (the fake's timer costs 25 ns).
	overheads []float64
	// step: from this size on (0: none) every message costs 2 µs more, as a protocol
	// switch would make it
	step int64
}

func (w *fakeWorld) Rank() int { return 0 }
func (w *fakeWorld) Size() int { return w.size }

// Gather returns the times the last operation left for every rank; any other gather
// (the agreement after a point) sees the other ranks give 0.
func (w *fakeWorld) Gather(v float64) ([]float64, error) {
	if p := w.pending; p != nil {
		w.pending = nil
		return p, nil
	}
	out := make([]float64, w.size)
	out[0] = v
	return out, nil
}
func (w *fakeWorld) Bcast(v int64) (int64, error) { return v, nil }
func (w *fakeWorld) Clock() clocksync.Exchanger   { return nil } // a single-process fake: window sync untested here
func (w *fakeWorld) Now() float64                 { return 0 }
func (w *fakeWorld) CalibrateSpin() float64       { return 0.5 }
func (w *fakeWorld) TimerOverhead() float64       { return 25e-9 }
func (w *fakeWorld) SpinFor(t, ns float64) int64  { return int64(t * 1e9 / ns) }
func (w *fakeWorld) NewOp(s ops.Request) (Op, error) {
	if s.Kernel == w.fail {
		return nil, errors.New("MPI_Allreduce: MPI_ERR_OP: invalid reduce operation")
	}
	if s.Kernel == w.lacking {
		w.asked++
		return nil, fmt.Errorf("%s: Open MPI v4.1.4 does not provide MPI_Psend_init (%w)", s.Info.Name, ops.ErrUnsupported)
	}
	w.made = append(w.made, s.Pair)
	w.kernels = append(w.kernels, s.Kernel)
	w.tasks = append(w.tasks, s.Task)
	w.phases = append(w.phases, s.Phase)
	w.overheads = append(w.overheads, s.TimerOverhead)
	w.open++
	return fakeOp{w: w, info: s.Info, bytes: s.Bytes, pair: s.Pair, task: s.Task, phase: s.Phase, spin: int64(s.Params[ops.ParamOverlapSpin]),
		iteration: s.Iteration}, nil
}

type fakeOp struct {
	w     *fakeWorld
	info  ops.Info
	bytes int64
	pair  [2]int
	task  int // a per-task method's task: 0.1 µs slower per rank
	// Non-blocking operations: of a full time b, the post takes b/4 and the wait 3b/4;
	// with the computation (spin * 0.5 ns), b/4 + b*3/20 is not hidden.
	phase     ops.Phase
	spin      int64
	iteration bool
}

func (o fakeOp) Close() error { o.w.open--; return nil }

func (o fakeOp) Run(int, measure.Slot) (float64, error) {
	vals := make([]float64, o.w.size)
	for r := range vals {
		vals[r] = 1e-6 + float64(o.bytes)/1024*1e-6 + float64(o.task)*1e-7
		if o.w.step > 0 && o.bytes >= o.w.step {
			vals[r] += 2e-6
		}
		// the pair (0, last) is slow: max-latency must pick it
		if o.pair[1] == o.w.size-1 {
			vals[r] *= 3
		}
		if o.info.Nonblocking {
			vals[r] = o.nonblocking(vals[r])
			if o.w.nanPhase != 0 && o.phase == o.w.nanPhase {
				vals[r] = math.NaN()
			}
		}
	}
	o.w.pending = vals
	return vals[0], nil
}

func (o fakeOp) nonblocking(b float64) float64 {
	compute := float64(o.spin) * 0.5e-9
	switch o.phase {
	case ops.PhasePost:
		return b / 4
	case ops.PhaseWait:
		return 3 * b / 4
	case ops.PhaseOverlap:
		if o.iteration { // the post and the completion timed apart
			return b/4 + 3*b/20
		}
		return b/4 + compute + 3*b/20
	case ops.PhaseCompute:
		return compute
	}
	return b
}

type collect struct {
	points []*record.Point
	faults []*record.Fault
	steps  []*record.Step
}

func (c *collect) Step(s *record.Step) error { c.steps = append(c.steps, s); return nil }

func (c *collect) Point(p *record.Point) error { c.points = append(c.points, p); return nil }
func (c *collect) Fault(f *record.Fault) error { c.faults = append(c.faults, f); return nil }

func plan(t *testing.T, src string) *inputs.Plan {
	t.Helper()
	p, err := inputs.Parse("t.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// expand lists the plan's points on a fake job.
func expand(t *testing.T, p *inputs.Plan, hosts ...string) []inputs.Point {
	t.Helper()
	ex, err := p.Expand(inputs.Job{NProcs: len(hosts), Hosts: hosts})
	if err != nil {
		t.Fatal(err)
	}
	return ex.Points
}

func TestRunnerRecords(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 3
max_repetitions = 3
iterations = 1
window = 4
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [1024, 2048]
[[measurement]]
name = "bw"
op = "Bandwidth_Isend_Irecv"
sizes = [1024]
[[measurement]]
name = "far"
op = "Pingpong_Send_Recv"
sizes = [8]
pair = "max-latency"
[[measurement]]
name = "across"
op = "Pingpong_Send_Recv"
sizes = [8]
pair = "across-nodes"
`)
	w := &fakeWorld{size: 4}
	sink := &collect{}
	r := &Runner{World: w, RunID: "x", Sink: sink}
	points := expand(t, p, "a", "a", "b", "b")
	if !points[3].Pending || points[3].Key().Ranks != "" {
		t.Errorf("max-latency on 4 processes is chosen at run time: %+v", points[3])
	}
	if err := r.Run(points); err != nil {
		t.Fatal(err)
	}
	if w.open != 0 {
		t.Errorf("%d operations left open", w.open)
	}
	if len(sink.points) != 5 {
		t.Fatalf("%d points", len(sink.points))
	}
	pp := sink.points[0]
	if pp.PointIndex != 1 || pp.RunID != "x" || pp.TimeS != 2e-6 || *pp.LatencyS != 1e-6 || pp.BandwidthBps != nil ||
		pp.NProcs != 4 || !slices.Equal(pp.Ranks, []int{0, 1}) || pp.Stop != "converged" || pp.Reps != 3 {
		t.Errorf("ping-pong point %+v", pp)
	}
	bw := sink.points[2]
	if bw.Window != 4 || bw.LatencyS != nil || *bw.BandwidthBps != 4*1024/2e-6 {
		t.Errorf("bandwidth point %+v bw %v", bw, *bw.BandwidthBps)
	}
	if far := sink.points[3]; !slices.Equal(far.Ranks, []int{0, 3}) {
		t.Errorf("max-latency pair %v", far.Ranks)
	}
	if across := sink.points[4]; !slices.Equal(across.Ranks, []int{0, 2}) || len(across.Flags) != 0 {
		t.Errorf("across-nodes pair %v %v", across.Ranks, across.Flags)
	}
	if points[3].Pending || points[3].Key().Ranks != "0,3" {
		t.Errorf("the probed pair is written back to the point: %+v", points[3])
	}
}

func TestRunnerFallback(t *testing.T) {
	p := plan(t, `
[[measurement]]
name = "across"
op = "Pingpong_Send_Recv"
sizes = [8]
pair = "across-nodes"
iterations = 1
`)
	sink := &collect{}
	r := &Runner{World: &fakeWorld{size: 2}, Sink: sink}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	if f := sink.points[0].Flags; !slices.Contains(f, record.FlagPairFallback) {
		t.Errorf("flags %v", f)
	}
}

func TestRunnerResumeAndDenyList(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 2
max_repetitions = 2
iterations = 1
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [1, 2, 4]
[[measurement]]
name = "boom"
op = "Selftest_Crash"
sizes = [8]
`)
	sink := &collect{}
	var done record.KeySet
	done.Add(record.Key{Measurement: "pp", Op: "Pingpong_Send_Recv", MsgBytes: 2, NProcs: 2, Ranks: "0,1"})
	w := &fakeWorld{size: 2}
	r := &Runner{World: w, RunID: "x", Sink: sink, Done: &done, Library: "Open MPI v4.1.4",
		Watchdog: &Watchdog{}}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	if len(sink.points) != 2 || sink.points[0].MsgBytes != 1 || sink.points[1].MsgBytes != 4 || sink.points[1].PointIndex != 3 {
		t.Errorf("points %+v", sink.points)
	}
	if r.Skipped != 1 || len(sink.faults) != 1 {
		t.Fatalf("skipped %d, faults %d", r.Skipped, len(sink.faults))
	}
	if f := sink.faults[0]; f.Fault != record.FaultDenied || f.PointIndex != 4 || f.Op != "Selftest_Crash" ||
		!strings.Contains(f.Detail, "--allow-broken") || !slices.Equal(f.Ranks, []int{0, 1}) {
		t.Errorf("fault %+v", f)
	}
	if cur, _ := r.Watchdog.Current(); cur != nil {
		t.Errorf("watchdog left armed for %+v", cur)
	}
	r = &Runner{World: w, Sink: &collect{}, Library: "x", AllowBroken: true}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	if got := len(w.made); got != 2+4 { // 2 in the resumed run, then all 4
		t.Errorf("with --allow-broken the denied op must be built: %d ops made", got)
	}
}

func TestWatchdog(t *testing.T) {
	fired := make(chan *record.Fault, 1)
	w := &Watchdog{Expire: func(f *record.Fault) { fired <- f }}
	w.Start(record.Fault{Op: "Selftest_Hang", MsgBytes: 8, PointIndex: 3}, 20*time.Millisecond)
	if cur, _ := w.Current(); cur == nil || cur.Op != "Selftest_Hang" {
		t.Fatalf("current %+v", cur)
	}
	select {
	case f := <-fired:
		if f.Kind != record.KindFault || f.Fault != record.FaultTimeout || f.PointIndex != 3 || f.ElapsedS < 0.02 {
			t.Errorf("fault %+v", f)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the watchdog did not fire")
	}
	// Stopped in time: never fires.
	w.Start(record.Fault{Op: "quick"}, 50*time.Millisecond)
	w.Stop()
	select {
	case f := <-fired:
		t.Errorf("fired after Stop: %+v", f)
	case <-time.After(150 * time.Millisecond):
	}
}

// A point whose steps keep moving outlives the timeout; once they stop, the watchdog
// fires, saying how long nothing moved. The counter moves at every look for the first
// 30 looks (3 timeouts' worth of polls), whatever the scheduler does to the goroutines,
// so the test holds on a busy machine.
func TestWatchdogJudgesProgress(t *testing.T) {
	var looks atomic.Uint64
	progress := func() uint64 { return min(looks.Add(1), 30) }
	fired := make(chan *record.Fault, 1)
	w := &Watchdog{Expire: func(f *record.Fault) { fired <- f }, Progress: progress}
	const timeout = 100 * time.Millisecond
	w.Start(record.Fault{Op: "Selftest_Slow"}, timeout)
	select {
	case f := <-fired:
		if n := looks.Load(); n < 30 {
			t.Errorf("fired after %d looks, while the counter still moved", n)
		}
		if f.StalledS < timeout.Seconds() || f.ElapsedS < f.StalledS {
			t.Errorf("stalled %.3f s of %.3f s: %+v", f.StalledS, f.ElapsedS, f)
		}
	case <-time.After(time.Minute):
		t.Fatal("a stopped point was never caught")
	}
	w.Stop()
}

func TestMethodsByTheirFields(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 2
max_repetitions = 2
[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8]
method = ["barrier", "rounds", "ack"]
root = 1
`)
	w := &fakeWorld{size: 4}
	sink := &collect{}
	r := &Runner{World: w, Sink: sink}
	if err := r.Run(expand(t, p, "a", "a", "a", "a")); err != nil {
		t.Fatal(err)
	}
	// barrier: the broadcast's kernel, then a Barrier measured to be subtracted.
	// ack: once per task, every rank but the root (1), in turn.
	if want := []string{"bcast_barrier", "barrier", "bcast_rounds", "bcast_ack", "bcast_ack", "bcast_ack"}; !slices.Equal(w.kernels, want) {
		t.Errorf("kernels %v, want %v", w.kernels, want)
	}
	if got := w.tasks[3:]; !slices.Equal(got, []int{0, 2, 3}) {
		t.Errorf("ack tasks %v, want 0, 2, 3", got)
	}
	if len(sink.points) != 3 {
		t.Fatalf("%d points", len(sink.points))
	}
	if b := sink.points[0]; b.SubtractedS == nil || *b.SubtractedS != 1e-6 || math.Abs(b.TimeS-8.0/1024*1e-6) > 1e-15 {
		t.Errorf("barrier method: %+v", b)
	}
	if ack := sink.points[2]; !slices.Equal(ack.Ranks, []int{1}) || ack.Method != "ack" || len(ack.TaskTimeS) != 3 ||
		ack.TimeS != ack.TaskTimeS[2] || ack.TaskTimeS[0] >= ack.TaskTimeS[1] || ack.TaskTimeS[1] >= ack.TaskTimeS[2] {
		t.Errorf("ack is timed by the root alone, the slowest task's time: %+v", ack)
	}
	if w.open != 0 {
		t.Errorf("%d operations left open", w.open)
	}
}

// One bad point never ends the run: the library's error is a fault of that point, and
// the next point is measured.
func TestPointErrorIsAFault(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 2
max_repetitions = 2
iterations = 1
[[measurement]]
name = "bad"
op = "Allreduce"
sizes = [8]
[[measurement]]
name = "after"
op = "Pingpong_Send_Recv"
sizes = [8]
`)
	sink := &collect{}
	var stderr bytes.Buffer
	r := &Runner{World: &fakeWorld{size: 2, fail: "allreduce"}, Sink: sink, Stderr: &stderr, RunID: "x"}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	if len(sink.faults) != 1 || len(sink.points) != 1 || sink.points[0].Measurement != "after" {
		t.Fatalf("faults %+v points %+v", sink.faults, sink.points)
	}
	if f := sink.faults[0]; f.Fault != record.FaultError || f.PointIndex != 1 || !strings.Contains(f.Detail, "MPI_ERR_OP") {
		t.Errorf("fault %+v", f)
	}
	if !strings.Contains(stderr.String(), `rank 0: measurement "bad", 8 bytes: MPI_Allreduce: MPI_ERR_OP`) {
		t.Errorf("stderr %q", stderr.String())
	}
}
