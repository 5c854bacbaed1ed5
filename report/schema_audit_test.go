package report

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

// Records of the operations whose settings add fields, as skampi writes them (time 2
// µs, nprocs 4, in domainRun).
const (
	// 2 threads a rank, a ping-pong each: 4 messages a step over a span of 2.5 µs.
	mtPt      = `{"kind":"point","run_id":"r",` + stats + `,"op":"Pingpong_Send_Recv_MT","msg_bytes":8,"nprocs":4,"ranks":[0,1],"latency_s":1e-6,"threads":2,"thread_comm":"dup","thread_pinning":"core","thread_mean_s":1.5e-6,"thread_span_s":2.5e-6,"msgs_per_s":1.6e6,"thread_cpus":[[0,1],[2,3]]}`
	bwPt      = `{"kind":"point","run_id":"r",` + stats + `,"op":"Bandwidth_Isend_Irecv","msg_bytes":8,"nprocs":4,"ranks":[0,1],"window":64,"recv_slots":"shared","bandwidth_Bps":2.56e8,"messages_per_s":3.2e7}`
	delayPt   = `{"kind":"point","run_id":"r",` + stats + `,"op":"Win_start","msg_bytes":8,"nprocs":4,"ranks":[0,1],"rma_window":"allocate","delay_s":1e-5}`
	busyPt    = `{"kind":"point","run_id":"r",` + stats + `,"op":"Shmem_Get","msg_bytes":8,"nprocs":4,"ranks":[0,1],"window":1,"target_busy_s":2e-5,"poll_every":100,"poll":"quiet"}`
	skewPt    = `{"kind":"point","run_id":"r",` + stats + `,"op":"Alltoallv_Skewed","msg_bytes":8,"nprocs":4,"ranks":[0,1,2,3],"ratio":4}`
	haloPt    = `{"kind":"point","run_id":"r",` + stats + `,"op":"Halo_Twosided","msg_bytes":8,"nprocs":4,"ranks":[0,1,2,3],"halo_compute_s":1e-5}`
	stridedPt = `{"kind":"point","run_id":"r",` + stats + `,"op":"Pingpong_Send_Recv","msg_bytes":8,"nprocs":4,"ranks":[0,1],"latency_s":1e-6,"data_layout":"vector","stride":2,"type_commit":"every_call"}`
	partPt    = `{"kind":"point","run_id":"r",` + stats + `,"op":"Pingpong_Partitioned","msg_bytes":8,"nprocs":4,"ranks":[0,1],"latency_s":1e-6,"partitions":4}`
	neighPt   = `{"kind":"point","run_id":"r",` + stats + `,"op":"Neighbor_allgather","msg_bytes":8,"nprocs":4,"ranks":[0,1,2,3],"topology":"cart:2x2"}`
	// 1:N: one sender thread, 4 receiver threads; no pairs, so no thread_comm, mean
	// thread, span or messages per second.
	fanPt = `{"kind":"point","run_id":"r",` + stats + `,"op":"Pingpong_Send_Recv_MT_1toN","msg_bytes":8,"nprocs":4,"ranks":[0,1],"latency_s":1e-6,"threads":4,"thread_pinning":"none","thread_cpus":[[0],[1,1,1,1]]}`
	// One call moves 4 * 8 bytes.
	ioPt = `{"kind":"point","run_id":"r",` + stats + `,"op":"File_Write_At","msg_bytes":8,"nprocs":4,"ranks":[0,1,2,3],"bandwidth_Bps":4e6,"io_total_bytes":32,"aggregate_Bps":1.6e7,"io_dir":"/tmp"}`
	// IMB-IO's aggregate mode: 4 writes a sample, time_s per write, so the rates are
	// one write's, as without a window.
	ioAggPt = `{"kind":"point","run_id":"r",` + stats + `,"op":"File_Write_At","method":"imb","window":4,"msg_bytes":8,"nprocs":4,"ranks":[0,1,2,3],"bandwidth_Bps":4e6,"io_total_bytes":32,"aggregate_Bps":1.6e7,"io_dir":"/tmp"}`
	// A subtraction's point (Bcast's barrier) and one whose samples moved (flagged).
	subtractedPt = `{"kind":"point","run_id":"r",` + stats + `,"op":"Bcast","method":"barrier","msg_bytes":8,"nprocs":4,"ranks":[0,1,2,3],"subtracted_s":1e-6,"subtracted_stderr_s":1e-8}`
	statsPt      = `{"kind":"point","run_id":"r",` + stats + `,"op":"Pingpong_Send_Recv","msg_bytes":8,"nprocs":4,"ranks":[0,1],"latency_s":1e-6,"transient_reps":2,"unsteady":"halves apart","batch_stderr_s":3e-8,"preemptions":4,"off_cpu":0.6,"rank_time_s":[2e-6,2e-6],"flags":["transient_dropped","unsteady","drift","noisy"]}`
	stepRecord   = `{"kind":"step","run_id":"r","measurement":"pp","op":"Pingpong_Send_Recv","nprocs":2,"ranks":[0,1],"lo_bytes":4944,"hi_bytes":4945,"found_lo_bytes":4944,"found_hi_bytes":4945,"before_s":1e-6,"after_s":5e-6,"rounds":[[1e-6,5e-6],[1e-6,5e-6]],"confirmed":true}`
	timeoutFault = `{"kind":"fault","run_id":"r","point_index":20,"measurement":"m","op":"Pingpong_Send_Recv","msg_bytes":8,"nprocs":4,"ranks":[0,1],"fault":"timeout","elapsed_s":10,"stalled_s":8,"detail":"d","time":"2026-01-02T03:04:05Z"}`
)

