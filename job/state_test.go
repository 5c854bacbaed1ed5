package job

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// Result files written before faults carried their ranks still resume: a timeout
// recorded without ranks leaves its point alone whatever ranks the plan now gives it.
func TestResumeReadsOlderFiles(t *testing.T) {
	dir := t.TempDir()
	old := `{"kind":"run","run_id":"r1","skampi_version":"0.1","nprocs":2,"rank_hosts":["h","h"],"start_time":"2026-11-01T00:00:00Z"}
{"kind":"point","run_id":"r1","point_index":1,"measurement":"pp","op":"Pingpong_Send_Recv","msg_bytes":1,"nprocs":2,"ranks":[0,1],"time_s":1e-6,"stderr_s":0,"reps":1,"stop":"converged","samples_s":[1e-6]}
{"kind":"fault","run_id":"r1","point_index":2,"measurement":"pp","op":"Pingpong_Send_Recv","msg_bytes":2,"nprocs":2,"fault":"timeout"}
{"kind":"fault","run_id":"r1","point_index":3,"measurement":"pp","op":"Pingpong_Send_Recv","msg_bytes":4,"nprocs":2,"fault":"denied"}
`
	if err := os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	plan, err := inputs.Parse("t.toml", []byte("[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1, 2, 4, 8]\n"))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := plan.Expand(inputs.Job{NProcs: 2})
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	st, err := resumeState(plan, dir, false, &stderr)
	if err != nil || stderr.Len() != 0 {
		t.Fatalf("%v %s", err, stderr.String())
	}
	for i, want := range []bool{true, true, false, false} { // measured, timed out, denied (tried again), new
		if got := st.done.Has(ex.Points[i].Key()); got != want {
			t.Errorf("%d bytes: done %v, want %v", ex.Points[i].Size, got, want)
		}
	}
	// The job died after the denied point: the 8-byte point is where.
	st, err = loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if pt := st.firstMissing(plan); pt == nil || pt.Size != 8 || pt.Index != 4 {
		t.Errorf("first missing %+v", pt)
	}
	if _, err := resumeState(plan, "", false, &stderr); err == nil {
		t.Error("--resume without -o")
	}
}
