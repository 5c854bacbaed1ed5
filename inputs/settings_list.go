package inputs

import (
	"fmt"
	"math"
	"slices"

	"github.com/skampi/skampi/ops"
)

type setting struct {
	name string
	doc  string
	set  func(s *Settings, v any) error
}

// settingList is the one place a setting is named, documented and checked.
var settingList = slices.Concat(baseSettings, pvarSettingList, refineSettingList)

var baseSettings = []setting{
	{"min_repetitions", "fewest repetitions per point", func(s *Settings, v any) (err error) {
		s.MinReps, err = intIn(v, 1, 1_000_000)
		return
	}},
	{"max_repetitions", `most repetitions per point, or "auto": until converged or budget_per_point is spent (at most 10000)`, func(s *Settings, v any) (err error) {
		if str, ok := v.(string); ok {
			if str != "auto" {
				return fmt.Errorf(`must be "auto" or a count of repetitions, got %q`, str)
			}
			s.MaxReps, s.AutoReps = RepCap, true
			return nil
		}
		s.MaxReps, err = intIn(v, 1, 1_000_000)
		s.AutoReps = false // SKaMPI's rule: exactly this maximum, whatever it costs
		return
	}},
	{"budget_per_point", `max_repetitions = "auto": a point not converged stops after this long (at least min_repetitions)`, func(s *Settings, v any) (err error) {
		s.Budget, err = duration(v)
		return
	}},
	{"max_relative_stderr", "stop when stderr <= this * mean (0 < x < 1)", func(s *Settings, v any) error {
		f, err := float(v)
		if err == nil && !(f > 0 && f < 1) {
			err = fmt.Errorf("must be between 0 and 1 (exclusive), got %v", f)
		}
		s.MaxRelStderr = f
		return err
	}},
	{"max_time_per_point", "hard cap on the time spent measuring one point", func(s *Settings, v any) (err error) {
		s.MaxTime, err = duration(v)
		return
	}},
	{"max_discarded", "most invalid repetitions tolerated per point", func(s *Settings, v any) (err error) {
		s.MaxDiscarded, err = intIn(v, 0, 1_000_000)
		return
	}},
	{"buffer", "message buffer per rank and direction", func(s *Settings, v any) error {
		n, err := size(v)
		if err == nil && n <= 0 {
			err = fmt.Errorf("must be larger than 0 bytes")
		}
		if err == nil {
			err = fitsMemory(n)
		}
		// Written, it is a limit every point must fit at the job's process count (an
		// error where one does not); left out, skampi sizes the buffers for the job and
		// leaves out, with a note, a point that needs more than RankMemoryCap (Plan.Expand).
		s.Buffer, s.BufferSet = n, true
		return err
	}},
	{"timer", `"global-loop" (default) or "iteration"`, func(s *Settings, v any) (err error) {
		s.Timer, err = oneOf(v, TimerGlobalLoop, TimerIteration)
		return
	}},
	{"warmup", "repetitions run and discarded before measuring", func(s *Settings, v any) (err error) {
		s.Warmup, err = intIn(v, 0, 1000)
		return
	}},
	{"iterations", `operations per repetition, or "auto" (from rep_time)`, func(s *Settings, v any) error {
		if str, ok := v.(string); ok && str == "auto" {
			s.Iterations = 0
			return nil
		}
		if str, ok := v.(string); ok {
			return fmt.Errorf(`must be "auto" or a count of operations, got %q`, str)
		}
		n, err := intIn(v, 1, 100_000_000)
		if err != nil {
			return fmt.Errorf(`must be "auto" or a count of operations: %v`, err)
		}
		s.Iterations = n
		return nil
	}},
	{"rep_time", "target duration of one repetition when iterations is auto", func(s *Settings, v any) (err error) {
		s.RepTime, err = duration(v)
		return
	}},
	{"sync", `"barrier" (default), "window" (start at an agreed instant on a global clock) or "none"`, func(s *Settings, v any) (err error) {
		s.Sync, err = oneOf(v, "barrier", "window", "none")
		return
	}},
	{"pair", `"default", "max-latency", "across-nodes" or [a, b]`, func(s *Settings, v any) error {
		if arr, ok := v.([]any); ok {
			if len(arr) != 2 {
				return fmt.Errorf("an explicit pair has two ranks, got %d", len(arr))
			}
			for i, x := range arr {
				if n, ok := x.(int64); ok && n < 0 {
					return fmt.Errorf("rank %d is %d: ranks are numbered from 0", i+1, n)
				}
				r, err := intIn(x, 0, math.MaxInt32)
				if err != nil {
					return fmt.Errorf("rank %d: %v", i+1, err)
				}
				s.PairRanks[i] = r
			}
			if s.PairRanks[0] == s.PairRanks[1] {
				return fmt.Errorf("the two ranks of a pair must differ")
			}
			s.Pair = PairRanks
			return nil
		}
		p, err := oneOf(v, PairDefault, PairMaxLatency, PairAcrossNodes)
		s.Pair = p
		return err
	}},
	{"window", "messages in flight for bandwidth operations; IMB-IO's writes under method imb: writes per sample (IMB's aggregate mode; default 1)", func(s *Settings, v any) (err error) {
		s.Window, err = intIn(v, 1, 1<<16)
		s.WindowSet = err == nil
		return
	}},
	{"datatype", `collective data type: "byte", "char", "int", "long", "float" or "double"`, func(s *Settings, v any) (err error) {
		s.Datatype, err = oneOf(v, "byte", "char", "int", "long", "float", "double")
		return
	}},
	{"reduce_op", `reduction operator: "sum" (default), "prod", "min", "max", "band", "bor", "bxor"`, func(s *Settings, v any) (err error) {
		s.ReduceOp, err = oneOf(v, ops.ReduceOps...)
		return
	}},
	{"barrier_above", `ordered all-to-all: a barrier between phases above this size, or "never" (default)`, func(s *Settings, v any) error {
		if str, ok := v.(string); ok && str == "never" {
			s.BarrierAbove = -1
			return nil
		}
		n, err := size(v)
		if err != nil {
			return fmt.Errorf(`must be a size or "never": %v`, err)
		}
		s.BarrierAbove = n
		return nil
	}},
	{"procs", `communicator sizes for collectives: a list such as [2, 4, 8, "all"]`, func(s *Settings, v any) error {
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf(`must be a list such as [2, 4, "all"], got %s`, typeName(v))
		}
		if len(arr) == 0 {
			return fmt.Errorf("the list of process counts is empty")
		}
		var out []int
		for i, e := range arr {
			n := 0 // "all"
			if str, ok := e.(string); !ok || str != "all" {
				var err error
				if n, err = intIn(e, 1, MaxJobProcs); err != nil {
					return fmt.Errorf(`entry %d: must be a process count or "all": %v`, i+1, err)
				}
			}
			if j := slices.Index(out, n); j >= 0 {
				// Measuring one communicator twice would give two records of one point.
				return fmt.Errorf("entry %d: %v is listed twice (entries %d and %d)", i+1, e, j+1, i+1)
			}
			out = append(out, n)
		}
		s.Procs = out
		return nil
	}},
	{"clock_sync", `clock model for sync = "window": "hca" (offset and drift, default) or "skampi" (offset only)`, func(s *Settings, v any) (err error) {
		s.ClockSync, err = oneOf(v, "hca", "skampi")
		return
	}},
	{"layout", `ranks for procs: "block" (the first n, default) or "one-per-node"`, func(s *Settings, v any) (err error) {
		s.Layout, err = oneOf(v, "block", "one-per-node")
		return
	}},
	{"root", "root rank of rooted collectives (default 0)", func(s *Settings, v any) (err error) {
		s.Root, err = intIn(v, 0, math.MaxInt32)
		return
	}},
	{"recv_slots", `bandwidth windows: "shared" (one receive buffer, as OSU and IMB; default) or "per-message" (buffer * window)`, func(s *Settings, v any) (err error) {
		s.RecvSlots, err = oneOf(v, RecvSlotsShared, RecvSlotsPerMessage)
		return
	}},
	{"check_data", "check every received byte after each repetition, outside the timing (true or false)", func(s *Settings, v any) error {
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("must be true or false, got %s", typeName(v))
		}
		s.CheckData = b
		return nil
	}},
	{"cache", `"warm" (default) or "cold": every iteration uses another region of an area larger than the last-level cache`, func(s *Settings, v any) (err error) {
		s.Cache, err = oneOf(v, CacheWarm, CacheCold)
		return
	}},
	{"cache_size", `the cache cache = "cold" defeats: "auto" (default: this machine's last-level cache, at most 64 MiB) or a size from 64KiB to 16GiB; cold caches cycle through twice this per buffer`, func(s *Settings, v any) error {
		if v == "auto" {
			s.CacheSize = 0
			return nil
		}
		n, err := size(v)
		if err != nil {
			return fmt.Errorf(`must be "auto" or a size: %w`, err)
		}
		if n < 64<<10 || n > 16<<30 {
			return fmt.Errorf("must be from 64KiB to 16GiB, got %d bytes", n)
		}
		s.CacheSize = n
		return nil
	}},
	{"progress", "non-blocking operations: MPI_Test every this many spin iterations of the overlap computation (0: never, default)", func(s *Settings, v any) error {
		n, err := intIn(v, 0, 1<<40)
		s.Progress = int64(n)
		return err
	}},
	{"hang_timeout", `end the job when a rank makes no progress for this long (a point's steps stop moving; default: 2 * max_time_per_point + 5s)`, func(s *Settings, v any) (err error) {
		s.HangTimeout, err = duration(v)
		return
	}},
}

func findSetting(name string) (setting, bool) {
	for _, st := range settingList {
		if st.name == name {
			return st, true
		}
	}
	return setting{}, false
}

func settingNames() []string {
	out := make([]string, len(settingList))
	for i, st := range settingList {
		out[i] = st.name
	}
	return out
}
