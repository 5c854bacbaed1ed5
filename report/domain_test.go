package report

import (
	"encoding/json"
	"github.com/skampi/skampi/record"
	"strings"
	"testing"
)

// Records as skampi writes them, one of each kind of field; the tests break one field
// at a time.
const (
	domainRun = `{"kind":"run","run_id":"r","skampi_version":"v","nprocs":4,"rank_hosts":["a","a","b","b"],"ranks_per_host":{"a":2,"b":2},"timer_resolution_s":1e-9,"points":9,"start_time":"2026-01-02T03:04:05Z"}`
	// stats: the fields every measured point has (time 2 µs, 3 repetitions).
	stats        = `"point_index":1,"measurement":"m","measurement_index":0,"iterations":10,"time_s":2e-6,"mean_s":2e-6,"median_s":2e-6,"min_s":1.9e-6,"p10_s":1.9e-6,"p90_s":2.1e-6,"max_s":2.1e-6,"stderr_s":1e-8,"reps":3,"samples_s":[1.9e-6,2e-6,2.1e-6],"discarded":0,"stop":"converged","timer":"global-loop","sync":"barrier","elapsed_s":0.01`
	pingpong     = `{"kind":"point","run_id":"r",` + stats + `,"op":"Pingpong_Send_Recv","msg_bytes":8,"nprocs":4,"ranks":[0,1],"latency_s":1e-6}`
	breakdownPt  = `{"kind":"point","run_id":"r",` + stats + `,"op":"Isend","msg_bytes":8,"nprocs":4,"ranks":[0,1],"full_s":2e-6,"full_stderr_s":1e-8,"post_s":5e-7,"post_stderr_s":1e-8,"wait_s":1.5e-6,"wait_stderr_s":1e-8,"overlapped_s":1.5e-6,"overlapped_stderr_s":1e-8,"compute_s":4e-6,"compute_target_s":4e-6,"spin_ns_per_iter":[0.5,0],"spin_iters":[8000,0],"overlap_ratio":0.25,"overlap_ratio_stderr":0.01,"progress_every":0}`
	lockPt       = `{"kind":"point","run_id":"r",` + stats + `,"op":"Lock_Held","msg_bytes":0,"nprocs":4,"ranks":[0,1,2,3],"rma_window":"allocate","hold_s":3e-6}`
	atomicPt     = `{"kind":"point","run_id":"r",` + stats + `,"op":"Shmem_Atomic_Fetch_Add_Int","msg_bytes":4,"nprocs":4,"ranks":[0,1,2,3],"ops_per_s":1.5e6}`
	ackPt        = `{"kind":"point","run_id":"r",` + stats + `,"op":"Bcast","method":"ack","msg_bytes":8,"nprocs":4,"ranks":[0],"task_time_s":[1e-6,2e-6,1.5e-6]}`
	alltoallPt   = `{"kind":"point","run_id":"r",` + stats + `,"op":"Alltoall","msg_bytes":8,"nprocs":4,"ranks":[0,1,2,3],"throughput_Bps":1.2e7}`
	clockRecord  = `{"kind":"clock","run_id":"r","rank":1,"host":"a","algorithm":"hca","elapsed_s":1,"residual_s":1e-7,"rtt_s":2e-6,"uncertainty_s":1e-7}`
	corruptFault = `{"kind":"fault","run_id":"r","point_index":7,"measurement":"m","op":"Pingpong_Send_Recv","msg_bytes":8,"nprocs":4,"ranks":[0,1],"fault":"corrupt","elapsed_s":0.1,"detail":"d","time":"2026-01-02T03:04:05Z","corrupt":{"rank":1,"from":0,"offset":3,"slot":0,"expected":7,"actual":9,"repetition":2}}`
)

// edit returns rec with fields set (a nil value deletes the field).
func edit(t *testing.T, rec string, set map[string]any) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(rec), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readLines(t *testing.T, lines ...string) *Results {
	t.Helper()
	res, err := Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "f")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The records above read without a problem: what the tests break is the one field. So
