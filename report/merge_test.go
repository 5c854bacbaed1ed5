package report

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/skampi/skampi/record"
)

// A run may hold several faults of no point of the plan (index 0: clock
// synchronisation, writing the results, the pair probe, start-up, the launcher's own);
// every verb reading through Merge sees all of them, and a copy of the run still counts
// once.
func TestMergeKeepsPhaseFaults(t *testing.T) {
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	phase := func(what, kind string, sec int) record.Fault {
		return record.Fault{Kind: record.KindFault, RunID: "r", Measurement: what, NProcs: 2, Fault: kind,
			Detail: what + " " + kind, Time: at.Add(time.Duration(sec) * time.Second)}
	}
	var buf bytes.Buffer
	j := NewJSONL(&buf)
	err := errors.Join(j.Run(&record.Run{Kind: record.KindRun, RunID: "r", NProcs: 2}),
		j.Point(&record.Point{Kind: record.KindPoint, RunID: "r", PointIndex: 1, Measurement: "pp", Op: "Pingpong_Send_Recv",
			NProcs: 2, Ranks: []int{0, 1}, Reps: 1, Iterations: 1, TimeS: 1e-6, Stop: "converged", SamplesS: []float64{1e-6}}))
	faults := []record.Fault{
		phase("(clock synchronisation)", record.FaultInterrupted, 1),
		// The launcher's timeout of a job a signal reached first: the same phase.
		phase("(clock synchronisation)", record.FaultTimeout, 2),
		phase("pair probe", record.FaultTimeout, 3),
	}
	faults = append(faults, record.Fault{Kind: record.KindFault, RunID: "r", PointIndex: 2, Measurement: "pp",
		Op: "Pingpong_Send_Recv", NProcs: 2, Fault: record.FaultError, Detail: "refused", Time: at})
	for i := range faults {
		err = errors.Join(err, j.Fault(&faults[i]))
	}
	if err != nil {
		t.Fatal(err)
	}
	one, err := Read(bytes.NewReader(buf.Bytes()), "a.jsonl")
	if err != nil || len(one.Problems) > 0 || len(one.Faults) != 4 {
		t.Fatalf("read: %v, %d faults, problems %v", err, len(one.Faults), one.Problems)
	}
	all := &Results{}
	all.Merge(one)
	if len(all.Faults) != 4 || len(all.Points) != 1 {
		t.Fatalf("merged into nothing: %d faults %+v, %d points", len(all.Faults), all.Faults, len(all.Points))
	}
	// The same file again (a copy, a resumed directory): nothing new.
	again, _ := Read(bytes.NewReader(buf.Bytes()), "b.jsonl")
	all.Merge(again)
	if len(all.Runs) != 1 || len(all.Faults) != 4 || len(all.Points) != 1 {
		t.Errorf("a copy merged in: %d runs, %d faults, %d points", len(all.Runs), len(all.Faults), len(all.Points))
	}
	// A point's record is still one per run and index, whichever kind comes first.
	dup := &Results{Faults: []record.Fault{{Kind: record.KindFault, RunID: "r", PointIndex: 1, Fault: record.FaultError}}}
	all.Merge(dup)
	if len(all.Faults) != 4 {
		t.Errorf("a second record of point 1 merged in: %+v", all.Faults)
	}
}
