package inputs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// processCounts are the jobs every built-in suite must plan for.
var processCounts = []int{2, 3, 4, 5, 8, 16, 64, 128, 1024}

// Every built-in suite (as the binary has them, the families' included, not a list
// written here) plans at any process count: no error, and every measurement has points
// or a note saying why not; what a rank holds stays within RankMemoryCap, and the ranks
// of the job together fit a machine of jobCap bytes, so `skampi -i SUITE --np N` starts
// on one. Run by families_test.go's TestBuiltinSuitesAtAnyProcessCount, with every
// family linked in.
func builtinSuitesAtAnyProcessCount(t *testing.T) {
	withMemory(t, jobCap, true)
	withHeap(t, nil) // Open MPI's default symmetric heap
	names := BuiltinNames()
	if len(names) < 10 {
		t.Fatalf("built-in suites: %v", names)
	}
	for _, name := range names {
		plan, err := Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, np := range processCounts {
			ex, err := plan.Expand(onOneHost(np))
			if err != nil {
				t.Errorf("%s at %d processes: %v", name, np, err)
				continue
			}
			count := map[*Measurement]int{}
			var r rankMemory
			peak := int64(0)
			for i := range ex.Points {
				pt := &ex.Points[i]
				count[pt.Measurement]++
				if pt.Index != i+1 {
					t.Errorf("%s at %d: point %d has index %d", name, np, i+1, pt.Index)
				}
				if need := pointMemory(pt); need > RankMemoryCap(np) {
					t.Errorf("%s at %d: %s at %s needs %s per rank, above the cap %s", name, np, pt.Measurement.Name, FormatSize(pt.Size), approxSize(need), approxSize(RankMemoryCap(np)))
				}
				peak = r.add(pt)
			}
			if int64(np)*peak > jobCap {
				t.Errorf("%s at %d: the buffers a rank keeps reach %s, %s for the job: more than %s", name, np, approxSize(peak), approxSize(int64(np)*peak), approxSize(jobCap))
			}
			for i := range plan.Measurements {
				m := &plan.Measurements[i]
				if count[m] == 0 && !noted(ex.Notes, m.Name) {
					t.Errorf("%s at %d: measurement %q has no points and no note says why (notes: %q)", name, np, m.Name, ex.Notes)
				}
			}
		}
	}
}

func noted(notes []string, measurement string) bool {
	for _, n := range notes {
		if strings.Contains(n, fmt.Sprintf("%q", measurement)) {
			return true
		}
	}
	return false
}

// A job of one process is refused by every suite with the reason, whatever its buffers.
func TestBuiltinSuitesNeedTwoProcesses(t *testing.T) {
	for _, name := range BuiltinNames() {
		plan, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := plan.Expand(Job{NProcs: 1}); err == nil || !strings.Contains(err.Error(), "needs at least 2 processes, the job has 1 (use --np)") {
			t.Errorf("%s on 1 process: %v", name, err)
		}
	}
}

// The points left out depend on the process count alone: the launcher (hosts unknown),
// the ranks (their hosts), resume and crash blame (the run header's hosts) and check all
// expand the same list, whatever this machine's memory.
func TestCapIsTheSameOnEveryHostLayout(t *testing.T) {
	withHeap(t, nil)
	type pointID struct {
		measurement, method string
		size                int64
		nprocs              int
	}
	ids := func(ex *Expansion) []pointID {
		out := make([]pointID, len(ex.Points))
		for i, pt := range ex.Points {
			out[i] = pointID{pt.Measurement.Name, pt.Method, pt.Size, pt.NProcs}
		}
		return out
	}
	for _, name := range BuiltinNames() {
		plan, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, np := range []int{64, 1024} {
			spread := Job{NProcs: np, Hosts: make([]string, np)}
			for i := range spread.Hosts {
				spread.Hosts[i] = fmt.Sprintf("node%d", i/16)
			}
			var lists [][]pointID
			for _, c := range []struct {
				job Job
				mem int64
			}{{Job{NProcs: np}, jobCap}, {onOneHost(np), 1 << 40}, {spread, 4 << 30}} {
				withMemory(t, c.mem, true)
				ex, err := plan.Expand(c.job)
				if err != nil {
					t.Fatalf("%s at %d: %v", name, np, err)
				}
				lists = append(lists, ids(ex))
			}
			if !slices.Equal(lists[0], lists[1]) || !slices.Equal(lists[0], lists[2]) {
				t.Errorf("%s at %d: the points differ with the hosts or the memory: %d, %d, %d", name, np, len(lists[0]), len(lists[1]), len(lists[2]))
			}
		}
	}
}
