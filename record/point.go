package record

import "math"

// Flags a point can carry. A flagged value is still reported as measured: flags say
// why it deserves a second look; nothing is clamped or dropped.
const (
	FlagMaxReps      = "max_repetitions"            // stopped at max_repetitions, stderr above target
	FlagTimeCap      = "time_cap"                   // stopped by max_time_per_point
	FlagDiscardCap   = "discard_cap"                // stopped by too many invalid repetitions
	FlagOverrun      = "repetition_overrun"         // a repetition ran far longer than the fastest: the rest were not run
	FlagFewReps      = "few_repetitions"            // fewer valid repetitions than min_repetitions
	FlagNoValidReps  = "no_valid_reps"              // not a single valid repetition: no time
	FlagPairFallback = "pair_fallback"              // the requested pair selection was impossible
	FlagNegative     = "negative_after_subtraction" // the subtracted part took at least as long as the whole: time at or below zero
	FlagPipelined    = "pipelined"                  // a collective called back to back: calls overlap
	// Non-blocking breakdowns (see Breakdown).
	FlagRatioClamped     = "overlap_ratio_clamped" // the overlap ratio fell outside [0, 1]: overlap_ratio_raw has the value
	FlagComputeOffTarget = "compute_off_target"    // the busy computation ran more than 25% off its target
	FlagFullMismatch     = "full_mismatch"         // post + wait and the full operation, measured apart, disagree beyond their errors
	FlagLockNotHeld      = "lock_not_held"         // Lock_Held's waiters waited less than half the hold
	FlagBreakdownMissing = "breakdown_missing"     // no breakdown: full had no positive time, or a part fewer than two valid repetitions; full alone is reported
	// FlagNoisy: another process took a participating rank's core for a large part of
	// the point (see Point.Preemptions and Point.OffCPU): its time holds, but a
	// relation between its parts or with another point may not (see Effect).
	FlagNoisy = "noisy"
	// FlagTransient: the point's first repetitions ran in another state than the rest
	// (the job still starting, a burst) and were dropped before it converged
	// (Point.TransientReps); FlagUnsteady: its samples drift or split and it was
	// refused convergence (Point.Unsteady says how).
	FlagTransient = "transient_dropped"
	FlagUnsteady  = "unsteady"
	// FlagDrift: the point's level moved while it was measured: its batch means' error
	// (Point.BatchStderrS) is more than twice stderr_s, which then understates what a
	// second run shows.
	FlagDrift = "drift"
)

