package runner

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

// An operation the library lacks is prepared once: its first point is denied with
// the reason in full, the others without being prepared, briefly; the rest of the
// suite is measured, and every point has a record.
func TestRunnerUnsupported(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 2
max_repetitions = 2
iterations = 1
[[measurement]]
name = "partitioned"
op = "Pingpong_Partitioned"
sizes = [8, 16, 64]
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [1, 2]
`)
	sink := &collect{}
	w := &fakeWorld{size: 2, lacking: "pingpong_partitioned"}
	r := &Runner{World: w, RunID: "x", Sink: sink, Library: "Open MPI v4.1.4"}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	if w.asked != 1 || len(sink.points) != 2 || len(sink.faults) != 3 {
		t.Fatalf("prepared %d times, %d points, %d faults", w.asked, len(sink.points), len(sink.faults))
	}
	for i, f := range sink.faults {
		if f.Fault != record.FaultDenied || f.Op != "Pingpong_Partitioned" || f.PointIndex != i+1 {
			t.Errorf("fault %+v", f)
		}
		full := strings.Contains(f.Detail, "does not provide MPI_Psend_init (not in this MPI library)")
		if (i == 0) != full || (i > 0 && f.Detail != LackingDetail) {
			t.Errorf("fault %d: %q", i, f.Detail)
		}
	}
}
