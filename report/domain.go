package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// The domains of a point's fields beyond the basics checkPoint looks at: what each
// field may hold given its operation, its timing method, its run and the point's other
// fields (see record.Point). A value no skampi can have written is an error and the
// point is left out, as for any broken record.

// derivedTol is how far a value computed from others (a rate, a ratio) may be from
// what its inputs give: skampi writes float64s that read back exactly, but a file
// written or edited by another tool may round.
const derivedTol = 1e-6

// near says whether a and b agree to derivedTol, relative to the larger.
func near(a, b float64) bool {
	return math.Abs(a-b) <= derivedTol*math.Max(math.Abs(a), math.Abs(b))
}

// problems of one record, each said on its own.
type fieldProblems []string

func (fp *fieldProblems) addf(format string, a ...any) { *fp = append(*fp, fmt.Sprintf(format, a...)) }

// breakdownFields are written with every breakdown (record.Breakdown), none omitted.
var breakdownFields = []string{"full_s", "full_stderr_s", "post_s", "post_stderr_s", "wait_s", "wait_stderr_s",
	"overlapped_s", "overlapped_stderr_s", "compute_s", "compute_target_s", "spin_ns_per_iter", "spin_iters",
	"overlap_ratio", "overlap_ratio_stderr", "progress_every"}

// pointFields checks a point's fields against each other, its operation and its run
// (nil when the point has none before it). has says which fields the record holds; nil
// when that is not known, and then only values are checked.
func pointFields(p *record.Point, run *record.Run, has func(string) bool) []string {
	var fp fieldProblems
	for _, c := range []struct {
		name string
		v    int64
	}{{"iterations", int64(p.Iterations)}, {"discarded", int64(p.Discarded)}, {"window", int64(p.Window)}, {"measurement_index", int64(p.MeasurementIndex)}} {
		if c.v < 0 {
			fp.addf("%s is %d: a count is never negative", c.name, c.v)
		}
	}
	if !(p.ElapsedS >= 0) {
		fp.addf("elapsed_s is %g: a duration is never negative", p.ElapsedS)
	}
	if p.Reps == 0 && p.TimeS != 0 {
		fp.addf("time_s is %g with no valid repetition (reps 0): the time of no repetition is 0", p.TimeS)
	}
	if p.Reps > 0 && slices.Contains(p.Flags, record.FlagNoValidReps) {
		fp.addf("flag %s with %d valid repetitions", record.FlagNoValidReps, p.Reps)
	}
	info, known := ops.Lookup(p.Op)
	method, knownMethod := info.Method(p.Method)
	// What depends on the timing method is checked only when it is known (or none):
	// an unknown one is said by pointNames.
	knownMethod = known && (knownMethod || p.Method == "")
	fp.ranks(p, run, info, knownMethod, method)
	fp.rates(p, info, known)
	fp.optional(p)
	fp.settings(p, info, known, knownMethod, method, has)
	fp.threads(p, info, known, has)
	fp.stats(p)
	fp.lock(p, info, known)
	fp.tasks(p, knownMethod, method)
	if known && info.ElementBytes > 0 {
		switch {
		case info.SingleElement && p.MsgBytes != info.ElementBytes:
			fp.addf("msg_bytes is %d: %s moves one element of %d bytes", p.MsgBytes, p.Op, info.ElementBytes)
		case p.MsgBytes%info.ElementBytes != 0:
			fp.addf("msg_bytes is %d: %s moves elements of %d bytes, so a multiple of %d", p.MsgBytes, p.Op, info.ElementBytes, info.ElementBytes)
		}
	}
	fp.breakdown(p, info, known, has)
	if known && !info.IO && (p.IODir != "" || p.IOHints != nil) {
		fp.addf("io_dir or io_hints is given, but %s is not an MPI-IO operation", p.Op)
	}
	fp.familySettings(p)
	return fp
}

// familySettings: a family's settings are a setting's name (lower case, digits and
// underscores) and a value a setup line can carry (not empty, no blank).
func (fp *fieldProblems) familySettings(p *record.Point) {
	for _, k := range slices.Sorted(maps.Keys(p.FamilySettings)) {
		v := p.FamilySettings[k]
		if k == "" || strings.TrimLeft(k, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
			fp.addf("family_settings has %q: a setting's name is lower case letters, digits and underscores", k)
		}
		if v == "" || strings.IndexFunc(v, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
			fp.addf("family_settings' %s is %q: a value is not empty and has no blank", k, v)
		}
	}
}

