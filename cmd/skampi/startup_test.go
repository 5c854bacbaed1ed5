//go:build mpi && shmem

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/job"
	"github.com/skampi/skampi/record"
)

// skampi startup at 1 and 2 processes, two launches each, shmem_init too: a run header
// per process count, then a record per launch joined to it, every rank's MPI_Init
// timed and inside its time from the launcher's start, and that inside the launcher's
// wall time. Run under a launcher, it refuses with one line: it launches jobs itself.
func TestStartup(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "startup", "--np", "1,2", "--launches", "2", "--shmem", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "init max [ms]") || !strings.Contains(stdout, "shmem_init [ms]") || strings.Count(stdout, "\n") != 3 {
		t.Errorf("the table: a header and a row per process count, with shmem_init:\n%s", stdout)
	}
	f, err := os.Open(filepath.Join(out, "startup.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs := map[string]int{} // run id: nprocs
	launches := map[int]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		var kind struct{ Kind string }
		if err := json.Unmarshal(sc.Bytes(), &kind); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		switch kind.Kind {
		case record.KindRun:
			var r record.Run
			json.Unmarshal(sc.Bytes(), &r)
			if r.MPILibrary == "" || !strings.HasPrefix(r.Suite, "startup") {
				t.Errorf("run header without its library or suite: %s", sc.Text())
			}
			runs[r.RunID] = r.NProcs
		case job.KindStartup:
			var s job.StartupLaunch
			json.Unmarshal(sc.Bytes(), &s)
			if runs[s.RunID] != s.NProcs {
				t.Errorf("launch %d of %d processes joins run %q of %d", s.Launch, s.NProcs, s.RunID, runs[s.RunID])
			}
			if len(s.InitS) != s.NProcs || len(s.ToInitS) != s.NProcs || len(s.ShmemInitS) != s.NProcs {
				t.Fatalf("not every rank's times: %s", sc.Text())
			}
			for r := range s.InitS {
				if !(s.InitS[r] > 0) || !(s.ToInitS[r] >= s.InitS[r]) || !(s.ShmemInitS[r] > 0) {
					t.Errorf("rank %d: MPI_Init %g s, %g s from the launcher's start, shmem_init %g s", r, s.InitS[r], s.ToInitS[r], s.ShmemInitS[r])
				}
			}
			if !(s.LaunchS > slices.Max(s.ToInitS)) {
				t.Errorf("the launcher's wall time %g s is not beyond the slowest rank's start-up %g s", s.LaunchS, slices.Max(s.ToInitS))
			}
			launches[s.NProcs]++
		default:
			t.Errorf("unknown record: %s", sc.Text())
		}
	}
	if len(runs) != 2 || launches[1] != 2 || launches[2] != 2 {
		t.Errorf("runs %v, launches per process count %v: want 2 runs, 2 launches at 1 and at 2", runs, launches)
	}

	code, _, stderr = skampi(t, []string{"OMPI_COMM_WORLD_SIZE=2"}, "startup", "--np", "2", "--launches", "1")
	if code != 1 || !strings.Contains(stderr, "launches jobs itself") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("under a launcher: exit %d, stderr %q; want 1 and one line", code, stderr)
	}
}
