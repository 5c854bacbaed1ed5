package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

// An OpenSHMEM put with a breakdown: under Latency a plain line of its time, with
// the breakdown's own flags left to the record; without it, the breakdown.
func TestTableLatencyView(t *testing.T) {
	bw, rate := 8e6, 1e6
	pt := record.Point{Measurement: "Shmem_Put", Op: "Shmem_Put", PointIndex: 1, MsgBytes: 8, NProcs: 2, Ranks: []int{0, 1},
		TimeS: 1e-6, Reps: 50, Window: 1, BandwidthBps: &bw, MessagesPerS: &rate,
		Flags:     []string{record.FlagComputeOffTarget, record.FlagFullMismatch, record.FlagMaxReps},
		Breakdown: &record.Breakdown{FullS: 1e-6, PostS: 0.4e-6, WaitS: 0.6e-6, OverlappedS: 0.9e-6, OverlapRatio: 0.1}}
	table := func(opt TableOptions) string {
		var buf bytes.Buffer
		tab := NewTableWith(&buf, opt)
		tab.Run(&record.Run{Points: 1})
		p := pt
		tab.Point(&p)
		return buf.String()
	}
	got := table(TableOptions{Latency: true})
	if !strings.Contains(got, "time [us]") || strings.Contains(got, "full [us]") || !strings.Contains(got, "1.000") ||
		!strings.Contains(got, "8.00") || !strings.HasSuffix(got, "  max_repetitions\n") {
		t.Errorf("latency view:\n%s", got)
	}
	got = table(TableOptions{})
	if !strings.Contains(got, "full [us]") || !strings.Contains(got, "compute_off_target,full_mismatch,max_repetitions") {
		t.Errorf("breakdown:\n%s", got)
	}
	// A non-blocking MPI operation keeps its breakdown under Latency.
	pt.Op = "Isend"
	if got := table(TableOptions{Latency: true}); !strings.Contains(got, "full [us]") {
		t.Errorf("Isend under Latency:\n%s", got)
	}
}