// ranks: world ranks of the run, none twice, as many as the operation has taking part
// in a communicator of nprocs.
func (fp *fieldProblems) ranks(p *record.Point, run *record.Run, info ops.Info, known bool, method ops.Method) {
	if run != nil && p.NProcs > run.NProcs {
		fp.addf("nprocs is %d, more than the %d processes of run %s", p.NProcs, run.NProcs, p.RunID)
	}
	if len(p.Ranks) == 0 { // not recorded (older files)
		return
	}
	fp.rankList("ranks", p.Ranks, run)
	if !known {
		return
	}
	want, who := len(p.Ranks), ""
	switch {
	case info.Pattern == ops.PatternAll && method.RootTimed:
		want, who = 1, "method "+method.Name+" times the root alone"
	case info.Pattern == ops.PatternAll:
		want, who = p.NProcs, "every rank of its communicator takes part"
	case info.Pattern == ops.PatternPairs:
		want, who = p.NProcs/2*2, "every rank takes part in a pair"
	default:
		want, who = 2, "one pair of ranks takes part"
	}
	if len(p.Ranks) != want {
		fp.addf("nprocs %d disagrees with the %d rank(s) listed: in %s %s, so %d", p.NProcs, len(p.Ranks), p.Op, who, want)
	}
}

// rankList checks a list of world ranks of run (nil: no run to check against).
func (fp *fieldProblems) rankList(field string, ranks []int, run *record.Run) {
	seen := map[int]bool{}
	for _, r := range ranks {
		switch {
		case r < 0 || run != nil && r >= run.NProcs:
			n := "?"
			if run != nil {
				n = fmt.Sprint(run.NProcs)
			}
			fp.addf("%s holds rank %d: world ranks are 0 to %s-1", field, r, n)
			return
		case seen[r]:
			fp.addf("%s holds rank %d twice", field, r)
			return
		}
		seen[r] = true
	}
}

// rates: never negative, only of a positive time, only of the operations that report
// them, and what their formula gives (record.Point).
func (fp *fieldProblems) rates(p *record.Point, info ops.Info, known bool) {
	const fromSize = "nprocs, msg_bytes and time_s"
	for _, r := range []struct {
		name string
		v    *float64
		has  bool    // the operation reports it
		want float64 // what time_s gives; NaN: not checked
		from string  // what gives want
	}{
		{"latency_s", p.LatencyS, info.RoundTrip, p.TimeS / 2, "time_s"},
		{"bandwidth_Bps", p.BandwidthBps, info.Bandwidth, math.NaN(), ""}, // depends on the window and the pairs
		{"throughput_Bps", p.ThroughputBps, info.Throughput, float64(p.NProcs-1) * float64(p.MsgBytes) / p.TimeS, fromSize},
		{"ops_per_s", p.OpsPerS, info.AtomicRate, float64(p.NProcs-1) / p.TimeS, fromSize},
		{"messages_per_s", p.MessagesPerS, info.Bandwidth, math.NaN(), ""}, // depends on the window and the pairs
		{"msgs_per_s", p.MsgsPerS, info.Threaded && !info.OneToN, threadRate(p, info, known), "threads, window and thread_span_s (or time_s)"},
		{"aggregate_Bps", p.AggregateBps, info.IO, float64(p.NProcs) * float64(p.MsgBytes) / p.TimeS, fromSize},
	} {
		if r.v == nil {
			continue
		}
		v := *r.v
		switch {
		case known && !r.has:
			fp.addf("%s is given, but %s does not report it", r.name, p.Op)
		case r.name == "latency_s" && !near(v, r.want):
			fp.addf("latency_s is %g: a round trip's latency is half its time_s (%g)", v, r.want)
		case r.name == "latency_s":
		case !(v >= 0):
			fp.addf("%s is %g: a rate is never negative", r.name, v)
		case !(p.TimeS > 0):
			fp.addf("%s is given for a point whose time_s (%g) is not positive", r.name, p.TimeS)
		case !math.IsNaN(r.want) && !near(v, r.want):
			fp.addf("%s is %g, but %s give %g", r.name, v, r.from, r.want)
		}
	}
}

// lock: Lock_Held's hold, and its flag set exactly when the waiters waited less than
// half of it (runner: holdShare). Fields added to the schema may be missing from older
// files: their absence is never an error.
func (fp *fieldProblems) lock(p *record.Point, info ops.Info, known bool) {
	flagged := slices.Contains(p.Flags, record.FlagLockNotHeld)
	if p.HoldS == nil { // a file older than hold_s, unless the flag says otherwise
		if flagged {
			fp.addf("flag %s without hold_s", record.FlagLockNotHeld)
		}
		return
	}
	hold := *p.HoldS
	switch {
	case known && !info.LockHold:
		fp.addf("hold_s is given, but %s holds no lock", p.Op)
	case !(hold >= 0):
		fp.addf("hold_s is %g: a hold is never negative", hold)
	case p.Reps > 0 && p.TimeS < hold/2 && !flagged:
		fp.addf("time_s %g is less than half of hold_s %g without the %s flag", p.TimeS, hold, record.FlagLockNotHeld)
	case flagged && !(p.Reps > 0 && p.TimeS < hold/2):
		fp.addf("flag %s, but time_s %g is at least half of hold_s %g", record.FlagLockNotHeld, p.TimeS, hold)
	}
}