// The records above read without a problem: what the tests break is the field.
func TestNewerFieldsOfGoodRecords(t *testing.T) {
	lines := []string{domainRun}
	for i, p := range []string{mtPt, fanPt, bwPt, delayPt, busyPt, skewPt, haloPt, stridedPt, partPt, neighPt, ioPt, ioAggPt, subtractedPt, statsPt} {
		lines = append(lines, edit(t, p, map[string]any{"point_index": i + 1}))
	}
	res := readLines(t, append(lines, stepRecord, timeoutFault)...)
	if len(res.Problems) > 0 || len(res.Points) != 14 || len(res.Steps) != 1 || len(res.Faults) != 1 {
		t.Fatalf("problems %v, %d points, %d steps", res.Problems, len(res.Points), len(res.Steps))
	}
}

// newerPointCases: the fields of settings and operations added since the schema's first
// audit, each broken on its own.
func newerPointCases(t *testing.T) []impossible {
	return []impossible{
		// Multi-threaded points.
		{"no threads", mtPt, map[string]any{"threads": 0}, "threads is 0: a multi-threaded point runs 1 to 64 threads per rank", false},
		{"negative threads", mtPt, map[string]any{"threads": -3}, "threads is -3", false},
		{"100,000 threads", mtPt, map[string]any{"threads": 100000}, "threads is 100000", false},
		{"threads of a single-threaded op", pingpong, map[string]any{"threads": 2}, "threads given, but Pingpong_Send_Recv is not multi-threaded", false},
		{"thread fields without threads", mtPt, map[string]any{"threads": nil}, "thread_comm, thread_pinning, thread_mean_s, thread_span_s, msgs_per_s, thread_cpus given without threads", false},
		{"mean thread above the slowest", mtPt, map[string]any{"thread_mean_s": 5e-6}, "thread_mean_s 5e-06 is above time_s 2e-06", false},
		{"negative mean thread", mtPt, map[string]any{"thread_mean_s": -1e-6}, "thread_mean_s is -1e-06", false},
		{"span below the slowest", mtPt, map[string]any{"thread_span_s": 1e-6}, "thread_span_s 1e-06 is below time_s 2e-06", false},
		{"negative msgs_per_s", mtPt, map[string]any{"msgs_per_s": -5}, "msgs_per_s is -5: a rate is never negative", false},
		{"msgs_per_s not from its threads", mtPt, map[string]any{"msgs_per_s": 9e9}, "msgs_per_s is 9e+09, but threads, window and thread_span_s (or time_s) give 1.5999", false},
		{"msgs_per_s of a ping-pong", pingpong, map[string]any{"msgs_per_s": 5e5}, "msgs_per_s given, but Pingpong_Send_Recv is not multi-threaded", false},
		{"negative CPU", mtPt, map[string]any{"thread_cpus": [][]int{{-5, 1}, {2, 3}}}, "thread_cpus row 0 holds CPU -5", false},
		{"huge CPU", mtPt, map[string]any{"thread_cpus": [][]int{{0, 1 << 40}, {2, 3}}}, "thread_cpus row 0 holds CPU 1099511627776", false},
		{"CPUs of another thread count", mtPt, map[string]any{"thread_cpus": [][]int{{0, 1, 2}, {2, 3, 4}}}, "thread_cpus row 0 has 3 CPU(s) for 2 threads", false},
		{"CPUs of more ranks", mtPt, map[string]any{"thread_cpus": [][]int{{0, 1}, {2, 3}, {4, 5}}}, "thread_cpus has 3 row(s)", false},
		{"unknown thread_comm", mtPt, map[string]any{"thread_comm": "shared"}, `thread_comm "shared" is not one this skampi knows`, true},
		{"thread_comm at 1:N", fanPt, map[string]any{"thread_comm": "dup"}, "thread_comm given, but Pingpong_Send_Recv_MT_1toN has one sender thread", false},
		{"mean and span at 1:N", fanPt, map[string]any{"thread_mean_s": 2e-6, "thread_span_s": 2e-6}, "thread_mean_s, thread_span_s given, but Pingpong_Send_Recv_MT_1toN has one sender thread", false},
		{"msgs_per_s at 1:N", fanPt, map[string]any{"msgs_per_s": 1e6}, "msgs_per_s is given, but Pingpong_Send_Recv_MT_1toN does not report it", false},
		{"initiator's CPUs at 1:N", fanPt, map[string]any{"thread_cpus": [][]int{{0, 1, 0, 1}, {1, 1, 1, 1}}}, "thread_cpus row 0 has 4 CPU(s): the initiator of Pingpong_Send_Recv_MT_1toN runs one thread", false},
		{"receivers' CPUs at 1:N", fanPt, map[string]any{"thread_cpus": [][]int{{0}, {1}}}, "thread_cpus row 1 has 1 CPU(s) for 4 threads", false},
		{"unknown thread_pinning", mtPt, map[string]any{"thread_pinning": "socket"}, `thread_pinning "socket" is not one this skampi knows`, true},
		// Rates.
		{"negative messages_per_s", bwPt, map[string]any{"messages_per_s": -5}, "messages_per_s is -5: a rate is never negative", false},
		{"messages_per_s of a ping-pong", pingpong, map[string]any{"messages_per_s": 5e5}, "messages_per_s is given, but Pingpong_Send_Recv does not report it", false},
		{"window of a ping-pong", pingpong, map[string]any{"window": 64}, "window is given, but Pingpong_Send_Recv sends no window", false},
		{"window of a write without method imb", ioPt, map[string]any{"window": 4}, "window is given, but File_Write_At sends no window of messages, and aggregates no calls (no method)", false},
		{"aggregate of a windowed write, not per write", ioAggPt, map[string]any{"aggregate_Bps": 6.4e7}, "aggregate_Bps is 6.4e+07, but nprocs, msg_bytes and time_s give 1.6e+07", false},
		{"MPI-IO bytes not nprocs times", ioPt, map[string]any{"io_total_bytes": 8}, "io_total_bytes is 8: one call moves nprocs * msg_bytes, 32", false},
		{"MPI-IO bytes of a ping-pong", pingpong, map[string]any{"io_total_bytes": 16}, "io_total_bytes is given, but Pingpong_Send_Recv is not an MPI-IO operation", false},
		{"aggregate not from its time", ioPt, map[string]any{"aggregate_Bps": 1}, "aggregate_Bps is 1, but nprocs, msg_bytes and time_s give 1.6e+07", false},
		{"negative aggregate", ioPt, map[string]any{"aggregate_Bps": -1}, "aggregate_Bps is -1", false},
		{"io_dir of a ping-pong", pingpong, map[string]any{"io_dir": "/tmp"}, "io_dir or io_hints is given, but Pingpong_Send_Recv is not an MPI-IO operation", false},
		{"io_hints of a ping-pong", pingpong, map[string]any{"io_hints": map[string]string{"cb_buffer_size": "1"}}, "io_dir or io_hints is given", false},
		{"family setting's name with a blank", pingpong, map[string]any{"family_settings": map[string]string{"a b": "1"}}, `family_settings has "a b"`, false},
		{"family setting's empty value", pingpong, map[string]any{"family_settings": map[string]string{"segment": ""}}, `family_settings' segment is ""`, false},
		// A subtraction's part.
		{"negative part", subtractedPt, map[string]any{"subtracted_s": -1e-6}, "subtracted_s is -1e-06: the part taken off is a measured time", false},
		{"part of a plain method", pingpong, map[string]any{"subtracted_s": 1e-6}, "subtracted_s is given, but Pingpong_Send_Recv (no method) subtracts nothing", false},
		// Settings' fields.
		{"negative delay", delayPt, map[string]any{"delay_s": -1}, "delay_s is -1: a duration is never negative", false},
		{"delay of a ping-pong", pingpong, map[string]any{"delay_s": 1e-5}, "delay_s is given, but Pingpong_Send_Recv has no late rank or partner", false},
		{"negative halo computation", haloPt, map[string]any{"halo_compute_s": -1e-5}, "halo_compute_s is -1e-05", false},
		{"halo computation of a ping-pong", pingpong, map[string]any{"halo_compute_s": 1e-5}, "halo_compute_s is given, but Pingpong_Send_Recv computes nothing", false},
		{"negative busy target", busyPt, map[string]any{"target_busy_s": -1, "poll_every": nil, "poll": nil}, "target_busy_s is -1", false},
		{"busy target of a ping-pong", pingpong, map[string]any{"target_busy_s": 1e-5}, "target_busy_s is given, but Pingpong_Send_Recv has no passive target", false},
		{"poll of an idle target", busyPt, map[string]any{"target_busy_s": 0}, "poll_every is given, but the target was not busy", false},
		{"negative poll_every", busyPt, map[string]any{"poll_every": -1}, "poll_every is -1", false},
		{"poll that never polls", busyPt, map[string]any{"poll_every": 0}, `poll "quiet" is given with poll_every 0`, false},
		{"poll without poll_every", busyPt, map[string]any{"poll_every": nil}, `poll "quiet" is given without poll_every`, false},
		{"unknown poll", busyPt, map[string]any{"poll": "yield"}, `poll "yield" is not one this skampi knows`, true},
		{"ratio 0", skewPt, map[string]any{"ratio": 0}, "ratio is 0: rank 0 sends at least once", false},
		{"ratio of a ping-pong", pingpong, map[string]any{"ratio": 4}, "ratio is given, but Pingpong_Send_Recv sends the same to every rank", false},
		{"layout of a collective", skewPt, map[string]any{"data_layout": "vector"}, "data_layout is given, but Alltoallv_Skewed takes no data_layout", false},
		{"unknown layout", stridedPt, map[string]any{"data_layout": "zigzag", "stride": nil, "type_commit": nil}, `data_layout "zigzag" is not one this skampi knows`, true},
		{"stride 0", stridedPt, map[string]any{"stride": 0}, "stride is 0", false},
		{"stride without a layout", pingpong, map[string]any{"stride": 2}, "stride is given without a strided data_layout", false},
		{"commit without a layout", pingpong, map[string]any{"type_commit": "every_call"}, "type_commit is given without a strided data_layout", false},
		{"unknown commit", stridedPt, map[string]any{"type_commit": "never"}, `type_commit "never" is not one this skampi knows`, true},
		{"no partitions", partPt, map[string]any{"partitions": 0}, "partitions is 0", false},
		{"partitions of a ping-pong", pingpong, map[string]any{"partitions": 4}, "partitions is given, but Pingpong_Send_Recv is not partitioned", false},
		{"topology of a ping-pong", pingpong, map[string]any{"topology": "ring"}, "topology is given, but Pingpong_Send_Recv is not a neighbourhood collective", false},
		// The statistics' flags and the fields that say why.
		{"negative transient", statsPt, map[string]any{"transient_reps": -1}, "transient_reps is -1", false},
		{"transient without its flag", pingpong, map[string]any{"transient_reps": 2}, "transient_reps 2 and flag transient_dropped disagree", false},
		{"unsteady without its flag", pingpong, map[string]any{"unsteady": "halves apart"}, `unsteady "halves apart" and flag unsteady disagree`, false},
		{"negative batch error", pingpong, map[string]any{"batch_stderr_s": -1e-8}, "batch_stderr_s is -1e-08", false},
		{"drift unflagged", pingpong, map[string]any{"batch_stderr_s": 5e-8}, "batch_stderr_s 5e-08 and stderr_s 1e-08 with flag drift false", false},
		{"drift flagged without its error", statsPt, map[string]any{"batch_stderr_s": nil}, "flag drift without batch_stderr_s", false},
		{"negative preemptions", statsPt, map[string]any{"preemptions": -1}, "preemptions is -1", false},
		{"off the core beyond the point", statsPt, map[string]any{"off_cpu": 1.5}, "off_cpu is 1.5", false},
		{"flag twice", pingpong, map[string]any{"flags": []string{"few_repetitions", "few_repetitions"}}, "flag few_repetitions is given twice", false},
		// What every point has.
		{"no run before it", pingpong, map[string]any{"run_id": "elsewhere"}, `run_id "elsewhere" has no run record before it`, false},
		{"no measurement", pingpong, map[string]any{"measurement": ""}, "point record needs a measurement and an op", false},
		{"negative measurement_index", pingpong, map[string]any{"measurement_index": -1}, "measurement_index is -1", false},
		{"negative size", pingpong, map[string]any{"msg_bytes": -8}, "negative msg_bytes", false},
		{"point_index 0", pingpong, map[string]any{"point_index": 0}, "point_index 0", false},
		{"negative discarded", pingpong, map[string]any{"discarded": -1}, "discarded is -1", false},
		{"negative stderr", pingpong, map[string]any{"stderr_s": -1e-9}, "negative stderr_s", false},
		{"samples for other repetitions", pingpong, map[string]any{"samples_s": []float64{1e-6}}, "1 samples for 3 repetitions", false},
		{"median above p90", pingpong, map[string]any{"median_s": 3e-6}, "median_s 3e-06 > p90_s", false},
		{"p10 below min", pingpong, map[string]any{"p10_s": 1e-6}, "min_s 1.9e-06 > p10_s 1e-06", false},
		{"p90 below median", pingpong, map[string]any{"p90_s": 1.95e-6}, "median_s 2e-06 > p90_s 1.95e-06", false},
		{"max below p90", pingpong, map[string]any{"max_s": 2e-6}, "p90_s 2.1e-06 > max_s 2e-06", false},
		{"unknown sync", pingpong, map[string]any{"sync": "sundial"}, `sync "sundial" is not one this skampi knows`, true},
		{"unknown cache", pingpong, map[string]any{"cache": "lukewarm"}, `cache "lukewarm" is not one this skampi knows`, true},
		{"unknown recv_slots", bwPt, map[string]any{"recv_slots": "some"}, `recv_slots "some" is not one this skampi knows`, true},
		{"unknown op", pingpong, map[string]any{"op": "Pingpong_Telepathy", "latency_s": nil}, `op "Pingpong_Telepathy" is not an operation this skampi knows`, true},
		{"negative subtracted stderr", subtractedPt, map[string]any{"subtracted_stderr_s": -1}, "subtracted_stderr_s is -1", false},
		// The breakdown's other fields.
		{"negative full stderr", breakdownPt, map[string]any{"full_stderr_s": -1e-9}, "full_stderr_s is -1e-09", false},
		{"negative post stderr", breakdownPt, map[string]any{"post_stderr_s": -1e-9}, "post_stderr_s is -1e-09", false},
		{"negative overlapped stderr", breakdownPt, map[string]any{"overlapped_stderr_s": -1e-9}, "overlapped_stderr_s is -1e-09", false},
		{"negative ratio stderr", breakdownPt, map[string]any{"overlap_ratio_stderr": -0.1}, "overlap_ratio_stderr is -0.1", false},
		{"negative spin", breakdownPt, map[string]any{"spin_ns_per_iter": []float64{-0.5, 0}}, "spin_ns_per_iter and spin_iters are never negative", false},
		{"negative progress_every", breakdownPt, map[string]any{"progress_every": -1}, "progress_every is -1", false},
		{"timer costing a second", breakdownPt, map[string]any{"timer_overhead_s": []float64{1, 0}}, "timer_overhead_s holds 1", false},
		{"target of another calibration", breakdownPt, map[string]any{"full_calibration_s": 5e-6}, "compute_target_s is 4e-06: the computation is calibrated for 2 times full_calibration_s", false},
	}
}

