package inputs

import (
	"time"

	"github.com/skampi/skampi/ops"
)

// Timers.
const (
	TimerGlobalLoop = "global-loop" // time a loop of operations, divide by the count
	TimerIteration  = "iteration"   // time each operation and add up
)

// Pair selections for two-rank operations.
const (
	PairDefault     = "default"      // ranks 0 and 1
	PairMaxLatency  = "max-latency"  // rank 0 and the rank slowest to reach from it
	PairAcrossNodes = "across-nodes" // rank 0 and the first rank on another host
	PairRanks       = "ranks"        // an explicit pair, pair = [a, b]
)

// Settings control how every point of a measurement is measured. [settings] sets them
// for the suite; any of them can be repeated inside a [[measurement]] to override it.
type Settings struct {
	MinReps int
	// MaxReps is SKaMPI's maximum count of repetitions, or with AutoReps
	// (max_repetitions = "auto") only the hard cap RepCap: a point then runs until it
	// converges, or until it has spent Budget (after at least MinReps).
	MaxReps      int
	AutoReps     bool
	Budget       time.Duration
	MaxRelStderr float64
	MaxTime      time.Duration // hard cap on one point's measuring time
	MaxDiscarded int           // cap on repetitions thrown away (invalid) in one point
	Buffer       int64         // message buffer per rank and direction
	BufferSet    bool          // the suite wrote buffer: a limit (else skampi sizes it; see RankMemoryCap)
	Timer        string
	Warmup       int           // repetitions run and discarded before measuring
	Iterations   int           // operations per repetition; 0 = chosen from RepTime
	RepTime      time.Duration // target duration of one repetition when Iterations is 0
	Sync         string        // "barrier" or "none" before each repetition
	Pair         string
	PairRanks    [2]int
	Window       int  // messages in flight for windowed (bandwidth) operations
	WindowSet    bool // the suite or the command line wrote window (WindowFor)
	// HangTimeout ends the job when one point takes this long, which only a point
	// blocked inside the library does (the stop rule ends slow points at MaxTime);
	// 0 means twice MaxTime plus 5 s.
	HangTimeout time.Duration
	// StartupTimeout bounds each start-up phase (MPI_Init, shmem_init, the first
	// exchanges) and finalize; 0 means the longer of Hang and a minute.
	StartupTimeout time.Duration
	// Datatype of collective data ("" = MPI_BYTE, or MPI_INT for reductions), the
	// reduction operator and the root of rooted collectives.
	Datatype string
	ReduceOp string
	Root     int
	// BarrierAbove: the ordered all-to-all synchronises its phases for messages larger
	// than this many bytes; -1 never.
	BarrierAbove int64
	// Procs are the communicator sizes a collective is measured at (0 = all ranks);
	// nil: all ranks only. Layout picks the ranks: "block" (the first n) or
	// "one-per-node" (the first rank of each host, then the second, ...).
	Procs  []int
	Layout string
	// ClockSync is the algorithm that fits the global clock for window
	// synchronisation: "hca" (offset and drift, log p rounds) or "skampi" (offset).
	ClockSync string
	// RecvSlots: the receives of a bandwidth window share one buffer ("shared", as
	// OSU and IMB do) or each has its own ("per-message", buffer * window bytes).
	RecvSlots string
	// CheckData: receivers check every byte after each repetition (OSU's -c).
	CheckData bool
	// Cache: "warm" reuses one buffer; "cold" gives every iteration another region of
	// an area larger than the last-level cache (IMB's -off_cache).
	Cache string
	// CacheSize is the cache a cold cache defeats (bytes); 0 = "auto": this machine's
	// last-level cache, at most ops.ColdCacheCap.
	CacheSize int64
	// Progress: non-blocking operations call MPI_Test every this many spin iterations
	// of their overlap computation, for libraries that progress only inside MPI calls;
	// 0 never.
	Progress int64
	// PVars: the library's performance variables read around each point ("all": every
	// one it offers; none by default).
	PVars []string
	// Refine: sizes added between the listed ones where the curve bends (settings_refine.go).
	Refine Refine
	// family: the settings families registered (family_settings.go) that a suite or
	// flag set, by name; read with Value. Copied on write.
	family map[string]any
}

// Receive slots of windowed operations, and cache states.
const (
	RecvSlotsShared     = "shared"
	RecvSlotsPerMessage = "per-message"
	CacheWarm           = "warm"
	CacheCold           = "cold"
)

// Slots is the number of receive slots a windowed operation needs.
func (s Settings) Slots(op ops.Info) int {
	if op.Windowed && s.RecvSlots == RecvSlotsPerMessage {
		return s.Window
	}
	return 1
}

// WindowFor is the window a point of op takes under its timing method: the setting
// for a windowed operation; for a method that aggregates (ops.Method.Aggregate, IMB's
// aggregate mode) the setting where the suite or the command line wrote one, else 1
// (one call per step, IMB's non-aggregate mode: the default of 64 messages in flight
// is a bandwidth window, not a count of writes); 0 for any other operation.
func (s Settings) WindowFor(op ops.Info, method string) int {
	if op.Windowed {
		return s.Window
	}
	if m, ok := op.Method(method); ok && m.Aggregate {
		if s.WindowSet {
			return s.Window
		}
		return 1
	}
	return 0
}

// DatatypeFor is the datatype an operation uses under these settings.
func (s Settings) DatatypeFor(op ops.Info) string {
	switch {
	case !op.Datatyped:
		return "byte" // its kernel moves bytes, or elements of a type of its own
	case s.Datatype != "":
		return s.Datatype
	case op.Reduction:
		return "int" // MPI_BYTE cannot be summed
	}
	return "byte"
}

// TypeSize is the size of one element of the operation's datatype.
func (s Settings) TypeSize(op ops.Info) int64 { return ops.Datatypes[s.DatatypeFor(op)] }

// SizeGrain is what every size of the operation is a multiple of under these settings:
// its datatype's element, the elements it moves (shmem_put64's 8 bytes), a strided
// layout's element (8-byte doubles unless datatyped) and its partitions. Refinement
// adds sizes on this grain, the checks of listed sizes hold them to each part.
func (s Settings) SizeGrain(op ops.Info) int64 {
	return lcm(lcm(max(s.TypeSize(op), 1), op.ElementBytes), s.familyGrain(op))
}

// lcm is the least common multiple of a and b; a when b is not positive.
func lcm(a, b int64) int64 {
	if b <= 0 {
		return a
	}
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// Hang is the effective hang timeout.
func (s Settings) Hang() time.Duration {
	if s.HangTimeout > 0 {
		return s.HangTimeout
	}
	return 2*s.MaxTime + 5*time.Second
}

// RepCap bounds the repetitions of a point under max_repetitions = "auto".
const RepCap = 10_000

// Defaults: at least 8 repetitions, then as many as the cost of the operation allows
// (1 s a point) until the standard error is 3 % of the time.
func Defaults() Settings {
	s := Settings{
		MinReps: 8, MaxReps: RepCap, AutoReps: true, Budget: time.Second, MaxRelStderr: 0.03,
		MaxTime: 10 * time.Second, MaxDiscarded: 64,
		Buffer: 4 << 20, Timer: TimerGlobalLoop, Warmup: 2,
		RepTime: time.Millisecond, Sync: "barrier", Pair: PairDefault, Window: 64, ReduceOp: "sum", BarrierAbove: -1, Layout: "block", ClockSync: "hca",
		RecvSlots: RecvSlotsShared, Cache: CacheWarm,
	}
	return s
}