// tasks: a per-task method's every task but the root, time_s the slowest's.
func (fp *fieldProblems) tasks(p *record.Point, known bool, method ops.Method) {
	if len(p.TaskTimeS) == 0 { // none, or a file older than task_time_s
		return
	}
	if known && !method.PerTask {
		fp.addf("task_time_s is given, but %s %s times no tasks", p.Op, orNone(p.Method))
		return
	}
	if len(p.TaskTimeS) != p.NProcs-1 {
		fp.addf("task_time_s has %d task(s): with nprocs %d there are %d (every rank but the root)", len(p.TaskTimeS), p.NProcs, p.NProcs-1)
	}
	if p.Reps > 0 && !slices.Contains(p.TaskTimeS, p.TimeS) {
		fp.addf("time_s %g is none of task_time_s: it is the slowest task's", p.TimeS)
	}
}

func orNone(method string) string {
	if method == "" {
		return "(no method)"
	}
	return "method " + method
}

// breakdown: a non-blocking operation's four measurements (record.Breakdown), or the
// flag that says why there are none.
func (fp *fieldProblems) breakdown(p *record.Point, info ops.Info, known bool, has func(string) bool) {
	b := p.Breakdown
	onlyWith := []string{record.FlagRatioClamped, record.FlagComputeOffTarget, record.FlagFullMismatch}
	if b == nil {
		for _, f := range onlyWith {
			if slices.Contains(p.Flags, f) {
				fp.addf("flag %s without a breakdown (full_s, post_s, ...)", f)
			}
		}
		return // pointEffects: a breakdown or the flag that says why not
	}
	if known && !info.Nonblocking && !info.SHMEM {
		// (OpenSHMEM's blocking gets had breakdowns in files of earlier versions.)
		fp.addf("a breakdown (full_s, post_s, ...) is given, but op %s is not non-blocking", p.Op)
	}
	if slices.Contains(p.Flags, record.FlagBreakdownMissing) {
		fp.addf("flag %s with a breakdown", record.FlagBreakdownMissing)
	}
	if has != nil {
		var lacks []string
		for _, k := range breakdownFields {
			if !has(k) {
				lacks = append(lacks, k)
			}
		}
		if len(lacks) > 0 {
			fp.addf("breakdown without %s: a breakdown has all of %s", strings.Join(lacks, ", "), strings.Join(breakdownFields, ", "))
			return // the values below would be compared with zeros
		}
	}
	if !(b.FullS > 0) || b.FullS != p.TimeS {
		fp.addf("full_s is %g: it is the point's time_s (%g), and positive in a breakdown", b.FullS, p.TimeS)
		return
	}
	for _, e := range []struct {
		name string
		v    float64
	}{{"full_stderr_s", b.FullStderrS}, {"post_stderr_s", b.PostStderrS}, {"wait_stderr_s", b.WaitStderrS},
		{"overlapped_stderr_s", b.OverlappedStderrS}, {"overlap_ratio_stderr", b.OverlapRatioStderr}} {
		if !(e.v >= 0) {
			fp.addf("%s is %g: a standard error is never negative", e.name, e.v)
		}
	}
	// Measured on its own; the iteration timer takes its clock reads' cost off it as off
	// every part, so there, and flagged, it may go negative.
	if !(b.ComputeS >= 0) && !(p.Timer == "iteration" && slices.Contains(p.Flags, record.FlagNegative)) {
		fp.addf("compute_s is %g: it is measured on its own, negative only under the iteration timer with the %s flag", b.ComputeS, record.FlagNegative)
	}
	// The post has the timer's cost taken off (timer_overhead_s), so it may go negative:
	// flagged then, as a subtraction's result.
	if (b.WaitS < 0 || b.OverlappedS < 0 || b.PostS < 0) && !slices.Contains(p.Flags, record.FlagNegative) {
		fp.addf("wait_s %g, overlapped_s %g or post_s %g is negative without the %s flag", b.WaitS, b.OverlappedS, b.PostS, record.FlagNegative)
	}
	calibrated, name := b.FullS, "full_s"
	if b.FullCalibrationS != nil { // the full measured first set the computation's target
		calibrated, name = *b.FullCalibrationS, "full_calibration_s"
	}
	if want := ops.ComputeFactor * calibrated; !near(b.ComputeTargetS, want) {
		fp.addf("compute_target_s is %g: the computation is calibrated for %g times %s, %g", b.ComputeTargetS, ops.ComputeFactor, name, want)
	}
	for _, oh := range b.TimerOverheadS {
		if !(oh >= 0 && oh < 1e-3) {
			fp.addf("timer_overhead_s holds %g: a timer interval costs between 0 and a millisecond", oh)
		}
	}
	if b.ProgressEvery < 0 {
		fp.addf("progress_every is %d: a count is never negative", b.ProgressEvery)
	}
	if len(b.SpinNsPerIter) != len(b.SpinIters) || len(p.Ranks) > 0 && len(b.SpinIters) != len(p.Ranks) {
		fp.addf("spin_ns_per_iter (%d) and spin_iters (%d) have one value per rank of ranks (%d)", len(b.SpinNsPerIter), len(b.SpinIters), len(p.Ranks))
	}
	for i := range b.SpinIters {
		if b.SpinIters[i] < 0 || i < len(b.SpinNsPerIter) && !(b.SpinNsPerIter[i] >= 0) {
			fp.addf("spin_ns_per_iter and spin_iters are never negative")
			break
		}
	}
	fp.overlapRatio(p, b)
}

