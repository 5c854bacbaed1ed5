package report

import (
	"math"
	"slices"
	"strings"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// The domains of the fields particular settings and operations add to a point
// (record.Point): each only on the operations that take its setting, and in the range
// the setting allows. A field is checked when the record holds it: files written
// before it existed lack it, which is never an error.

// maxCPU is above any CPU number a Linux system gives (NR_CPUS is at most 8192).
const maxCPU = 1<<16 - 1

// settings: a subtraction's part, delay, halo computation, busy target, skew, strided
// layout, partitions, topology, window and MPI-IO's bytes.
func (fp *fieldProblems) settings(p *record.Point, info ops.Info, known, knownMethod bool, method ops.Method, has func(string) bool) {
	holds := func(k string, set bool) bool { return set || has != nil && has(k) }
	only := func(field string, applies bool, what string) {
		if known && !applies {
			fp.addf("%s is given, but %s %s", field, p.Op, what)
		}
	}
	duration := func(field string, v *float64, applies bool, what string) {
		if v == nil {
			return
		}
		only(field, applies, what)
		if !(*v >= 0) {
			fp.addf("%s is %g: a duration is never negative", field, *v)
		}
	}
	if v := p.SubtractedS; v != nil {
		if knownMethod && method.Subtract == "" {
			fp.addf("subtracted_s is given, but %s %s subtracts nothing", p.Op, orNone(p.Method))
		}
		if !(*v >= 0) {
			fp.addf("subtracted_s is %g: the part taken off is a measured time, never negative", *v)
		}
	}
	duration("delay_s", p.DelayS, info.Delayed, "has no late rank or partner (delay)")
	duration("halo_compute_s", p.HaloComputeS, info.Computes, "computes nothing between its messages (halo_compute)")
	duration("target_busy_s", p.TargetBusyS, !knownMethod || info.PassiveTarget(p.Method), "has no passive target "+orNone(p.Method)+" (target_busy)")
	busy := p.TargetBusyS != nil && *p.TargetBusyS > 0
	switch {
	case p.PollEvery == nil:
		if p.Poll != "" {
			fp.addf("poll %q is given without poll_every: a target that never polls makes no call", p.Poll)
		}
	case !busy:
		fp.addf("poll_every is given, but the target was not busy (target_busy_s > 0): an idle target does not poll")
	case *p.PollEvery < 0:
		fp.addf("poll_every is %d: a count is never negative", *p.PollEvery)
	case *p.PollEvery == 0 && p.Poll != "":
		fp.addf("poll %q is given with poll_every 0: a target that never polls makes no call", p.Poll)
	}
	if holds("ratio", p.Ratio != 0) {
		only("ratio", info.Skewed, "sends the same to every rank (ratio)")
		if p.Ratio < 1 {
			fp.addf("ratio is %d: rank 0 sends at least once what every other rank sends", p.Ratio)
		}
	}
	if p.DataLayout != "" {
		only("data_layout", info.Layouts, "takes no data_layout")
	}
	if holds("stride", p.Stride != 0) {
		switch {
		case !ops.Strided(p.DataLayout):
			fp.addf("stride is given without a strided data_layout")
		case p.Stride < 1:
			fp.addf("stride is %d: elements are at least 1 element apart", p.Stride)
		}
	}
	if p.TypeCommit != "" && !ops.Strided(p.DataLayout) {
		fp.addf("type_commit is given without a strided data_layout: only a derived datatype is committed")
	}
	if holds("partitions", p.Partitions != 0) {
		only("partitions", info.Partitioned, "is not partitioned")
		if p.Partitions < 1 {
			fp.addf("partitions is %d: a partitioned message has at least 1 part", p.Partitions)
		}
	}
	if p.Topology != "" {
		only("topology", info.Neighborhood, "is not a neighbourhood collective")
	}
	if p.Window > 0 {
		only("window", info.Windowed || method.Aggregate, "sends no window of messages, and aggregates no calls "+orNone(p.Method))
	}
	if p.IOTotalBytes != nil {
		only("io_total_bytes", info.IO, "is not an MPI-IO operation")
		if want := int64(p.NProcs) * p.MsgBytes; *p.IOTotalBytes != want {
			fp.addf("io_total_bytes is %d: one call moves nprocs * msg_bytes, %d", *p.IOTotalBytes, want)
		}
	}
}

// threads: a multi-threaded point's threads (1 to ops.MaxThreads per rank), its mean
// thread never slower than its slowest (time_s), their span never shorter, and the
// CPU each thread ran on, one row per rank of ranks with one per thread. A 1:N point
// (ops.Info.OneToN) has no thread pairs: no thread_comm, mean thread or span, and its
// initiator's row holds its one thread.
func (fp *fieldProblems) threads(p *record.Point, info ops.Info, known bool, has func(string) bool) {
	var given []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"threads", p.Threads != 0}, {"thread_comm", p.ThreadComm != ""}, {"thread_pinning", p.ThreadPinning != ""},
		{"thread_mean_s", p.ThreadMeanS != nil}, {"thread_span_s", p.ThreadSpanS != nil}, {"msgs_per_s", p.MsgsPerS != nil},
		{"thread_cpus", p.ThreadCPUs != nil}} {
		if f.set || has != nil && has(f.name) {
			given = append(given, f.name)
		}
	}
	if len(given) == 0 {
		return
	}
	if known && !info.Threaded {
		fp.addf("%s given, but %s is not multi-threaded", strings.Join(given, ", "), p.Op)
		return
	}
	if given[0] != "threads" {
		fp.addf("%s given without threads", strings.Join(given, ", "))
		return
	}
	if p.Threads < 1 || p.Threads > ops.MaxThreads {
		fp.addf("threads is %d: a multi-threaded point runs 1 to %d threads per rank", p.Threads, ops.MaxThreads)
		return
	}
	oneToN := known && info.OneToN
	if oneToN {
		var paired []string
		for _, f := range given {
			if f == "thread_comm" || f == "thread_mean_s" || f == "thread_span_s" {
				paired = append(paired, f)
			}
		}
		if len(paired) > 0 {
			fp.addf("%s given, but %s has one sender thread and receivers sharing one communicator: no thread pairs", strings.Join(paired, ", "), p.Op)
		}
	}
	if m := p.ThreadMeanS; m != nil {
		switch {
		case !(*m > 0):
			fp.addf("thread_mean_s is %g: the mean thread's time is positive", *m)
		case *m > p.TimeS && !near(*m, p.TimeS):
			fp.addf("thread_mean_s %g is above time_s %g, the slowest thread's: the mean thread is never slower", *m, p.TimeS)
		}
	}
	if s := p.ThreadSpanS; s != nil && !(*s >= p.TimeS || near(*s, p.TimeS)) {
		fp.addf("thread_span_s %g is below time_s %g: the threads' span holds the slowest thread's loop", *s, p.TimeS)
	}
	fp.threadCPUs(p, oneToN)
}