// newerRecordCases: the fields of runs, faults and steps added since, and the
// relations among them.
func newerRecordCases(t *testing.T) []impossible {
	return []impossible{
		{"negative settle rounds", domainRun, map[string]any{"settle_rounds": -1}, "settle_rounds is -1", false},
		{"negative settle barrier", domainRun, map[string]any{"settle_barrier_s": -1e-6}, "settle_barrier_s is -1e-06", false},
		{"negative points", domainRun, map[string]any{"points": -1}, "points is -1", false},
		{"run of no process", domainRun, map[string]any{"nprocs": 0, "rank_hosts": nil, "ranks_per_host": nil}, "nprocs >= 1", false},
		{"no run id", domainRun, map[string]any{"run_id": ""}, "needs a run_id", false},
		{"stalled longer than the point", timeoutFault, map[string]any{"stalled_s": 12}, "stalled_s 12 is more than elapsed_s 10", false},
		{"negative stall", timeoutFault, map[string]any{"stalled_s": -1}, "stalled_s is -1", false},
		{"negative fault elapsed", timeoutFault, map[string]any{"elapsed_s": -1, "stalled_s": nil}, "elapsed_s is -1", false},
		{"fault of more processes than the run", timeoutFault, map[string]any{"nprocs": 8}, "nprocs is 8, more than the 4 processes of run r", false},
		{"unknown fault", timeoutFault, map[string]any{"fault": "boredom"}, `unknown fault "boredom"`, false},
		{"fault of a negative size", timeoutFault, map[string]any{"msg_bytes": -1}, "negative msg_bytes", false},
		{"fault of a negative index", timeoutFault, map[string]any{"point_index": -1}, "point_index", false},
		{"fault of no run", timeoutFault, map[string]any{"run_id": "elsewhere"}, `run_id "elsewhere" has no run record before it`, false},
		{"clock of a negative time", clockRecord, map[string]any{"elapsed_s": -1}, "elapsed_s is -1", false},
		{"clock of a negative uncertainty", clockRecord, map[string]any{"uncertainty_s": -1}, "uncertainty_s is -1", false},
		{"clock of no run", clockRecord, map[string]any{"run_id": "elsewhere"}, `run_id "elsewhere" has no run record before it`, false},
		{"negative step size", stepRecord, map[string]any{"lo_bytes": -5, "found_lo_bytes": 0, "confirmed": false}, "lo_bytes", false},
		{"step bracket inside its sizes", stepRecord, map[string]any{"hi_bytes": 4944}, "hi_bytes", false},
		{"step found the wrong way round", stepRecord, map[string]any{"found_hi_bytes": 4944}, "found_hi_bytes", false},
		{"step found outside its bracket", stepRecord, map[string]any{"found_lo_bytes": 4000}, "found_lo_bytes", false},
		{"step of no process", stepRecord, map[string]any{"nprocs": 0}, "nprocs", false},
		{"step of more processes than the run", stepRecord, map[string]any{"nprocs": 8}, "nprocs is 8, more than the 4 processes", false},
		{"step of a rank outside", stepRecord, map[string]any{"ranks": []int{0, 9}}, "ranks holds rank 9", false},
		{"step before no time", stepRecord, map[string]any{"before_s": 0}, "before_s 0 and after_s 5e-06", false},
		{"step after a negative time", stepRecord, map[string]any{"after_s": -1e-6}, "before_s 1e-06 and after_s -1e-06", false},
		{"step round of no time", stepRecord, map[string]any{"rounds": [][2]float64{{1e-6, 0}}}, "rounds[0] is [1e-06 0]", false},
		{"confirmed step widened", stepRecord, map[string]any{"lo_bytes": 4096}, "confirmed, but lo_bytes 4096", false},
		{"confirmed step not measured again", stepRecord, map[string]any{"rounds": [][2]float64{}}, "confirmed, but", false},
		{"step of no run", stepRecord, map[string]any{"run_id": "elsewhere"}, `run_id "elsewhere" has no run record before it`, false},
	}
}