// Point is one measured point: one operation at one message size.
type Point struct {
	Kind             string `json:"kind"`
	RunID            string `json:"run_id"`
	PointIndex       int    `json:"point_index"` // 1-based position in the run
	Measurement      string `json:"measurement"`
	MeasurementIndex int    `json:"measurement_index"`
	Op               string `json:"op"`
	Method           string `json:"method,omitempty"` // timing method (broadcast: barrier, rounds, ack)
	Family           string `json:"family"`
	MsgBytes         int64  `json:"msg_bytes"`
	NProcs           int    `json:"nprocs"`
	Ranks            []int  `json:"ranks"`
	// Refined: the size was added by refinement (the setting refine) between two
	// measured ones, not listed in the suite.
	Refined   bool   `json:"refined,omitempty"`
	Timer     string `json:"timer"`
	Sync      string `json:"sync"`
	Window    int    `json:"window,omitempty"`
	RecvSlots string `json:"recv_slots,omitempty"` // windowed: "shared" (one receive buffer) or "per-message"
	Cache     string `json:"cache,omitempty"`      // "warm" or "cold" (another buffer region every iteration)
	// ColdAreaBytes: cache = "cold", the area per buffer each step's region was taken
	// from in turn (twice the cache defeated: cache_size, or the detected one capped).
	ColdAreaBytes    int64     `json:"cold_area_bytes,omitempty"`
	CheckData        bool      `json:"check_data,omitempty"` // every received byte was checked
	Iterations       int       `json:"iterations"`
	TimeS            float64   `json:"time_s"`
	MeanS            float64   `json:"mean_s"`
	MedianS          float64   `json:"median_s"`
	MinS             float64   `json:"min_s"`
	P10S             float64   `json:"p10_s"`
	P90S             float64   `json:"p90_s"`
	MaxS             float64   `json:"max_s"`
	StderrS          float64   `json:"stderr_s"` // of time_s: the trimmed mean's (Tukey-McLaughlin); a subtraction's, sqrt(se_whole²+se_part²)
	LatencyS         *float64  `json:"latency_s,omitempty"`
	BandwidthBps     *float64  `json:"bandwidth_Bps,omitempty"`
	ThroughputBps    *float64  `json:"throughput_Bps,omitempty"`      // all-to-all: (nprocs-1)*msg_bytes/time per process
	IOTotalBytes     *int64    `json:"io_total_bytes,omitempty"`      // MPI-IO: nprocs*msg_bytes, IMB-IO's #bytes of one call
	AggregateBps     *float64  `json:"aggregate_Bps,omitempty"`       // MPI-IO: io_total_bytes/time (the slowest process's), IMB-IO's MB/s
	SubtractedS      *float64  `json:"subtracted_s,omitempty"`        // subtraction method: the time taken off every sample
	SubtractedStderr *float64  `json:"subtracted_stderr_s,omitempty"` // subtraction method: the standard error of subtracted_s
	WindowS          *float64  `json:"window_s,omitempty"`            // window synchronisation: the window at the end of the point
	InvalidFraction  *float64  `json:"invalid_fraction,omitempty"`    // window synchronisation: repetitions discarded for a late start, of all run
	Reps             int       `json:"reps"`
	Discarded        int       `json:"discarded"`
	TransientReps    int       `json:"transient_reps,omitempty"` // valid repetitions dropped as a transient, not in samples_s
	BatchStderrS     *float64  `json:"batch_stderr_s,omitempty"` // the batch means' error of time_s (samples in order, 4 batches; 2 below 16)
	Unsteady         string    `json:"unsteady,omitempty"`       // why the samples were not steady when the point stopped
	Stop             string    `json:"stop"`
	Flags            []string  `json:"flags,omitempty"`
	RankTimeS        []float64 `json:"rank_time_s"`
	SamplesS         []float64 `json:"samples_s"`
	ElapsedS         float64   `json:"elapsed_s"`
	// Preemptions: the most involuntary context switches a participating rank's MPI
	// thread had from the point's preparation to its last repetition (the kernel gave
	// its core to another thread).
	Preemptions *int64 `json:"preemptions,omitempty"`
	// OffCPU: the largest share of the point's wall time a participating rank's MPI
	// thread was not running (preempted, or sleeping). With 3 or more preemptions, half
	// or more makes the point FlagNoisy.
	OffCPU *float64 `json:"off_cpu,omitempty"`

	// One-sided operations: the kind of window (rma_window); Lock_Held's hold (s).
	RMAWindow string   `json:"rma_window,omitempty"`
	HoldS     *float64 `json:"hold_s,omitempty"`
	// DelayS: how late the late rank (a delayed collective) or partner (a
	// synchronisation call) entered its call: the setting delay, s.
	DelayS *float64 `json:"delay_s,omitempty"`
	// Ratio: how many times more rank 0 sends than every other rank (Alltoallv_Skewed).
	Ratio int `json:"ratio,omitempty"`
	// HaloComputeS: how long every halo step computed (the setting halo_compute), s.
	HaloComputeS *float64 `json:"halo_compute_s,omitempty"`
	// DataLayout: how the payload lay in memory when not contiguous (vector, indexed,
	// struct, packed; the setting data_layout), its elements Stride elements apart.
	DataLayout string `json:"data_layout,omitempty"`
	Stride     int    `json:"stride,omitempty"`
	// TypeCommit: "every_call" when the layout's datatype was built, committed and
	// freed in every step (the setting type_commit); empty: once per point.
	TypeCommit string `json:"type_commit,omitempty"`
	// Topology: a neighbourhood collective's process topology as it was built for the
	// point's communicator ("cart:2x2", "stencil_3d:2x1x1", "ring", "random:2:seed1": degree 2, seed 1).
	Topology string `json:"topology,omitempty"`
	// Partitions: the parts a partitioned message was sent in (the setting partitions).
	Partitions int `json:"partitions,omitempty"`
	// A passive target (a one-sided operation under a passive mode): TargetBusyS, how
	// long it computed in every step while the origin operated (the setting
	// target_busy, s; 0: it idled in the library); when it computed, Poll, the call it
	// made every PollEvery spin iterations (the setting progress; 0: never).
	TargetBusyS *float64 `json:"target_busy_s,omitempty"`
	Poll        string   `json:"poll,omitempty"`
	PollEvery   *int64   `json:"poll_every,omitempty"`
	// FamilySettings: the settings that decide the number of a family registered from
	// its own package (families/, inputs.RegisterSetting), by name, as the point
	// measured them (SetFamilySetting); a family with a field above keeps using it.
	FamilySettings map[string]string `json:"family_settings,omitempty"`
	// OpsPerS: atomics every PE but the target issues at once, their aggregate rate,
	// (nprocs - 1) / time_s.
	OpsPerS *float64 `json:"ops_per_s,omitempty"`
	// MessagesPerS: a bandwidth operation's message rate, the messages of msg_bytes
	// every pair moves in a step, in all its directions, per second (osu_mbw_mr's
	// Messages/s, IMB's Mmsg/s).
	MessagesPerS *float64 `json:"messages_per_s,omitempty"`
	// PVars: the library's performance variables on rank 0 around the point (the
	// setting pvars, read through MPI_T when the point was prepared and after its last
	// repetition): a counter, aggregate or timer as its change, a level, size or
	// watermark as its value after; one value per element (per peer for Open MPI's
	// monitoring variables). PVarsMissing: names asked for the library does not offer or
	// could not read for this point's communicator or window.
	PVars        map[string][]float64 `json:"pvars,omitempty"`
	PVarsMissing []string             `json:"pvars_missing,omitempty"`

	// MPI-IO operations: the directory under test (io_dir, or the temporary directory
	// the run used), and the hints the library reported for the point's file
	// (MPI_File_get_info: cb_buffer_size, romio_cb_write, striping_unit, ...).
	IODir   string            `json:"io_dir,omitempty"`
	IOHints map[string]string `json:"io_hints,omitempty"`

	// TaskTimeS: a per-task method (broadcast "ack"): every task's own time, for the
	// ranks of the communicator but the root in order; time_s is the largest.
	TaskTimeS []float64 `json:"task_time_s,omitempty"`

	// Multi-threaded operations: threads per rank, how they kept their messages apart
	// ("dup": a communicator each; "tag": one shared, a tag each), their pinning
	// ("none", "core"); time_s is the slowest thread's, thread_mean_s the mean
	// thread's; msgs_per_s, the messages of all threads per second (threads * messages
	// per step / thread_span_s); thread_cpus, the CPU every thread of each rank of ranks last
	// ran on.
	Threads       int      `json:"threads,omitempty"`
	ThreadComm    string   `json:"thread_comm,omitempty"`
	ThreadPinning string   `json:"thread_pinning,omitempty"`
	ThreadMeanS   *float64 `json:"thread_mean_s,omitempty"`
	// ThreadSpanS: a multi-threaded point's time per step from the earliest thread's
	// start to the latest one's end (at least time_s: the loops may run staggered); the
	// aggregate msgs_per_s and bandwidth_Bps are over it.
	ThreadSpanS *float64 `json:"thread_span_s,omitempty"`
	MsgsPerS    *float64 `json:"msgs_per_s,omitempty"`
	ThreadCPUs  [][]int  `json:"thread_cpus,omitempty"`

	// Breakdown: a non-blocking operation measured the method paper's way (its four
	// measurements in one point); nil for every other operation.
	*Breakdown
}

