package runner

import (
	"bytes"
	"slices"
	"strings"
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
}

func (w *fakeWorld) Rank() int      { return 0 }
func (w *fakeWorld) Size() int      { return w.size }
func (w *fakeWorld) Barrier() error { return nil }
func (w *fakeWorld) Gather(float64) ([]float64, error) {
	return w.pending, nil
}
func (w *fakeWorld) Bcast(v int64) (int64, error) { return v, nil }
func (w *fakeWorld) Clock() clocksync.Exchanger   { return nil } // a single-process fake: window sync untested here
func (w *fakeWorld) Now() float64                 { return 0 }
func (w *fakeWorld) NewOp(s OpSpec) (measure.Op, error) {
	w.made = append(w.made, s.Pair)
	return fakeOp{w: w, info: s.Info, bytes: s.Bytes, pair: s.Pair}, nil
}

type fakeOp struct {
	w     *fakeWorld
	info  ops.Info
	bytes int64
	pair  [2]int
}

func (o fakeOp) Run(int, measure.Slot) (float64, error) {
	vals := make([]float64, o.w.size)
	for r := range vals {
		vals[r] = 1e-6 + float64(o.bytes)/1024*1e-6
		// the pair (0, last) is slow: max-latency must pick it
		if o.pair[1] == o.w.size-1 {
			vals[r] *= 3
		}
	}
	o.w.pending = vals
	return vals[0], nil
}

type collect struct {
	points []*record.Point
	faults []*record.Fault
}

func (c *collect) Write(rec any) error {
	switch r := rec.(type) {
	case *record.Point:
		c.points = append(c.points, r)
	case *record.Fault:
		c.faults = append(c.faults, r)
	}
	return nil
}

func (c *collect) Close() error { return nil }

func plan(t *testing.T, src string) *inputs.Plan {
	t.Helper()
	p, err := inputs.Parse("t.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
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
	var log bytes.Buffer
	r := &Runner{World: w, Hosts: []string{"a", "a", "b", "b"}, RunID: "x", Sink: sink, Log: &log}
	if err := r.Run(p); err != nil {
		t.Fatal(err)
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
	if log.Len() != 0 {
		t.Errorf("unexpected note: %s", log.String())
	}
}

func TestRunnerFallbackAndCheck(t *testing.T) {
	p := plan(t, `
[[measurement]]
name = "across"
op = "Pingpong_Send_Recv"
sizes = [8]
pair = "across-nodes"
iterations = 1
`)
	sink := &collect{}
	var log bytes.Buffer
	r := &Runner{World: &fakeWorld{size: 2}, Hosts: []string{"a", "a"}, Sink: sink, Log: &log}
	if err := r.Run(p); err != nil {
		t.Fatal(err)
	}
	if f := sink.points[0].Flags; !slices.Contains(f, record.FlagPairFallback) {
		t.Errorf("flags %v", f)
	}
	if !strings.Contains(log.String(), `all ranks run on a; measured ranks 0 and 1 instead`) {
		t.Errorf("note %q", log.String())
	}

	explicit := plan(t, "[[measurement]]\nname = \"x\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\npair = [0, 5]\n")
	if err := Check(explicit, 4); err == nil || err.Error() != `measurement "x": pair rank 5 does not exist in a job of 4 processes` {
		t.Errorf("check: %v", err)
	}
	if err := Check(explicit, 6); err != nil {
		t.Error(err)
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
	done := map[record.Key]bool{{Measurement: "pp", Op: "Pingpong_Send_Recv", MsgBytes: 2, NProcs: 2}: true}
	w := &fakeWorld{size: 2}
	r := &Runner{World: w, Hosts: []string{"a", "a"}, RunID: "x", Sink: sink, Done: done, Library: "Open MPI v4.1.4",
		Watchdog: &Watchdog{}}
	if err := r.Run(p); err != nil {
		t.Fatal(err)
	}
	if len(sink.points) != 2 || sink.points[0].MsgBytes != 1 || sink.points[1].MsgBytes != 4 || sink.points[1].PointIndex != 3 {
		t.Errorf("points %+v", sink.points)
	}
	if r.Skipped != 1 || len(sink.faults) != 1 {
		t.Fatalf("skipped %d, faults %d", r.Skipped, len(sink.faults))
	}
	if f := sink.faults[0]; f.Fault != record.FaultDenied || f.PointIndex != 4 || f.Op != "Selftest_Crash" || !strings.Contains(f.Detail, "--allow-broken") {
		t.Errorf("fault %+v", f)
	}
	if cur, _ := r.Watchdog.Current(); cur != nil {
		t.Errorf("watchdog left armed for %+v", cur)
	}
	r = &Runner{World: w, Hosts: []string{"a", "a"}, Sink: &collect{}, Library: "x", AllowBroken: true}
	if err := r.Run(p); err != nil {
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

func TestCheckCollectives(t *testing.T) {
	p := plan(t, `
[settings]
buffer = "64KiB"
[[measurement]]
name = "a2a"
op = "Alltoall"
sizes = [1024, 8192]
[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8]
root = 3
`)
	if err := Check(p, 4); err != nil {
		t.Errorf("4 processes: %v", err)
	}
	err := Check(p, 16)
	if err == nil || err.Error() != `measurement "a2a": Alltoall needs 131072 bytes of buffer for 8192-byte blocks with 16 processes, buffer is 65536: raise buffer` {
		t.Errorf("16 processes: %v", err)
	}
	if err := Check(p, 3); err == nil || !strings.Contains(err.Error(), "root 3 does not exist in a job of 3 processes") {
		t.Errorf("3 processes: %v", err)
	}
	// Collectives time one call per repetition unless asked otherwise.
	if n := iterations(p.Measurements[0]); n != 1 {
		t.Errorf("auto iterations for a collective = %d", n)
	}
}

func TestRanksFor(t *testing.T) {
	block := plan(t, "[[measurement]]\nname = \"a\"\nop = \"Allreduce\"\nsizes = [8]\nprocs = [2, \"all\", 9]\n").Measurements[0]
	perNode := plan(t, "[[measurement]]\nname = \"a\"\nop = \"Allreduce\"\nsizes = [8]\nprocs = [3]\nlayout = \"one-per-node\"\n").Measurements[0]
	r := &Runner{World: &fakeWorld{size: 6}, Hosts: []string{"a", "a", "a", "b", "b", "b"}}
	if got, ok := r.ranksFor(block, 2); !ok || !slices.Equal(got, []int{0, 1}) {
		t.Errorf("block 2: %v %v", got, ok)
	}
	if got, ok := r.ranksFor(block, 0); !ok || got != nil {
		t.Errorf("all: %v %v", got, ok)
	}
	if _, ok := r.ranksFor(block, 9); ok {
		t.Error("9 of 6 processes")
	}
	if got, ok := r.ranksFor(perNode, 3); !ok || !slices.Equal(got, []int{0, 3, 1}) {
		t.Errorf("one per node: %v", got)
	}
	if n := plan(t, "[settings]\nprocs = [2, 4]\n[[measurement]]\nname = \"a\"\nop = \"Allreduce\"\nsizes = [8, 16]\n[[measurement]]\nname = \"b\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\n").Points(); n != 5 {
		t.Errorf("points %d: procs multiplies collectives only", n)
	}
}