// do they without the fields older files lack.
func TestFieldDomainsOfGoodRecords(t *testing.T) {
	lines := []string{domainRun}
	for i, p := range []string{pingpong, breakdownPt, lockPt, atomicPt, ackPt, alltoallPt} {
		lines = append(lines, edit(t, p, map[string]any{"point_index": i + 1}))
	}
	res := readLines(t, append(lines, clockRecord, corruptFault)...)
	if len(res.Problems) > 0 || len(res.Points) != 6 || len(res.Clocks) != 1 || len(res.Faults) != 1 {
		t.Fatalf("problems %v, %d points", res.Problems, len(res.Points))
	}
	// The iteration timer takes its clock reads' cost off the computation too: a
	// computation shorter than that is negative, flagged, and kept.
	tiny := edit(t, breakdownPt, map[string]any{"point_index": 1, "timer": "iteration", "compute_s": -2.5e-8,
		"flags": []string{"negative_after_subtraction", "compute_off_target"}})
	if res := readLines(t, domainRun, tiny); len(res.Problems) > 0 || len(res.Points) != 1 {
		t.Fatalf("negative computation under the iteration timer: problems %v", res.Problems)
	}
	older := []string{domainRun}
	for i, p := range []string{lockPt, ackPt, pingpong} {
		older = append(older, edit(t, p, map[string]any{"point_index": i + 1, "hold_s": nil, "task_time_s": nil, "ranks": nil}))
	}
	older = append(older, edit(t, breakdownPt, map[string]any{"point_index": 4, "op": "Isend", "full_s": nil, "full_stderr_s": nil,
		"post_s": nil, "post_stderr_s": nil, "wait_s": nil, "wait_stderr_s": nil, "overlapped_s": nil, "overlapped_stderr_s": nil,
		"compute_s": nil, "compute_target_s": nil, "spin_ns_per_iter": nil, "spin_iters": nil, "overlap_ratio": nil,
		"overlap_ratio_stderr": nil, "progress_every": nil}))
	if res := readLines(t, older...); len(res.Problems) > 0 || len(res.Points) != 4 {
		t.Fatalf("older records: problems %v, %d points", res.Problems, len(res.Points))
	}
}

// The rule (record.Effect): a non-blocking point written by a skampi that flags what
// it leaves out holds its breakdown or breakdown_missing; neither is an error. Points of
// earlier builds (no release in skampi_version) are read as they are.
func TestBreakdownOrItsFlag(t *testing.T) {
	current := strings.Replace(domainRun, `"skampi_version":"v"`, `"skampi_version":"0.24.0 (commit abc1234)"`, 1)
	bare := map[string]any{"point_index": 1, "full_s": nil, "full_stderr_s": nil,
		"post_s": nil, "post_stderr_s": nil, "wait_s": nil, "wait_stderr_s": nil, "overlapped_s": nil, "overlapped_stderr_s": nil,
		"compute_s": nil, "compute_target_s": nil, "spin_ns_per_iter": nil, "spin_iters": nil, "overlap_ratio": nil,
		"overlap_ratio_stderr": nil, "progress_every": nil}
	lacking := edit(t, breakdownPt, bare)
	bare["flags"] = []string{record.FlagBreakdownMissing, record.FlagTimeCap}
	bare["stop"] = "time_cap"
	flagged := edit(t, breakdownPt, bare)
	busy := edit(t, lacking, map[string]any{"op": "Shmem_Put", "target_busy_s": 2e-5})
	for _, c := range []struct {
		name, run, point string
		problem          bool
	}{
		{"unflagged", current, lacking, true},
		{"flagged", current, flagged, false},
		{"with its breakdown", current, edit(t, breakdownPt, map[string]any{"point_index": 1}), false},
		{"a busy target's, timed whole", current, busy, false},
		{"an earlier build's", domainRun, lacking, false},
	} {
		res := readLines(t, c.run, c.point)
		got := false
		for _, p := range res.Problems {
			got = got || strings.Contains(p.String(), "no flag says why")
		}
		if got != c.problem || len(res.Points) != 1 {
			t.Errorf("%s: problems %v, %d points", c.name, res.Problems, len(res.Points))
		}
	}
}

// impossible is a record broken in the fields set (a nil value deletes one), and the
// error it gets; kept: the record is kept (a name this skampi does not know).
type impossible struct {
	name string
	rec  string
	set  map[string]any
	want string
	kept bool
}

