package plots

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// The threads figure: one per multi-threaded op, communicators and pinning measured at
// two thread counts or more, one line per size, each point the slowest thread's time;
// an op at one thread count, or without threads, draws none.
func TestThreadsFigure(t *testing.T) {
	pt := func(op string, threads int, comm string, bytes int64, time float64) record.Point {
		return record.Point{Kind: record.KindPoint, RunID: "r", Op: op, Measurement: op, MsgBytes: bytes, NProcs: 2,
			TimeS: time, StderrS: 1e-7, P10S: time, P90S: time, Reps: 8, Threads: threads, ThreadComm: comm, ThreadPinning: "none"}
	}
	res := &report.Results{Points: []record.Point{
		pt("Pingpong_Send_Recv_MT", 1, "dup", 1, 1e-6), pt("Pingpong_Send_Recv_MT", 2, "dup", 1, 3e-6),
		pt("Pingpong_Send_Recv_MT", 4, "dup", 1, 9e-6), pt("Pingpong_Send_Recv_MT", 1, "dup", 1024, 2e-6),
		pt("Pingpong_Send_Recv_MT", 4, "dup", 1024, 8e-6),
		pt("Pingpong_Send_Recv_MT", 2, "tag", 1, 3e-6), // one thread count: no figure
		pt("Pingpong_Send_Recv", 0, "", 1, 1e-6),
	}}
	figs := figuresOf(t, res, "threads", Options{})
	if len(figs) != 1 || figs[0].Name != "threads-Pingpong_Send_Recv_MT-dup-none-np2" {
		t.Fatalf("figures %v", figs)
	}
	f := figs[0]
	if len(f.Series) != 2 || f.Series[0].Label != "1 B" || f.Series[1].Label != "1 KiB" || len(f.Series[0].X) != 3 {
		t.Fatalf("series %+v", f.Series)
	}
	for i, w := range [][2]float64{{1, 1e-6}, {2, 3e-6}, {4, 9e-6}} {
		x, y := f.Series[0].X[i]*f.X.Div, f.Series[0].Y[i]*f.Y.Div
		if !near(x, w[0]) || !near(y, w[1]) {
			t.Errorf("1 B point %d: (%g, %g), want %g threads, %g s", i, x, y, w[0], w[1])
		}
	}
}

// A 1:N operation's figure is the sender's time vs its receiver threads, its threads on
// one communicator (the records have no thread_comm).
func TestThreadsFigureOneToN(t *testing.T) {
	pt := func(threads int, time float64) record.Point {
		return record.Point{Kind: record.KindPoint, RunID: "r", Op: "Pingpong_Send_Recv_MT_1toN", Measurement: "fan", MsgBytes: 1,
			NProcs: 2, TimeS: time, StderrS: 1e-7, P10S: time, P90S: time, Reps: 8, Threads: threads, ThreadPinning: "none"}
	}
	figs := figuresOf(t, &report.Results{Points: []record.Point{pt(2, 1e-6), pt(4, 2e-6)}}, "threads", Options{})
	if len(figs) != 1 || figs[0].Name != "threads-Pingpong_Send_Recv_MT_1toN-shared-none-np2" {
		t.Fatalf("figures %v", figs)
	}
	if f := figs[0]; !strings.Contains(f.Title, "the sender's time vs receiver threads") || !strings.HasPrefix(f.X.Label, "receiver threads") {
		t.Errorf("title %q, x %q", f.Title, f.X.Label)
	}
}
