package record

import (
	"encoding/json"
	"testing"
	"time"
)

// A fault made by NewFault and Mark is the record the writers used to spell out field
// by field: the same JSON, key for key.
func TestFaultBuilderRecord(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.FixedZone("x", 3600))
	f := NewFault(Where{RunID: "r1", PointIndex: 3, Measurement: "m", MeasurementIndex: 2, Op: "Bcast",
		Method: "ack", MsgBytes: 8, NProcs: 4, Ranks: []int{0, 1}})
	f.MarkAt(FaultDenied, "why", at)
	want := Fault{Kind: KindFault, RunID: "r1", PointIndex: 3, Measurement: "m", MeasurementIndex: 2, Op: "Bcast",
		Method: "ack", MsgBytes: 8, NProcs: 4, Ranks: []int{0, 1}, Fault: FaultDenied, Detail: "why", Time: at.UTC()}
	got, _ := json.Marshal(f)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("built:\n%s\nwant:\n%s", got, exp)
	}

	ph := PhaseFault("r2", "start-up", 2)
	want = Fault{Kind: KindFault, RunID: "r2", Measurement: "(start-up)", NProcs: 2}
	got, _ = json.Marshal(ph)
	exp, _ = json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("phase:\n%s\nwant:\n%s", got, exp)
	}

	before := time.Now()
	ph.Mark(FaultTimeout, "")
	if ph.Kind != KindFault || ph.Fault != FaultTimeout || ph.Time.Before(before.UTC()) || ph.Time.Location() != time.UTC {
		t.Errorf("Mark: %+v", ph)
	}
}