// pointCases are points with a value no skampi writes.
func pointCases(t *testing.T) []impossible {
	return []impossible{
		// The overlap ratio and its flag.
		{"ratio above 1", breakdownPt, map[string]any{"overlap_ratio": 1.3}, "overlap_ratio is 1.3, outside [0, 1]", false},
		{"ratio below 0", breakdownPt, map[string]any{"overlap_ratio": -0.2, "flags": []string{"overlap_ratio_clamped"}}, "outside [0, 1]", false},
		{"raw ratio without flag", breakdownPt, map[string]any{"overlapped_s": 3e-6, "overlap_ratio": 0, "overlap_ratio_raw": -0.5, "flags": []string{"negative_after_subtraction"}}, "overlap_ratio_raw is given without the overlap_ratio_clamped flag", false},
		{"clamped without flag", breakdownPt, map[string]any{"overlapped_s": 3e-6, "overlap_ratio": 0}, "outside [0, 1], without the overlap_ratio_clamped flag", false},
		{"flag without raw", breakdownPt, map[string]any{"flags": []string{"overlap_ratio_clamped"}}, "flag overlap_ratio_clamped without overlap_ratio_raw", false},
		{"ratio not from its times", breakdownPt, map[string]any{"overlap_ratio": 0.9}, "overlap_ratio is 0.9, but 1 - overlapped_s/full_s is 0.25", false},
		// The breakdown as a whole.
		{"breakdown without full_s", breakdownPt, map[string]any{"full_s": nil}, "breakdown without full_s", false},
		{"breakdown without several", breakdownPt, map[string]any{"full_s": nil, "wait_s": nil}, "breakdown without full_s, wait_s", false},
		{"full_s is not time_s", breakdownPt, map[string]any{"full_s": 3e-6}, "full_s is 3e-06: it is the point's time_s", false},
		{"negative post without flag", breakdownPt, map[string]any{"post_s": -1e-7}, "post_s -1e-07 is negative without the negative_after_subtraction flag", false},
		{"negative compute", breakdownPt, map[string]any{"compute_s": -1e-7}, "compute_s is -1e-07", false},
		{"negative compute, global loop, flagged", breakdownPt, map[string]any{"compute_s": -1e-7, "flags": []string{"negative_after_subtraction"}}, "compute_s is -1e-07", false},
		{"negative compute, iteration timer, unflagged", breakdownPt, map[string]any{"compute_s": -1e-7, "timer": "iteration"}, "compute_s is -1e-07", false},
		{"negative wait without flag", breakdownPt, map[string]any{"wait_s": -1e-7}, "without the negative_after_subtraction flag", false},
		{"negative stderr", breakdownPt, map[string]any{"wait_stderr_s": -1e-9}, "wait_stderr_s is -1e-09", false},
		{"compute target", breakdownPt, map[string]any{"compute_target_s": 1e-6}, "compute_target_s is 1e-06", false},
		{"spin per rank", breakdownPt, map[string]any{"spin_iters": []int{8000}}, "one value per rank", false},
		{"breakdown of a blocking op", breakdownPt, map[string]any{"op": "Pingpong_Send_Recv", "latency_s": 1e-6}, "Pingpong_Send_Recv is not non-blocking", false},
		{"breakdown and its missing flag", breakdownPt, map[string]any{"flags": []string{"breakdown_missing"}}, "flag breakdown_missing with a breakdown", false},
		{"breakdown flag without breakdown", pingpong, map[string]any{"flags": []string{"full_mismatch"}}, "flag full_mismatch without a breakdown", false},
		// Locks.
		{"negative hold", lockPt, map[string]any{"hold_s": -1e-5}, "hold_s is -1e-05", false},
		{"lock not held, unflagged", lockPt, map[string]any{"hold_s": 1e-5}, "less than half of hold_s 1e-05 without the lock_not_held flag", false},
		{"lock flag, held", lockPt, map[string]any{"flags": []string{"lock_not_held"}}, "flag lock_not_held, but time_s", false},
		{"lock flag without hold", lockPt, map[string]any{"hold_s": nil, "flags": []string{"lock_not_held"}}, "flag lock_not_held without hold_s", false},
		{"hold of a lockless op", pingpong, map[string]any{"hold_s": 1e-5}, "Pingpong_Send_Recv holds no lock", false},
		// Processes and ranks.
		{"collective on fewer ranks", alltoallPt, map[string]any{"nprocs": 2}, "nprocs 2 disagrees with the 4 rank(s) listed", false},
		{"pair of three", pingpong, map[string]any{"ranks": []int{0, 1, 2}}, "nprocs 4 disagrees with the 3 rank(s) listed", false},
		{"rank twice", pingpong, map[string]any{"ranks": []int{1, 1}}, "ranks holds rank 1 twice", false},
		{"rank outside the run", pingpong, map[string]any{"ranks": []int{0, 7}}, "ranks holds rank 7: world ranks are 0 to 4-1", false},
		{"more processes than the run", pingpong, map[string]any{"nprocs": 8}, "nprocs is 8, more than the 4 processes of run r", false},
		// Rates.
		{"negative ops_per_s", atomicPt, map[string]any{"ops_per_s": -5}, "ops_per_s is -5: a rate is never negative", false},
		{"ops_per_s not from time", atomicPt, map[string]any{"ops_per_s": 9e9}, "ops_per_s is 9e+09, but nprocs, msg_bytes and time_s give 1.5e+06", false},
		{"negative throughput", alltoallPt, map[string]any{"throughput_Bps": -1}, "throughput_Bps is -1", false},
		{"throughput of no time", alltoallPt, map[string]any{"time_s": -1e-6, "flags": []string{"negative_after_subtraction"}}, "throughput_Bps is given for a point whose time_s (-1e-06) is not positive", false},
		{"rate of another op", pingpong, map[string]any{"ops_per_s": 1e6}, "ops_per_s is given, but Pingpong_Send_Recv does not report it", false},
		{"latency not half", pingpong, map[string]any{"latency_s": 5e-6}, "latency_s is 5e-06", false},
		{"negative bandwidth", pingpong, map[string]any{"op": "Bandwidth_Isend_Irecv", "latency_s": nil, "bandwidth_Bps": -3, "window": 64}, "bandwidth_Bps is -3", false},
		// Per-task times.
		{"task times of a plain method", pingpong, map[string]any{"task_time_s": []float64{1e-6}}, "task_time_s is given, but Pingpong_Send_Recv (no method) times no tasks", false},
		{"too few tasks", ackPt, map[string]any{"task_time_s": []float64{2e-6}}, "task_time_s has 1 task(s): with nprocs 4 there are 3", false},
		{"time is no task's", ackPt, map[string]any{"task_time_s": []float64{1e-6, 3e-6, 1.5e-6}}, "time_s 2e-06 is none of task_time_s", false},
		// Other fields.
		{"negative iterations", pingpong, map[string]any{"iterations": -1}, "iterations is -1", false},
		{"negative elapsed", pingpong, map[string]any{"elapsed_s": -1}, "elapsed_s is -1", false},
		{"invalid fraction", pingpong, map[string]any{"invalid_fraction": 1.5}, "invalid_fraction is 1.5", false},
		{"cold area of a warm cache", pingpong, map[string]any{"cache": "warm", "cold_area_bytes": 1 << 20}, `cold_area_bytes is given for a point whose cache is "warm"`, false},
		{"negative window_s", pingpong, map[string]any{"window_s": -1e-6}, "window_s is -1e-06", false},
		{"atomic of two elements", atomicPt, map[string]any{"msg_bytes": 8}, "msg_bytes is 8: Shmem_Atomic_Fetch_Add_Int moves one element of 4 bytes", false},
		{"time without repetitions", pingpong, map[string]any{"reps": 0, "samples_s": []float64{}, "latency_s": nil}, "with no valid repetition", false},
		// Names: kept, but said.
		{"unknown timing method", ackPt, map[string]any{"method": "guess"}, `method "guess" is not a timing method of Bcast (known: barrier, sync, rounds, ack, osu); the record is kept`, true},
		{"method of a methodless op", pingpong, map[string]any{"method": "ack"}, `method "ack" is not a timing method of Pingpong_Send_Recv (it has none)`, true},
		{"unknown timer", pingpong, map[string]any{"timer": "sundial"}, `timer "sundial" is not one this skampi knows`, true},
		{"unknown stop", pingpong, map[string]any{"stop": "bored"}, `stop "bored" is not one this skampi knows`, true},
		{"unknown window kind", lockPt, map[string]any{"rma_window": "shared"}, `rma_window "shared"`, true},
	}
}