// Breakdown is the overlap breakdown of a non-blocking operation at one point, its
// fields inlined in the point record. Times are per operation, in seconds, each with
// its standard error. time_s is full_s.
type Breakdown struct {
	FullS       float64 `json:"full_s"`        // post immediately followed by completion
	FullStderrS float64 `json:"full_stderr_s"` //
	PostS       float64 `json:"post_s"`        // the posting call(s) alone
	PostStderrS float64 `json:"post_stderr_s"`
	// WaitS: the completion after a post. Global-loop timer: the loop of post +
	// completion minus the post (the subtraction method), error sqrt(se_a²+se_b²);
	// iteration timer: the completion timed on its own.
	WaitS       float64 `json:"wait_s"`
	WaitStderrS float64 `json:"wait_stderr_s"`
	// OverlappedS: the communication time not hidden when a computation of about
	// twice full_s runs between post and completion: that loop's time minus the
	// computation's (global-loop timer), or the post and the completion timed apart
	// (iteration timer).
	OverlappedS       float64 `json:"overlapped_s"`
	OverlappedStderrS float64 `json:"overlapped_stderr_s"`
	// ComputeS: the busy computation, measured on its own with the same spin count;
	// ComputeTargetS the duration it was calibrated for (2 * full_s).
	ComputeS       float64 `json:"compute_s"`
	ComputeTargetS float64 `json:"compute_target_s"`
	// SpinNsPerIter: the spin's calibration, nanoseconds per loop iteration, on each
	// participating rank in the order of ranks (0: the rank does not compute).
	SpinNsPerIter []float64 `json:"spin_ns_per_iter"`
	SpinIters     []int64   `json:"spin_iters"` // loop iterations each participating rank spun
	// OverlapRatio: 1 - overlapped_s/full_s, the share of the communication hidden,
	// in [0, 1]; a value outside is clamped, flagged, and kept in OverlapRatioRaw.
	OverlapRatio       float64  `json:"overlap_ratio"`
	OverlapRatioStderr float64  `json:"overlap_ratio_stderr"`
	OverlapRatioRaw    *float64 `json:"overlap_ratio_raw,omitempty"`
	// ProgressEvery: MPI_Test was called every this many spin iterations during the
	// computation, so the library could progress; 0: never.
	ProgressEvery int64 `json:"progress_every"`
	// TimerOverheadS: what one timer interval cost on each participating rank (as
	// spin_ns_per_iter), taken off every interval timed per call: the post, and under
	// the iteration timer every part. Absent in records of older versions (raw posts).
	TimerOverheadS []float64 `json:"timer_overhead_s,omitempty"`
	// FullCalibrationS (global-loop timer): the full operation measured first, which
	// set the iterations and the computation's target; full_s is the full measured in
	// alternation with the post, the whole the post and the wait are parts of.
	FullCalibrationS *float64 `json:"full_calibration_s,omitempty"`
}

// RelStderr is the standard error relative to the reported time, as every view shows
// it (the run table, the HTML report, compare); ok is false when the time is 0.
func (p *Point) RelStderr() (float64, bool) {
	if p.TimeS == 0 {
		return 0, false
	}
	return p.StderrS / math.Abs(p.TimeS), true
}

func (p *Point) addFlag(f string) { p.Flags = append(p.Flags, f) }

// AddFlag records a flag once.
func (p *Point) AddFlag(f string) {
	for _, g := range p.Flags {
		if g == f {
			return
		}
	}
	p.addFlag(f)
}
