package runner

import (
	"math"
	"testing"
	"time"

	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
)

// scriptWorld is a fakeWorld whose operations take, per kernel, v-d and v+d seconds in
// turn on every rank; runs logs the kernels in the order they ran.
type scriptWorld struct {
	*fakeWorld
	times map[string][2]float64 // kernel: v, d
	runs  []string
}

func (w *scriptWorld) NewOp(s ops.Request) (Op, error) {
	if _, err := w.fakeWorld.NewOp(s); err != nil {
		return nil, err
	}
	return &scriptOp{w: w, kernel: s.Kernel}, nil
}

type scriptOp struct {
	w      *scriptWorld
	kernel string
	n      int
}

func (o *scriptOp) Close() error { o.w.open--; return nil }

func (o *scriptOp) Run(int, measure.Slot) (float64, error) {
	vd := o.w.times[o.kernel]
	x := vd[0] - vd[1]
	if o.n%2 == 1 {
		x = vd[0] + vd[1]
	}
	o.n++
	o.w.runs = append(o.w.runs, o.kernel)
	o.w.pending = make([]float64, o.w.size)
	for r := range o.w.pending {
		o.w.pending[r] = x
	}
	return x, nil
}

// The barrier method measures Bcast+Barrier and Barrier alternately until the
// difference converges; the record carries the difference's error and the part's.
func TestSubtractionByDifference(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 4
max_relative_stderr = 0.03
iterations = 1
warmup = 0
[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8]
method = "barrier"
`)
	w := &scriptWorld{fakeWorld: &fakeWorld{size: 2},
		times: map[string][2]float64{"bcast_barrier": {3e-6, 0.1e-6}, "barrier": {1e-6, 0.1e-6}}}
	sink := &collect{}
	r := &Runner{World: w, Sink: sink}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	b := sink.points[0]
	if b.Stop != "converged" || math.Abs(b.TimeS-2e-6) > 1e-12 || b.SubtractedS == nil || math.Abs(*b.SubtractedS-1e-6) > 0.1e-6 {
		t.Fatalf("%+v", b)
	}
	if b.SubtractedStderr == nil || *b.SubtractedStderr <= 0 || math.Abs(b.StderrS-math.Sqrt2**b.SubtractedStderr) > 1e-15 ||
		b.StderrS > 0.03*b.TimeS {
		t.Errorf("stderr %v, part's %v", b.StderrS, b.SubtractedStderr)
	}
	if len(w.runs) != 2*b.Reps || w.open != 0 {
		t.Fatalf("%d runs for %d repetitions, %d ops open", len(w.runs), b.Reps, w.open)
	}
	for i, k := range w.runs {
		if want := []string{"bcast_barrier", "barrier"}[i%2]; k != want {
			t.Fatalf("run %d: %s, want %s", i, k, want)
		}
	}
}

// "auto" repetitions follow the cost within the point's budget; an explicit
// max_repetitions is SKaMPI's fixed maximum.
func TestRepetitionLimits(t *testing.T) {
	p := plan(t, `
[settings]
budget_per_point = "300ms"
[[measurement]]
name = "auto"
op = "Pingpong_Send_Recv"
sizes = [8]
[[measurement]]
name = "fixed"
op = "Pingpong_Send_Recv"
sizes = [8]
max_repetitions = 32
`)
	points := expand(t, p, "a", "a")
	auto, fixed := methodTask(&points[0], nil).Stop, methodTask(&points[1], nil).Stop
	if auto.Max != 10_000 || auto.Budget != 300*time.Millisecond {
		t.Errorf("auto: %+v", auto)
	}
	if fixed.Max != 32 || fixed.Budget != 0 {
		t.Errorf("fixed: %+v", fixed)
	}
}
