package runner

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/skampi/skampi/clocksync"
	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/repsync"
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

// Every field a strategy's outcome carries reaches the record through buildRecord: a
// non-blocking point's breakdown, a window-synchronised point's window, Lock_Held's
// hold, the pair fallback and corrupt data.
func TestBuildRecord(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 2
[[measurement]]
name = "isend"
op = "Isend"
sizes = [1024]
progress = 64
[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8]
sync = "window"
[[measurement]]
name = "held"
op = "Lock_Held"
sizes = [0]
lock_hold = "10us"
rma_window = "create"
[[measurement]]
name = "across"
op = "Pingpong_Send_Recv"
sizes = [8]
pair = "across-nodes"
check_data = true
`)
	points := expand(t, p, "a", "a", "a")
	result := func(samples ...float64) *measure.Result {
		res := &measure.Result{Samples: samples, Verdict: measure.Converged, Iterations: 1}
		res.Summary = measure.Summarize(samples)
		return res
	}
	w := &fakeWorld{size: 3}
	r := &Runner{World: w, RunID: "b"}
	type est = measure.Estimate

	// A breakdown: full's statistics, the parts' estimates, every rank's spins of the
	// ranks of the point (only the initiator computes), every measurement's verdict.
	calib := 2.1e-6
	full := result(2e-6, 2e-6, 2e-6)
	parts := &breakdownParts{calibrated: true, verdicts: []measure.Verdict{measure.Converged, measure.MaxReps},
		est: breakdown{post: est{V: 0.5e-6, SE: 1e-8}, wait: est{V: 1.5e-6, SE: 1e-8}, sum: est{V: 2e-6, SE: 1e-8},
			notHidden: est{V: 0.8e-6, SE: 1e-8}, compute: est{V: 4e-6, SE: 1e-8}, calibration: est{V: calib, SE: 1e-8}},
		calibrationFull: &calib, target: 4e-6,
		spinRates: []float64{0.5, 0.7, 0}, spins: []float64{8000, 9, 0}, overheads: []float64{25e-9, 30e-9, 0}}
	nb, fault := r.buildRecord(&points[0], outcome{res: full, parts: parts})
	b := nb.Breakdown
	if fault != nil || b == nil || b.FullS != 2e-6 || b.PostS != 0.5e-6 || b.WaitS != 1.5e-6 || b.OverlappedS != 0.8e-6 ||
		b.ComputeS != 4e-6 || b.ComputeTargetS != 4e-6 || b.ProgressEvery != 64 || b.FullCalibrationS != &calib ||
		math.Abs(b.OverlapRatio-0.6) > 1e-12 || nb.TimeS != 2e-6 || nb.Reps != 3 {
		t.Fatalf("breakdown point %+v, breakdown %+v", nb, b)
	}
	if !slices.Equal(b.SpinIters, []int64{8000, 0}) || !slices.Equal(b.SpinNsPerIter, []float64{0.5, 0}) ||
		!slices.Equal(b.TimerOverheadS, []float64{25e-9, 30e-9}) {
		t.Errorf("per rank: spins %v at %v ns, timer %v", b.SpinIters, b.SpinNsPerIter, b.TimerOverheadS)
	}
	if !slices.Equal(nb.Flags, []string{record.FlagMaxReps}) {
		t.Errorf("breakdown flags %v: a part's stop", nb.Flags)
	}
	// Full alone (nothing to calibrate against): no breakdown, and the flag says so.
	alone, _ := r.buildRecord(&points[0], outcome{res: full, parts: &breakdownParts{}})
	if alone.Breakdown != nil || !slices.Equal(alone.Flags, []string{record.FlagBreakdownMissing}) || alone.TimeS != 2e-6 {
		t.Errorf("uncalibrated breakdown: %+v", alone)
	}

	// Window synchronisation: the window the point ended with, and how many
	// repetitions started late.
	win := repsync.NewWindow(w, w.Now, clocksync.Model{})
	late := result(1e-6, 1e-6, 1e-6)
	late.Discarded = 1
	ws, _ := r.buildRecord(&points[1], outcome{res: late, window: win})
	if ws.Sync != "window" || ws.WindowS == nil || *ws.WindowS != win.Width() || ws.InvalidFraction == nil ||
		*ws.InvalidFraction != 0.25 || ws.Breakdown != nil || len(ws.Flags) != 0 {
		t.Errorf("window-synchronised point %+v", ws)
	}

	// Lock_Held: the hold asked for, the window kind, and waiters that did not wait
	// for half of it flagged.
	held, _ := r.buildRecord(&points[2], outcome{res: result(4e-6, 4e-6)})
	if held.HoldS == nil || *held.HoldS != 10e-6 || held.RMAWindow != "create" ||
		!slices.Equal(held.Flags, []string{record.FlagLockNotHeld}) || held.WindowS != nil {
		t.Errorf("Lock_Held point %+v", held)
	}
	if ok, _ := r.buildRecord(&points[2], outcome{res: result(9e-6, 9e-6)}); len(ok.Flags) != 0 {
		t.Errorf("a lock held long enough flagged %v", ok.Flags)
	}

	// A pair that could not be honoured is flagged; corrupt data makes a fault of
	// the point, with the point's elapsed time.
	across := &points[len(points)-1]
	c := &record.Corrupt{Rank: 1, From: 0, Offset: 3, Expected: 1, Actual: 2}
	pp, f := r.buildRecord(across, outcome{res: result(1e-6, 1e-6), corrupt: c})
	if across.Fallback == "" || !slices.Contains(pp.Flags, record.FlagPairFallback) {
		t.Errorf("fallback %q, flags %v", across.Fallback, pp.Flags)
	}
	if f == nil || f.Fault != record.FaultCorrupt || f.Corrupt != c || f.PointIndex != across.Index || f.RunID != "b" {
		t.Errorf("corrupt fault %+v", f)
	}
}

// IMB-IO's aggregate mode (method imb with a window): the kernel is asked for the
// window's writes a step, and the record says the window while its rates stay one
// write's (time_s is per write); one write a step, the default, is recorded as it
// always was, without a window, and a write without the method takes no window.
func TestIOAggregateRecord(t *testing.T) {
	p := plan(t, `
[[measurement]]
name = "aggregate"
op = "File_Write_At"
method = "imb"
sizes = [1024]
window = 4
[[measurement]]
name = "non-aggregate"
op = "File_Write_Shared"
method = "imb"
sizes = [1024]
[[measurement]]
name = "plain"
op = "File_Write_At"
sizes = [1024]
`)
	points := expand(t, p, "a", "a", "a")
	res := &measure.Result{Samples: []float64{1e-3, 1e-3}, Verdict: measure.Converged, Iterations: 1}
	res.Summary = measure.Summarize(res.Samples)
	r := &Runner{World: &fakeWorld{size: 4}}
	for i, want := range []struct {
		window    int  // in the record
		reqWindow int  // asked of the kernel
		aggregate bool // the request aggregates
	}{{4, 4, true}, {0, 1, true}, {0, 64, false}} {
		pt := &points[i]
		req := pointRequest(pt)
		if req.Aggregate != want.aggregate || req.Window != want.reqWindow {
			t.Errorf("%s: request aggregate %v window %d, want %v %d", pt.Measurement.Name, req.Aggregate, req.Window, want.aggregate, want.reqWindow)
		}
		rec, _ := r.buildRecord(pt, outcome{res: res})
		total := int64(pt.NProcs) * 1024
		if rec.Window != want.window || rec.IOTotalBytes == nil || *rec.IOTotalBytes != total ||
			rec.AggregateBps == nil || math.Abs(*rec.AggregateBps-float64(total)/1e-3) > 1e-6 ||
			rec.BandwidthBps == nil || math.Abs(*rec.BandwidthBps-1024/1e-3) > 1e-6 {
			t.Errorf("%s: window %d (want %d), io_total_bytes %v, aggregate_Bps %v, bandwidth_Bps %v", pt.Measurement.Name,
				rec.Window, want.window, rec.IOTotalBytes, rec.AggregateBps, rec.BandwidthBps)
		}
	}
}
