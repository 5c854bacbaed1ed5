package busy

import (
	"slices"
	"time"

	"github.com/skampi/skampi/inputs"
)

// The family's settings: how long a passive target computes in every step
// (settingBusy, 0: it idles in the library), and the call it makes every progress spin
// iterations meanwhile (settingPoll, one of ops.Polls; "": the transport's own).
const (
	settingBusy = "target_busy"
	settingPoll = "poll"
)

// The calls a busy target can make (ops.Polls).
const (
	pollIprobe = "iprobe"
	pollFlush  = "flush"
	pollQuiet  = "quiet"
)

const busyOps = "one-sided operations measured under a passive mode (lock, lock_exclusive, lock_all, flush, ...) and OpenSHMEM puts, gets and atomics with no method"

func init() {
	// Listed before hang_timeout, where the core had them: skampi run --help and a
	// one-line suite's text are what they were.
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingBusy,
		Doc:     `one-sided operations under a passive mode (lock, lock_exclusive, lock_all, flush, ...): the target computes (the calibrated spin) this long in every step while the origin operates, from a common start (default "0s": it idles in the library), at most 1s`,
		Default: time.Duration(0),
		Parse:   inputs.SettingWait(time.Second, "the origin may wait this long in every step"),
		Applies: passive,
		What:    busyOps,
		Before:  "hang_timeout",
		// The origin's step waits for the target's computation.
		StepWait: busyFor,
		// A step lasts the target's computation whatever the operation reports: timed
		// whole, its post and completion apart would each wait for it.
		WholeStep: func(m *inputs.Measurement, method string) bool {
			return busyFor(m) > 0 && m.Op.PassiveTarget(method)
		},
		// The busy target polls every progress spin iterations.
		Shares: []inputs.Share{{
			Setting: "progress",
			What:    "busy passive targets (target_busy), which poll",
			Doc:     "a busy passive target (target_busy): its poll call every this many spin iterations",
			Uses:    func(m *inputs.Measurement) bool { return passive(m) && busyFor(m) > 0 },
		}},
		Recorded: []string{"target_busy_s", settingPoll, "poll_every"}, // the poll only where busy
	})
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingPoll,
		Doc:     `a busy passive target (target_busy): the call it makes every progress spin iterations: "iprobe" (MPI_Iprobe, MPI's default), "flush" (MPI_Win_flush of its own window) or "quiet" (shmem_quiet, OpenSHMEM's default)`,
		Default: "",
		Parse:   inputs.SettingOneOf(pollIprobe, pollFlush, pollQuiet),
		Applies: polls,
		What:    "busy passive targets that poll (target_busy and progress above 0): " + busyOps,
		Check:   checkPoll,
		Before:  "hang_timeout",
	})
}

// passive: a method of the measurement leaves its target passive, so it can be kept
// busy and poll.
func passive(m *inputs.Measurement) bool {
	if len(m.Methods) == 0 {
		return m.Op.PassiveTarget("")
	}
	return slices.ContainsFunc(m.Methods, m.Op.PassiveTarget)
}

// busyFor is how long the measurement's target computes in every step.
func busyFor(m *inputs.Measurement) time.Duration {
	return m.Settings.Value(settingBusy).(time.Duration)
}

// polls: the busy target makes its poll call every progress spin iterations.
func polls(m *inputs.Measurement) bool {
	return passive(m) && busyFor(m) > 0 && m.Settings.Progress > 0
}

// checkPoll says why the busy target cannot make the poll call given: shmem_quiet in
// an MPI operation, MPI_Win_flush of its own window under an exclusive lock from the
// origin (the flush needs a lock of its own, which the origin's exclusive lock
// excludes). A poll never made is the scope's error (polls).
func checkPoll(m *inputs.Measurement) string {
	poll := m.Settings.Value(settingPoll).(string)
	switch {
	case !polls(m):
		return ""
	case poll == pollQuiet && !m.Op.SHMEM:
		return m.Op.Name + ` is MPI: its busy target polls with "iprobe" or "flush", not "quiet" (OpenSHMEM's)`
	case poll != pollQuiet && m.Op.SHMEM:
		return m.Op.Name + ` is OpenSHMEM: its busy target polls with "quiet"`
	case poll == pollFlush && slices.Contains(m.Methods, "lock_exclusive"):
		return m.Op.Name + ` [lock_exclusive]: a target polling with "flush" needs a lock on its own window, which the origin's exclusive lock excludes: use "iprobe"`
	}
	return ""
}

// pollFor is the call the point's busy target makes: the setting, else the
// transport's own (MPI_Iprobe for MPI, shmem_quiet for OpenSHMEM).
func pollFor(pt *inputs.Point) string {
	switch poll := pt.Settings().Value(settingPoll).(string); {
	case poll != "":
		return poll
	case pt.Op().SHMEM:
		return pollQuiet
	}
	return pollIprobe
}