// overlapRatio: 1 - overlapped_s/full_s, in [0, 1]; a value outside is clamped, flagged
// and kept in overlap_ratio_raw (record.Breakdown).
func (fp *fieldProblems) overlapRatio(p *record.Point, b *record.Breakdown) {
	clamp := func(x float64) float64 { return min(1, max(0, x)) }
	flagged := slices.Contains(p.Flags, record.FlagRatioClamped)
	raw := 1 - b.OverlappedS/b.FullS
	switch {
	case !(b.OverlapRatio >= 0 && b.OverlapRatio <= 1):
		fp.addf("overlap_ratio is %g, outside [0, 1]: a ratio outside is clamped, flagged %s and kept in overlap_ratio_raw", b.OverlapRatio, record.FlagRatioClamped)
	case b.OverlapRatioRaw == nil && flagged:
		fp.addf("flag %s without overlap_ratio_raw, the value before clamping", record.FlagRatioClamped)
	case b.OverlapRatioRaw != nil && !flagged:
		fp.addf("overlap_ratio_raw is given without the %s flag", record.FlagRatioClamped)
	case b.OverlapRatioRaw != nil && *b.OverlapRatioRaw >= 0 && *b.OverlapRatioRaw <= 1:
		fp.addf("overlap_ratio_raw is %g, inside [0, 1]: only a ratio outside is clamped", *b.OverlapRatioRaw)
	case b.OverlapRatioRaw != nil && !near(*b.OverlapRatioRaw, raw):
		fp.addf("overlap_ratio_raw is %g, but 1 - overlapped_s/full_s is %g", *b.OverlapRatioRaw, raw)
	case raw < 0 || raw > 1:
		if !flagged {
			fp.addf("1 - overlapped_s/full_s is %g, outside [0, 1], without the %s flag", raw, record.FlagRatioClamped)
		} else if b.OverlapRatio != clamp(raw) {
			fp.addf("overlap_ratio is %g: %g clamped to [0, 1] is %g", b.OverlapRatio, raw, clamp(raw))
		}
	case math.Abs(b.OverlapRatio-raw) > derivedTol:
		fp.addf("overlap_ratio is %g, but 1 - overlapped_s/full_s is %g", b.OverlapRatio, raw)
	}
}

// pointEffects holds a point to the rule its writer follows (record.Effect): what the
// record judges itself, it shows or carries the flag that says why not. A point that
// breaks it is kept (its time stands) and the problem reported: the writer's bug.
func pointEffects(p *record.Point, run *record.Run) []string {
	info, known := ops.Lookup(p.Op)
	if !known || !writesTheRule(run) {
		return nil
	}
	var out []string
	// A busy target's step is timed whole (families/busy).
	whole := p.TargetBusyS != nil && *p.TargetBusyS > 0 && info.PassiveTarget(p.Method)
	if p.Reps > 0 && info.BreaksDown(p.Method, whole) {
		if err := record.Explained(p, record.EffectBreakdown); err != nil {
			out = append(out, fmt.Sprintf("no breakdown (full_s, post_s, ...) and no flag says why (%s): %s is measured with one", record.FlagBreakdownMissing, p.Op))
		}
	}
	if err := record.Explained(p, record.EffectConverged); err != nil && p.Stop != "" {
		out = append(out, fmt.Sprintf("stopped by %s without the flag that says so", p.Stop))
	}
	return out
}

// writesTheRule says whether run's skampi flagged every breakdown it left out
// (record.Effect's rule): every release with a version, 0.24.0 on; the files of
// earlier builds may hold non-blocking points with neither, and are read as they are.
func writesTheRule(run *record.Run) bool {
	if run == nil {
		return false
	}
	v, _, _ := strings.Cut(strings.TrimPrefix(run.SkampiVersion, "v"), " ")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return err1 == nil && err2 == nil && (major > 0 || minor >= 24)
}