// threadCPUs: one row per rank of ranks (the pair), each thread's CPU in it, -1 where
// the system did not say; at 1:N the initiator's row holds its one thread.
func (fp *fieldProblems) threadCPUs(p *record.Point, oneToN bool) {
	if p.ThreadCPUs == nil {
		return
	}
	if n := len(p.ThreadCPUs); len(p.Ranks) > 0 && n != len(p.Ranks) || n > 2 {
		fp.addf("thread_cpus has %d row(s): one per rank of the pair (ranks %v)", n, p.Ranks)
		return
	}
	for i, row := range p.ThreadCPUs {
		if oneToN && i == 0 && len(row) != 1 {
			fp.addf("thread_cpus row 0 has %d CPU(s): the initiator of %s runs one thread", len(row), p.Op)
			return
		}
		if len(row) != p.Threads && !(oneToN && i == 0) {
			fp.addf("thread_cpus row %d has %d CPU(s) for %d threads: one per thread", i, len(row), p.Threads)
			return
		}
		for _, c := range row {
			if c < -1 || c > maxCPU {
				fp.addf("thread_cpus row %d holds CPU %d: a CPU number is -1 (not known) or 0 to %d", i, c, maxCPU)
				return
			}
		}
	}
}

// stats: the flags of the repetitions' statistics, each once; the transient, unsteady
// and drift flags each exactly with the field that says why (record.Point).
func (fp *fieldProblems) stats(p *record.Point) {
	flagged := func(f string) bool { return slices.Contains(p.Flags, f) }
	for i, f := range p.Flags {
		if slices.Contains(p.Flags[:i], f) {
			fp.addf("flag %s is given twice", f)
		}
	}
	switch {
	case p.TransientReps < 0:
		fp.addf("transient_reps is %d: a count is never negative", p.TransientReps)
	case (p.TransientReps > 0) != flagged(record.FlagTransient):
		fp.addf("transient_reps %d and flag %s disagree: the flag says repetitions were dropped, transient_reps how many", p.TransientReps, record.FlagTransient)
	}
	if (p.Unsteady != "") != flagged(record.FlagUnsteady) {
		fp.addf("unsteady %q and flag %s disagree: the flag says the samples were not steady, unsteady how", p.Unsteady, record.FlagUnsteady)
	}
	switch b := p.BatchStderrS; {
	case b == nil:
		if flagged(record.FlagDrift) {
			fp.addf("flag %s without batch_stderr_s, the error that moved", record.FlagDrift)
		}
	case !(*b >= 0):
		fp.addf("batch_stderr_s is %g: a standard error is never negative", *b)
	case near(*b, 2*p.StderrS): // on the line: either reading holds
	case (*b > 2*p.StderrS) != flagged(record.FlagDrift):
		fp.addf("batch_stderr_s %g and stderr_s %g with flag %s %v: a point is flagged drift exactly when its batch means' error is more than twice stderr_s",
			*b, p.StderrS, record.FlagDrift, flagged(record.FlagDrift))
	}
	fp.noise(p)
}