// namesAField says whether msg names one of the fields set, as an error must (a flag
// of flags by "flag").
func namesAField(msg string, set map[string]any) bool {
	for k := range set {
		if strings.Contains(msg, k) || k == "flags" && strings.Contains(msg, "flag ") {
			return true
		}
	}
	return false
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// unchecked are the fields no value of which is impossible, with why: free text and
// provenance, or a value only its library gives. Every other field of every record kind
// has a case above that breaks it.
var unchecked = map[string]string{
	"kind": "says the record's kind (an unknown one is a warning)", "family": "the catalogue's label, kept as written",
	"check_data": "true or false", "smoke": "true or false", "pvars": "the library's own values", "pvars_missing": "the library's names",
	"method": "a name: checked against the operation where the record has one (pointNames)", "op": "a name: an unknown one is kept",
	"time_s": "any finite value; negative only flagged (checkPoint)", "iterations": "checked as a count (pointFields)",
	"rank_time_s": "per participant, by the engine's own count", "stop": "a name (pointNames)",
	"timer": "a name (pointNames)", "rma_window": "a name (pointNames)", "hold_s": "Lock_Held's (lock)",
	"task_time_s": "a per-task method's (tasks)", "latency_s": "half of time_s (rates)", "throughput_Bps": "its formula (rates)",
	"ops_per_s": "its formula (rates)", "bandwidth_Bps": "never negative (rates)", "window_s": "never negative (optional)",
	"invalid_fraction": "in [0, 1] (optional)", "cold_area_bytes": "cold caches only (optional)", "ranks": "world ranks of the run (ranks)",
	"nprocs": "at least 1, at most the run's", "elapsed_s": "never negative", "mean_s": "a mean; a subtraction's is the difference of the means",
	"min_s": "in order (checkPoint)", "reps": "at least 0 (checkPoint)", "refined": "between the listed sizes (TestRefinedBetweenListedSizes)",
	// The breakdown's, checked by breakdown and overlapRatio.
	"full_s": "time_s", "post_s": "flagged if negative", "wait_s": "flagged if negative", "wait_stderr_s": "never negative",
	"overlapped_s": "flagged if negative", "compute_s": "never negative unflagged", "compute_target_s": "twice full",
	"spin_iters": "one per rank", "overlap_ratio": "in [0, 1]", "overlap_ratio_raw": "outside [0, 1], flagged",
	// A run header's provenance: a wrong value never costs the measurements.
	"skampi_version": "provenance", "go_version": "provenance", "mpi_library": "provenance", "mpi_version": "provenance",
	"hosts": "provenance", "rank_hosts": "one per rank (runFields)", "rank_cpus": "provenance: a warning (runWarnings)",
	"ranks_per_host": "adds up to nprocs (runFields)", "timer_resolution_s": "never negative (runFields)", "suite": "provenance",
	"suite_source": "provenance", "suite_sha256": "provenance", "env": "provenance", "command": "provenance",
	"start_time": "a time (its type)", "resume": "true or false", "allow_broken": "true or false",
	"thread_level_requested": "provenance", "thread_level_provided": "provenance", "shmem_library": "provenance",
	"shmem_version": "provenance", "cpu_model": "provenance", "kernel": "provenance", "ucx_version": "provenance",
	"libfabric_version": "provenance", "mpi_components": "provenance", "mpi_cvars": "provenance", "overrides": "provenance",
	"overrides_why": "provenance", "plan_notes": "provenance",
	// Faults, clocks and steps.
	"detail": "free text", "time": "a time (its type)", "corrupt": "its bytes and ranks (faultFields)", "host": "free text",
	"residual_s": "any sign: the clock's offset", "rtt_s": "never negative (clockFields)", "rank": "a rank of the run (clockFields)",
	"algorithm": "a name (clockNames)", "measurement": "free text, not empty in a point", "confirmed": "true or false",
}

// Every field of every record kind is held to its invariants by a case above, or is
// listed in unchecked with why: a field added to record without either fails here, so
// the schema is audited as it grows.
func TestEveryFieldAudited(t *testing.T) {
	broken := map[string]bool{}
	for _, c := range append(append(pointCases(t), newerPointCases(t)...), append(recordCases(t), newerRecordCases(t)...)...) {
		for k := range c.set {
			broken[k] = true
		}
	}
	var missing []string
	for _, v := range []any{record.Point{}, record.Breakdown{}, record.Run{}, record.Fault{}, record.Clock{}, record.Step{}} {
		for _, f := range jsonFields(reflect.TypeOf(v)) {
			if !broken[f] && unchecked[f] == "" && !slices.Contains(missing, f) {
				missing = append(missing, f)
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("fields with no case that breaks them and not listed as unchecked: %v", missing)
	}
}

// jsonFields are the JSON names of a record type's fields, an embedded struct's inlined.
func jsonFields(ty reflect.Type) []string {
	var out []string
	for i := range ty.NumField() {
		f := ty.Field(i)
		if f.Anonymous {
			continue // the breakdown, audited on its own
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// A refined point lies strictly between the sizes listed for its curve, in its run or
// the runs it resumes; a listed size after a refined one of the same size is no order
// skampi writes either.
func TestRefinedBetweenListedSizes(t *testing.T) {
	at := func(i int, size int64, refined bool) string {
		set := map[string]any{"point_index": i, "msg_bytes": size}
		if refined {
			set["refined"] = true
		}
		return edit(t, pingpong, set)
	}
	resumed := edit(t, domainRun, map[string]any{"run_id": "r2", "resume": true})
	other := edit(t, domainRun, map[string]any{"run_id": "r3"})
	inRun := func(run, p string) string { return edit(t, p, map[string]any{"run_id": run}) }
	for _, c := range []struct {
		name  string
		lines []string
		want  string // "": no problem
	}{
		{"between", []string{domainRun, at(1, 8, false), at(2, 64, false), at(3, 16, true)}, ""},
		{"at a listed size", []string{domainRun, at(1, 8, false), at(2, 64, false), at(3, 8, true)}, "refined is true at msg_bytes 8, a listed size"},
		{"below the listed sizes", []string{domainRun, at(1, 8, false), at(2, 64, false), at(3, 4, true)}, "outside the curve's listed sizes 8 to 64"},
		{"above the listed sizes", []string{domainRun, at(1, 8, false), at(2, 64, false), at(3, 128, true)}, "outside the curve's listed sizes 8 to 64"},
		{"listed after a refined one", []string{domainRun, at(1, 8, false), at(2, 64, false), at(3, 16, true), at(4, 16, false)}, "msg_bytes 16 is listed, but a refined point"},
		{"in a resumed run", []string{domainRun, at(1, 8, false), at(2, 64, false), resumed, inRun("r2", at(3, 64, true))}, "a listed size"},
		{"a resumed run between", []string{domainRun, at(1, 8, false), at(2, 64, false), resumed, inRun("r2", at(3, 16, true))}, ""},
		{"another run's sizes", []string{domainRun, at(1, 8, false), at(2, 64, false), other, inRun("r3", at(1, 8, false)),
			inRun("r3", at(2, 16, false)), inRun("r3", at(3, 12, true))}, ""},
		{"no listed size in the file", []string{domainRun, at(3, 16, true)}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := readLines(t, c.lines...)
			if c.want == "" {
				if len(res.Problems) > 0 {
					t.Errorf("problems %v", res.Problems)
				}
				return
			}
			if len(res.Problems) != 1 || res.Problems[0].Line != len(c.lines) || !strings.Contains(res.Problems[0].Msg, c.want) ||
				!strings.Contains(res.Problems[0].Msg, "msg_bytes") {
				t.Errorf("want one error on line %d with %q, got %v", len(c.lines), c.want, res.Problems)
			}
		})
	}
}
