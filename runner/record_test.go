package runner

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

func TestFillFlags(t *testing.T) {
	r := &measure.Result{Samples: []float64{1, 2, 3}, Verdict: measure.DiscardCap, Discarded: 4, Iterations: 7}
	r.Summary = measure.Summarize(r.Samples)
	var p record.Point
	fill(&p, r, 8)
	if !slices.Equal(p.Flags, []string{record.FlagDiscardCap, record.FlagFewReps}) || p.Reps != 3 || p.Discarded != 4 ||
		p.Iterations != 7 || p.TimeS != 2 || p.Stop != "discard_cap" || p.SubtractedS != nil {
		t.Errorf("%+v", p)
	}
	var none record.Point
	fill(&none, &measure.Result{Verdict: measure.TimeCap}, 8)
	if none.TimeS != 0 || !slices.Equal(none.Flags, []string{record.FlagTimeCap, record.FlagNoValidReps}) {
		t.Errorf("no valid repetition: %+v", none)
	}
}

// A subtraction that leaves a negative time keeps it and flags it; the throughput of a
// collective on a sub-communicator counts that communicator's processes.
func TestPointRecord(t *testing.T) {
	p := plan(t, `
[[measurement]]
name = "a2a"
op = "Alltoall"
sizes = [1000]
procs = [3]
`)
	points := expand(t, p, "a", "a", "a", "a", "a", "a")
	res := &measure.Result{Samples: []float64{1e-6, 1e-6}, Verdict: measure.Converged}
	res.Summary = measure.Summarize(res.Samples)
	r := &Runner{World: &fakeWorld{size: 6}, RunID: "x"}
	rec := r.point(&points[0], res)
	if rec.NProcs != 3 || rec.ThroughputBps == nil || math.Abs(*rec.ThroughputBps-2*1000/1e-6) > 1 {
		t.Errorf("throughput %v at %d processes", rec.ThroughputBps, rec.NProcs)
	}
	res.Subtract(3e-6)
	rec = r.point(&points[0], res)
	if rec.TimeS >= 0 || !slices.Contains(rec.Flags, record.FlagNegative) || *rec.SubtractedS != 3e-6 || rec.ThroughputBps != nil {
		t.Errorf("negative after subtraction: %+v", rec)
	}
}

func TestTask(t *testing.T) {
	p := plan(t, `
[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8]
method = ["ack", "rounds"]
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [8]
`)
	points := expand(t, p, "a", "a")
	ack, rounds, pp := task(&points[0], nil), task(&points[1], nil), task(&points[2], nil)
	// Collectives time one step per repetition unless asked otherwise (the
	// acknowledgement loop's step is 8 broadcasts, each acknowledged).
	if ack.Iterations != 1 || rounds.Iterations != 1 || pp.Iterations != 0 {
		t.Errorf("iterations: ack %d, rounds %d, ping-pong %d (0 = calibrated)", ack.Iterations, rounds.Iterations, pp.Iterations)
	}
	// A root-timed method counts the root's own result.
	if ack.Reduce != ops.ReduceFirst || !slices.Equal(ack.Participants, []int{0}) || rounds.Reduce != ops.ReduceMax {
		t.Errorf("ack %+v, rounds %+v", ack, rounds)
	}
	if s := pp.Stop; s.Min != 8 || s.Max != 10_000 || s.MaxTime != 10*time.Second {
		t.Errorf("stop rule %+v", s)
	}
}

// A pair chosen by measuring may come out differently when a run is resumed: the point
// is still the one measured before, and is left alone.
func TestResumeProbedPair(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 2
max_repetitions = 2
iterations = 1
[[measurement]]
name = "far"
op = "Pingpong_Send_Recv"
sizes = [8, 16]
pair = "max-latency"
`)
	var done record.KeySet
	done.Add(record.Key{Measurement: "far", Op: "Pingpong_Send_Recv", MsgBytes: 8, NProcs: 4, Ranks: "0,2"})
	sink := &collect{}
	r := &Runner{World: &fakeWorld{size: 4}, Sink: sink, Done: &done}
	points := expand(t, p, "a", "a", "a", "a")
	if err := r.Run(points); err != nil {
		t.Fatal(err)
	}
	if r.Skipped != 1 || len(sink.points) != 1 || sink.points[0].MsgBytes != 16 || !slices.Equal(sink.points[0].Ranks, []int{0, 3}) {
		t.Errorf("skipped %d, measured %+v", r.Skipped, sink.points)
	}
}

// A collective given explicit iterations runs back to back: allowed, and flagged.
func TestPipelinedFlag(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 2
max_repetitions = 2
[[measurement]]
name = "loop"
op = "Allreduce"
sizes = [8]
iterations = 100
[[measurement]]
name = "one"
op = "Allreduce"
sizes = [8]
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [8]
iterations = 100
`)
	sink := &collect{}
	r := &Runner{World: &fakeWorld{size: 2}, Sink: sink}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	if f := sink.points[0].Flags; !slices.Contains(f, record.FlagPipelined) || sink.points[0].Iterations != 100 {
		t.Errorf("explicit iterations: %+v", sink.points[0])
	}
	if f := sink.points[1].Flags; slices.Contains(f, record.FlagPipelined) {
		t.Errorf("one call per repetition flagged: %v", f)
	}
	if f := sink.points[2].Flags; slices.Contains(f, record.FlagPipelined) {
		t.Errorf("a ping-pong loop flagged: %v", f)
	}
}

// Window synchronisation reports the fraction of repetitions it discarded.
func TestInvalidFraction(t *testing.T) {
	p := plan(t, "[[measurement]]\nname = \"w\"\nop = \"Barrier\"\nsizes = [0]\nsync = \"window\"\n[[measurement]]\nname = \"b\"\nop = \"Barrier\"\nsizes = [0]\n")
	points := expand(t, p, "a", "a")
	r := &Runner{World: &fakeWorld{size: 2}}
	res := &measure.Result{Samples: []float64{1e-6, 1e-6, 1e-6}, Discarded: 1}
	res.Summary = measure.Summarize(res.Samples)
	if f := r.point(&points[0], res).InvalidFraction; f == nil || *f != 0.25 {
		t.Errorf("window: invalid fraction %v, want 0.25", f)
	}
	if f := r.point(&points[1], res).InvalidFraction; f != nil {
		t.Errorf("barrier: invalid fraction %v, want none", *f)
	}
}