// A value no skampi writes is an error on its line naming the field, and its record is
// left out; a name this skampi does not know is an error, and the record is kept.
func TestImpossibleFieldValues(t *testing.T) {
	for _, c := range append(pointCases(t), newerPointCases(t)...) {
		t.Run(c.name, func(t *testing.T) {
			res := readLines(t, domainRun, edit(t, c.rec, c.set))
			found := false
			for _, p := range res.Problems {
				if p.Line != 2 || p.Warning {
					t.Errorf("problem not an error of line 2: %v", p)
				}
				found = found || strings.Contains(p.Msg, c.want) && namesAField(p.Msg, c.set)
			}
			if !found {
				t.Errorf("want an error with %q naming one of %v, got %v", c.want, keys(c.set), res.Problems)
			}
			if kept := len(res.Points) == 1; kept != c.kept {
				t.Errorf("record kept: %v, want %v", kept, c.kept)
			}
		})
	}
}

// recordCases are runs, clocks, faults and steps with a value no skampi writes; each is
// read after domainRun (unless it is the run itself).
func recordCases(t *testing.T) []impossible {
	return []impossible{
		{"hosts for another count", domainRun, map[string]any{"nprocs": 3, "ranks_per_host": nil}, "rank_hosts names 4 host(s) for nprocs 3", false},
		{"ranks per host add up wrong", domainRun, map[string]any{"ranks_per_host": map[string]int{"a": 2, "b": 1}}, "ranks_per_host adds up to 3 ranks for nprocs 4", false},
		{"negative resolution", domainRun, map[string]any{"timer_resolution_s": -1}, "timer_resolution_s is -1", false},
		{"clock of no rank", clockRecord, map[string]any{"rank": 9}, "rank 9 is not a rank of run r", false},
		{"negative rtt", clockRecord, map[string]any{"rtt_s": -1e-6}, "rtt_s is -1e-06", false},
		{"unknown algorithm", clockRecord, map[string]any{"algorithm": "ntp"}, `algorithm "ntp" is not a clock synchronisation`, false},
		{"fault rank outside", corruptFault, map[string]any{"ranks": []int{0, 5}}, "ranks holds rank 5", false},
		{"bad byte not a byte", corruptFault, map[string]any{"corrupt": map[string]any{"rank": 1, "actual": 300}}, "bytes are 0 to 255", false},
		{"bad byte of a timeout", corruptFault, map[string]any{"fault": "timeout"}, "corrupt (the first bad byte) is given for a timeout fault", false},
		{"stall of a crash", corruptFault, map[string]any{"fault": "crash", "corrupt": nil, "stalled_s": 3}, "stalled_s is given for a crash fault", false},
		{"fault method unknown", corruptFault, map[string]any{"method": "barrier"}, `method "barrier" is not a timing method of Pingpong_Send_Recv`, false},
	}
}

