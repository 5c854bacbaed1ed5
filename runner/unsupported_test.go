package runner

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
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

// An operation this binary was built without (OpenSHMEM in an MPICH build) is never
// prepared: its first point is denied with the reason in full, the others briefly, and
// the MPI points around it are measured.
func TestRunnerNotBuilt(t *testing.T) {
	p := plan(t, `
[settings]
min_repetitions = 2
max_repetitions = 2
iterations = 1
[[measurement]]
name = "put"
op = "Shmem_Put"
sizes = [8, 16, 64]
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [1, 2]
`)
	sink := &collect{}
	w := &fakeWorld{size: 2}
	why := "this skampi was built without OpenSHMEM (an MPICH build): build it against Open MPI with shmem.h, `make build`"
	r := &Runner{World: w, RunID: "x", Sink: sink, Library: "MPICH 4.2.1", NotBuilt: func(in ops.Info) string {
		if in.SHMEM {
			return why
		}
		return ""
	}}
	if err := r.Run(expand(t, p, "a", "a")); err != nil {
		t.Fatal(err)
	}
	if len(sink.points) != 2 || len(sink.faults) != 3 || w.open != 0 {
		t.Fatalf("%d points, %d faults, %d ops open", len(sink.points), len(sink.faults), w.open)
	}
	for _, k := range w.kernels {
		if k != "pingpong_send_recv" {
			t.Errorf("prepared kernel %s", k)
		}
	}
	for i, f := range sink.faults {
		if f.Fault != record.FaultDenied || f.Op != "Shmem_Put" || f.PointIndex != i+1 {
			t.Errorf("fault %+v", f)
		}
		if want := map[bool]string{true: "Shmem_Put: " + why, false: NotBuiltDetail}[i == 0]; f.Detail != want {
			t.Errorf("fault %d: %q, want %q", i, f.Detail, want)
		}
	}
	for _, pt := range sink.points {
		if pt.Op != "Pingpong_Send_Recv" || pt.Reps != 2 {
			t.Errorf("point %s: %d reps", pt.Op, pt.Reps)
		}
	}
}
