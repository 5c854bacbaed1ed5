package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/record"
)

// The writer holds what it writes to the reader's checks: a record that breaks the
// schema is written all the same (the measurement is kept) and said, with the problem
// validate names; good records are not.
func TestWriterSaysWhatBreaksTheSchema(t *testing.T) {
	var out bytes.Buffer
	j := NewJSONL(&out)
	var said []string
	j.Broken = func(what string, problems []string) { said = append(said, what+": "+strings.Join(problems, "; ")) }
	good := record.Point{Kind: record.KindPoint, RunID: "r", PointIndex: 1, Measurement: "mt", Op: "Pingpong_Send_Recv_MT",
		MsgBytes: 8, NProcs: 2, Ranks: []int{0, 1}, Timer: "global-loop", TimeS: 2e-6, MeanS: 2e-6, MedianS: 2e-6, MinS: 2e-6,
		P10S: 2e-6, P90S: 2e-6, MaxS: 2e-6, Reps: 1, SamplesS: []float64{2e-6}, Stop: "converged", Threads: 2}
	bad := good
	bad.PointIndex, bad.Threads = 2, 100_000
	if err := j.Run(&record.Run{Kind: record.KindRun, RunID: "r", SkampiVersion: "v", NProcs: 2, StartTime: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*record.Point{&good, &bad} {
		if err := j.Point(p); err != nil {
			t.Fatal(err)
		}
	}
	if len(said) != 1 || !strings.HasPrefix(said[0], "point 2: threads is 100000") {
		t.Errorf("said %q, want point 2's threads", said)
	}
	if n := strings.Count(out.String(), "\n"); n != 3 {
		t.Errorf("%d lines written, want every record's", n)
	}
	res, _ := Read(&out, "w")
	if errs := res.Errors(); len(errs) != 1 || errs[0].Line != 3 || !strings.Contains(errs[0].Msg, "threads is 100000") {
		t.Errorf("the reader says %v", errs)
	}
}