// Runs, clocks, faults and steps: what their fields cannot hold, an error on the
// record's line naming the field.
func TestImpossibleRunClockFaultValues(t *testing.T) {
	for _, c := range append(recordCases(t), newerRecordCases(t)...) {
		t.Run(c.name, func(t *testing.T) {
			lines := []string{domainRun, edit(t, c.rec, c.set)}
			if c.rec == domainRun {
				lines = lines[1:]
			}
			res := readLines(t, lines...)
			found := false
			for _, p := range res.Problems {
				found = found || p.Line == len(lines) && !p.Warning && strings.Contains(p.Msg, c.want) && namesAField(p.Msg, c.set)
			}
			if !found {
				t.Errorf("want an error on line %d with %q naming one of %v, got %v", len(lines), c.want, keys(c.set), res.Problems)
			}
		})
	}
}

// Every problem of a record is said, each on its own with the line.
func TestEveryProblemOfALine(t *testing.T) {
	res := readLines(t, domainRun, edit(t, breakdownPt, map[string]any{"overlap_ratio": 1.3, "post_s": -1.0, "ranks": []int{0, 1, 2}}))
	if len(res.Problems) < 3 {
		t.Fatalf("want the ratio, the post and the process count, got %v", res.Problems)
	}
	for _, p := range res.Problems {
		if p.Line != 2 {
			t.Errorf("%v", p)
		}
	}
}

// A step record is kept when its sizes nest (the bracket around the two sizes it was
// found between), refused otherwise, and merged once per run and curve.
func TestStepRecords(t *testing.T) {
	step := `{"kind":"step","run_id":"r","measurement":"pp","op":"Pingpong_Send_Recv","nprocs":2,"lo_bytes":4096,"hi_bytes":8192,"found_lo_bytes":4944,"found_hi_bytes":4945,"before_s":1e-6,"after_s":5e-6,"rounds":[[1e-6,1e-6]],"confirmed":false}`
	res := readLines(t, domainRun, step)
	if len(res.Problems) != 0 || len(res.Steps) != 1 || res.Steps[0].FoundHi != 4945 {
		t.Fatalf("a good step: %v, %+v", res.Problems, res.Steps)
	}
	res.Merge(readLines(t, domainRun, step))
	if len(res.Steps) != 1 {
		t.Errorf("merged with itself: %d steps", len(res.Steps))
	}
	for _, bad := range []map[string]any{{"lo_bytes": 5000}, {"hi_bytes": 4944}, {"found_hi_bytes": 4944}, {"confirmed": nil}} {
		res := readLines(t, domainRun, edit(t, step, bad))
		if len(res.Steps) != 0 || len(res.Problems) != 1 {
			t.Errorf("%v: kept %+v, problems %v", bad, res.Steps, res.Problems)
		}
	}
}
