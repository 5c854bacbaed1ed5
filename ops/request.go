package ops

import (
	"maps"
	"slices"
)

// Request is what one point asks a kernel to do on this rank: built once by the runner
// from the point and its settings, and taken as it is by ops/mpi (and a family's kernels, and
// the stub of a build without MPI). Everything a suite names travels by its name
// (kernel, mode, datatype, reduce_op, rma_window, phase) and is resolved where it is
// used, in the kernels' own tables: no ordinal two languages must agree on.
// MaxBytes is the most bytes one message (or a strided message's span) may have: MPI
// counts bytes in a C int. The kernels refuse more (ops/mpi NewOp), and suites are
// checked against it before any process starts.
const MaxBytes = 1<<31 - 1

type Request struct {
	Info Info
	// Kernel is the timed loop, a name of the kernel table: the operation's, or its
	// timing method's (Info.KernelFor(method)).
	Kernel string
	// Mode is the kernel's synchronisation mode by name (one-sided operations and
	// locks: Method.Mode; "" for the kernel's own).
	Mode  string
	Bytes int64
	// Windowed operations: messages per step, and receive slots (1: the window
	// shares one). A method that aggregates (Method.Aggregate): calls per step, the
	// time per call.
	Window    int
	Slots     int
	Aggregate bool
	// CheckData: check every received byte after each repetition.
	CheckData bool
	// Cold: every step on another region of an area larger than the last-level cache
	// (CacheSize, 0: this machine's, capped: ColdArea).
	Cold      bool
	CacheSize int64
	// Iteration: the iteration timer instead of the global-loop timer.
	Iteration bool
	// Pair: the two ranks of a two-rank operation; Ranks: the world ranks of a
	// collective's communicator (nil: all); Task: the communicator rank a per-task
	// method measures.
	Pair  [2]int
	Ranks []int
	Task  int
	// Collectives and typed one-sided operations: a key of Datatypes, one of
	// ReduceOps, the root.
	Datatype string
	ReduceOp string
	Root     int
	// BarrierAbove: the ordered all-to-all puts a barrier between phases above this
	// size; negative: never.
	BarrierAbove int64
	// RMAWindow: the kind of window a one-sided operation runs on, one of RMAWindows.
	RMAWindow string
	// DataLayout (one of DataLayouts; "": contiguous) and Stride, in elements between
	// the payload's elements, of an operation with Layouts.
	DataLayout string
	Stride     int
	// TypeCommit: "every_call" builds, commits and frees a strided layout's datatype
	// in every step; "" (once) commits it once per point.
	TypeCommit string
	// Poll: the call a busy passive target (ParamBusySpin) makes every ProgressEvery
	// spin iterations of its computation ("iprobe", "flush", "quiet"; "": the
	// transport's own).
	Poll string
	// BarrierEach: OSU's collective loop (Method.BarrierEach): every step timed alone,
	// a barrier after it, untimed.
	BarrierEach bool
	// PVars: the library's performance variables read around the point's runs (rank 0
	// records them); "all" for every one.
	PVars []string
	// Blocks: the message buffers hold this many of the point's messages, each way (0:
	// what the operation's pattern needs, Info.BufferBytes; a neighbourhood
	// collective's: a block per edge, which a grid may have more of than processes).
	Blocks int64
	// Non-blocking operations: the measurement to run, a test every ProgressEvery spin
	// iterations of the busy computation (0: none), and the seconds taken off every
	// interval timed per call.
	Phase         Phase
	ProgressEvery int64
	TimerOverhead float64
	// Params are a family's numbers by name, each name one meaning, read by its kernels
	// (resolved in C, where a name no kernel reads is refused): the Param* names below.
	Params map[string]float64
	// Strings are a family's words by name (an MPI-IO point's file, "io_path"), read by
	// its kernels as Params are: a name its kernel does not read is refused in C.
	Strings map[string]string
	// Ints are its lists of integers by name (a topology's edges), likewise.
	Ints map[string][]int64
}

// SameBuffers: the two requests differ at most in their non-blocking measurement, so
// one prepared operation can run both (its phase switched between runs).
func (r Request) SameBuffers(o Request) bool {
	if !r.Info.Nonblocking || r.Info.Name != o.Info.Name || r.Kernel != o.Kernel || r.Mode != o.Mode ||
		r.Bytes != o.Bytes || r.Pair != o.Pair || r.Task != o.Task || !maps.Equal(r.Params, o.Params) || !maps.Equal(r.Strings, o.Strings) || !maps.EqualFunc(r.Ints, o.Ints, slices.Equal) || r.Blocks != o.Blocks ||
		r.ProgressEvery != o.ProgressEvery || r.TimerOverhead != o.TimerOverhead || len(r.Ranks) != len(o.Ranks) {
		return false
	}
	for i := range r.Ranks {
		if r.Ranks[i] != o.Ranks[i] {
			return false
		}
	}
	return true
}

// ParamNames are every name of Request.Params.
var ParamNames = []string{ParamOverlapSpin, ParamHoldSpin, ParamLateSpin, ParamDelay, ParamPartitions, ParamBusySpin}

// The names of Request.Params, and what each means (ops/mpi/run.c's sk_params resolves
// them into fields of one meaning each).
const (
	ParamOverlapSpin = "overlap_spin" // a non-blocking operation's busy computation, spin iterations
	ParamHoldSpin    = "hold_spin"    // how long a lock holder keeps the lock (Lock_Held), spin iterations
	ParamLateSpin    = "late_spin"    // how late a late partner enters (the setting delay), spin iterations
	ParamDelay       = "delay_s"      // how late the last rank enters a delayed collective, seconds
	ParamPartitions  = "partitions"   // the parts of a partitioned message
	ParamBusySpin    = "busy_spin"    // a busy passive target's computation in every step, spin iterations (0: it idles)
)

// SetParam sets a parameter by name on a copy of the request's Params: requests built
// from one another never share the map.
func (r *Request) SetParam(name string, v float64) {
	p := maps.Clone(r.Params)
	if p == nil {
		p = map[string]float64{}
	}
	p[name] = v
	r.Params = p
}

// SetString sets a word by name on a copy of the request's Strings, as SetParam does.
func (r *Request) SetString(name, v string) {
	p := maps.Clone(r.Strings)
	if p == nil {
		p = map[string]string{}
	}
	p[name] = v
	r.Strings = p
}

// SetInts sets a list by name on a copy of the request's Ints, as SetParam does.
func (r *Request) SetInts(name string, v []int64) {
	p := maps.Clone(r.Ints)
	if p == nil {
		p = map[string][]int64{}
	}
	p[name] = v
	r.Ints = p
}