// noise: preemptions and the share of the point off the core. (Which of them made
// a point noisy changed between versions, so the flag is not held to them.)
func (fp *fieldProblems) noise(p *record.Point) {
	if n := p.Preemptions; n != nil && *n < 0 {
		fp.addf("preemptions is %d: a count is never negative", *n)
	}
	if f := p.OffCPU; f != nil && !(*f >= 0 && *f <= 1) {
		fp.addf("off_cpu is %g: a share of the point's time is in [0, 1]", *f)
	}
}

// threadRate is what a multi-threaded point's msgs_per_s is: every thread's messages
// of a step over the threads' span (time_s when they ran side by side); NaN when the
// operation is not known.
func threadRate(p *record.Point, info ops.Info, known bool) float64 {
	if !known || p.Threads < 1 || p.Threads > ops.MaxThreads { // threads says its own problem
		return math.NaN()
	}
	span := p.TimeS
	if p.ThreadSpanS != nil {
		span = *p.ThreadSpanS
	}
	return float64(p.Threads*info.MessagesPerStep(p.Window)) / span
}

// optional: the fields of particular settings, each in its own domain.
func (fp *fieldProblems) optional(p *record.Point) {
	if v := p.SubtractedStderr; v != nil {
		if !(*v >= 0) {
			fp.addf("subtracted_stderr_s is %g: a standard error is never negative", *v)
		}
		if p.SubtractedS == nil {
			fp.addf("subtracted_stderr_s is given without subtracted_s")
		}
	}
	if v := p.WindowS; v != nil && !(*v >= 0) {
		fp.addf("window_s is %g: a window is never negative", *v)
	}
	if v := p.InvalidFraction; v != nil && !(*v >= 0 && *v <= 1) {
		fp.addf("invalid_fraction is %g: a fraction of the repetitions is in [0, 1]", *v)
	}
	switch {
	case p.ColdAreaBytes < 0:
		fp.addf("cold_area_bytes is %d: a size is never negative", p.ColdAreaBytes)
	case p.ColdAreaBytes > 0 && p.Cache != "cold":
		fp.addf("cold_area_bytes is given for a point whose cache is %q, not \"cold\"", p.Cache)
	}
}
