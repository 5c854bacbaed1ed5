package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validate checks the domain of every field: each impossible value is an error with
// its line, and the status says the file breaks the schema.
func TestValidateFieldDomains(t *testing.T) {
	run := `{"kind":"run","run_id":"r","skampi_version":"v","nprocs":2,"start_time":"2026-01-02T03:04:05Z"}`
	stats := `"run_id":"r","measurement":"m","msg_bytes":8,"nprocs":2,"ranks":[0,1],"time_s":2e-6,"stderr_s":1e-8,"reps":1,"samples_s":[2e-6],"stop":"converged"`
	lines := []string{run,
		// an overlap ratio outside [0, 1], not flagged as clamped
		`{"kind":"point","point_index":1,"op":"Isend",` + stats + `,"full_s":2e-6,"full_stderr_s":0,"post_s":1e-6,"post_stderr_s":0,"wait_s":1e-6,"wait_stderr_s":0,"overlapped_s":-1e-6,"overlapped_stderr_s":0,"compute_s":4e-6,"compute_target_s":4e-6,"spin_ns_per_iter":[1,0],"spin_iters":[4000,0],"overlap_ratio":1.5,"overlap_ratio_stderr":0,"progress_every":0,"flags":["negative_after_subtraction"]}`,
		// a breakdown without full_s
		`{"kind":"point","point_index":2,"op":"Isend",` + stats + `,"post_s":1e-6,"wait_s":1e-6}`,
		// a negative hold
		`{"kind":"point","point_index":3,"op":"Lock_Held",` + stats + `,"hold_s":-1e-5}`,
		// two processes, three ranks
		`{"kind":"point","point_index":4,"op":"Barrier",` + strings.Replace(stats, `"ranks":[0,1]`, `"ranks":[0,1,2]`, 1) + `}`,
		// a timing method Bcast does not have
		`{"kind":"point","point_index":5,"op":"Bcast","method":"telepathy",` + stats + `}`,
		// a negative rate
		`{"kind":"point","point_index":6,"op":"Shmem_Atomic_Add_Long",` + stats + `,"ops_per_s":-1}`,
	}
	file := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("validate", file)
	for _, want := range []string{
		"r.jsonl:2: error: overlap_ratio is 1.5, outside [0, 1]",
		"r.jsonl:3: error: breakdown without full_s",
		"r.jsonl:4: error: hold_s is -1e-05: a hold is never negative",
		"r.jsonl:5: error: nprocs 2 disagrees with the 3 rank(s) listed",
		`r.jsonl:6: error: method "telepathy" is not a timing method of Bcast`,
		"r.jsonl:7: error: ops_per_s is -1: a rate is never negative",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	if code != 1 || stderr != "skampi: 6 record(s) break the schema\n" {
		t.Errorf("status %d, stderr %q", code, stderr)
	}
}
