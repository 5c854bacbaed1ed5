// Package ops is the catalogue of measurable operations. Each operation is described
// once, here: its name, family, documentation, parameters, who takes part, how the
// per-rank times of a repetition reduce to one, its timing methods and the kernel
// that runs it. Suites, the engine, the runner and the kernels all read these fields;
// nothing else names an operation. It is pure Go; the kernels live in ops/mpi and
// ops/shmem (cgo).
package ops

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/skampi/skampi/measure"
)

// Reduce says how the per-rank times of one repetition become the repetition's time.
// The engine owns the type (measure.Reduce); the catalogue names it here.
type Reduce = measure.Reduce

const (
	// ReduceFirst takes the time measured by the first rank of the pair (the initiator).
	ReduceFirst = measure.ReduceFirst
	// ReduceMax takes the slowest participating rank.
	ReduceMax = measure.ReduceMax
	// ReduceMean takes the mean over the participating ranks (method osu).
	ReduceMean = measure.ReduceMean
)

// Pattern says which ranks take part in an operation.
type Pattern int

const (
	// PatternPair: two ranks (a selected pair); the others idle.
	PatternPair Pattern = iota
	// PatternPairs: every rank, in pairs (rank i with rank i+p/2).
	PatternPairs
	// PatternAll: every rank of the communicator (collectives).
	PatternAll
)

// Info describes one operation.
type Info struct {
	Name        string
	Family      string
	Description string
	// Kernel names the timed loop that runs the operation in its library's kernel
	// table (ops/mpi: kernels.c); a unit test of the kernel package checks both agree.
	Kernel  string
	Pattern Pattern
	Reduce  Reduce
	// RoundTrip: the time is a round trip (ping-pong); records also carry the one-way
	// latency, time/2.
	RoundTrip bool
	// Windowed operations post `window` messages per repetition step, received into
	// one shared slot or one slot each (recv_slots).
	Windowed bool
	// Bandwidth operations report bytes per second as well as time.
	Bandwidth bool
	// Directions is the number of directions data flows in at once per pair (2 for a
	// bidirectional exchange); it scales the bytes and messages counted for bandwidth.
	// An operation of every rank counts what one rank moves, as IMB does (Sendrecv:
	// 2, one message out and one in; Exchange: 4).
	Directions int
	// PerProcess: msg_bytes is the block exchanged with each process, so buffers hold
	// nprocs blocks (all-to-all, gathers, scatters).
	PerProcess bool
	// Reduction operations combine values: they take a datatype and a reduce_op.
	Reduction bool
	// Rooted operations have a root (root = N).
	Rooted bool
	// SingleShot operations are timed one call per repetition when iterations is
	// "auto": back-to-back collectives pipeline and would be measured too fast.
	SingleShot bool
	// Throughput: records carry the all-to-all throughput per process,
	// (nprocs-1) * msg_bytes / time (Kutzner et al.).
	Throughput bool
	// NodeAware kernels need the node of every rank of their communicator.
	NodeAware bool
	// Methods are the timing methods a measurement may choose among (method = [...]).
	Methods []Method
	// DefaultMethod names the method whose sequence the operation runs when none is
	// chosen, where one of its methods is exactly that (the one-sided operations' mode
	// flush): points and records carry the name, so a run that names it and one that
	// does not measure, and compare, the same point. "": the operation's own sequence
	// differs from every method's.
	DefaultMethod string
	// RetiredMethods are method names the operation no longer has, each with what
	// to write instead, for the error a suite naming one gets.
	RetiredMethods map[string]string
	// CallTimed: the kernel times one call inside its step, the rest of the step
	// untimed (Win_lock, Win_unlock), so the timer setting does not apply.
	CallTimed bool
	// Nonblocking operations are posted, then completed: a point measures the post,
	// the completion, the whole, and the overlap with a busy computation (Phase).
	Nonblocking bool
	// OneSided operations run on an RMA window created for the point (rma_window).
	OneSided bool
	// SingleElement operations move one element of their datatype: msg_bytes must be
	// its size.
	SingleElement bool
	// LockHold: rank 0 holds a lock for lock_hold; the time is how long the others
	// wait for it.
	LockHold bool
	// Delayed: a late rank or partner waits for the setting delay before its call: the
	// last rank of a delayed collective (the time holds the delay), the late partner of
	// a synchronisation call.
	Delayed bool
	// Skewed: rank 0 sends ratio times what the other ranks send (the ratio setting).
	Skewed bool
	// Computes: every step computes for the setting halo_compute (the calibrated spin)
	// while its communication is in flight (the halo exchanges).
	Computes bool
	// Layouts: the operation takes the data_layout setting (DataLayouts): its payload
	// strided in memory, moved by a derived datatype or packed by hand.
	Layouts bool
	// SHMEM operations are OpenSHMEM's (ops/shmem): a run that has one starts
	// OpenSHMEM, and their target is a PE.
	SHMEM bool
	// TargetPassive: the target PE takes no part in the operation with no method (an
	// OpenSHMEM put, get or atomic), so it can be kept busy meanwhile (target_busy,
	// poll = "quiet"); one-sided MPI operations say it per mode (Method.Passive).
	TargetPassive bool
	// ElementBytes: the operation moves elements of this size (0: bytes): msg_bytes is
	// a multiple of it (of exactly one, with SingleElement).
	ElementBytes int64
	// AtomicRate: records carry the aggregate rate of the atomics every PE but the
	// target issues at once, ops_per_s = (nprocs - 1) / time.
	AtomicRate bool
	// AtomicKind and AtomicType say what an atomic (AtomicRate) operation is: its
	// kind ("Fetch_Add", "Compare_Swap") and the type it operates on ("Int", "Long"),
	// of ElementBytes bytes. The atomics figure draws a bar per kind and type.
	AtomicKind, AtomicType string
	// WholeJob operations involve every process of the job (a collective over all
	// PEs, such as shmem_malloc): procs does not apply.
	WholeJob bool
	// Panels are the figures of its family an operation is drawn in when the family
	// has more operations than one figure can show (coll: rooted, all-to-all,
	// reductions, each baseline beside what it stands in for; a reference operation
	// may be in several).
	Panels []string
	// Beside names the operation of another family that measures the same pattern
	// (Shmem_Sendrecv_Shift: Sendrecv_Shift); one figure draws them together.
	Beside string
	// MinProcs is the fewest processes the operation's communicator must have for it
	// to measure anything (0: any); MinProcsWhy says why, in the error refusing fewer.
	MinProcs    int
	MinProcsWhy string
	// NoData: msg_bytes changes nothing the operation does (a barrier, a lock, a
	// synchronisation call): one size is enough, 0 unless a suite says otherwise.
	NoData bool
	// Datatyped operations move elements of the datatype setting (an MPI datatype);
	// Combines ones also combine them with the reduce_op setting.
	Datatyped bool
	Combines  bool
	// IntegerOnly: MPI defines the operation on integer and byte datatypes only (a
	// compare-and-swap compares bits), not on floating point.
	IntegerOnly bool
	// Local: the operation communicates with no other process (MPI_Reduce_local); each
	// process times its own calls, many per repetition.
	Local bool
	// Phased: an all-to-all in phases, with a barrier between them above barrier_above.
	Phased bool
	// Heap is how a point of an OpenSHMEM operation lays out its symmetric memory
	// (SymmetricBytes).
	Heap Heap
	// Neighborhood operations run on the point's process topology (the setting
	// topology), made once per point: msg_bytes is the block of one neighbour, the
	// buffers hold a block per neighbour.
	Neighborhood bool
	// Partitioned: a message in parts (the setting partitions), each made ready apart.
	Partitioned bool
	// Persistent operations make their requests once per point, bound to the point's
	// buffers (so the buffers never move: no cold cache).
	Persistent bool
	// IO operations work on a file of their own in the directory under test (the
	// setting io_dir), created before the point and deleted after it (ops/io.go).
	IO bool
	// Displacements: the kernel places every process's block at a C int displacement
	// (MPI's v-forms count them in elements, DisplElements; the w-forms in bytes,
	// DisplBytes), up to nprocs blocks in: a block times the processes must fit an int.
	Displacements string
	// Threaded: each rank of the pair runs the kernel in `threads` threads of its own
	// at once (ops/mpi/mt.c), each on its own communicator or tag: a run that has one
	// initialises MPI with MPI_THREAD_MULTIPLE. The time is the slowest thread's.
	Threaded bool
	// OneToN: a threaded operation of one thread on the initiator and `threads` on the
	// responder (osu_latency_mt's -t 1:N), all on the pair's communicator with the same
	// tags, so that any receiver thread may take any message; the receivers share the
	// initiator's iterations, and the time is the initiator's thread's. Its threads keep
	// no messages apart (no thread_comm) and make no pairs: no mean thread, span or
	// messages per second of them all is recorded.
	OneToN bool
}

// Method is one way of timing an operation (the method paper's broadcast algorithms).
// What sets a method apart is said by its fields, so the runner never tests names.
type Method struct {
	Name        string
	Description string
	// Kernel is the timed loop of the method (see Info.Kernel); Mode, the
	// synchronisation mode it runs under, by name (one-sided operations and locks: the
	// kernel resolves it; "": the kernel's own).
	Kernel string
	Mode   string
	// RootTimed: only the root's time counts; the kernel computes it (no other rank
	// knows when the operation ended for everyone).
	RootTimed bool
	// WindowSync: every repetition starts at an agreed instant on a global clock,
	// whatever the measurement's sync setting.
	WindowSync bool
	// Subtract names an operation measured right after with the same settings and
	// taken off the result (the subtraction method).
	Subtract string
	// PerTask: measured once for every rank of the communicator but the root (the
	// kernel is told which); the point's time is the slowest task's, each task's time
	// a mean over its own repetitions (the method paper's Alg. 4).
	PerTask bool
	// OrderChecked: with check_data, the kernel also checks that no call started
	// before the measured task had left the one before (the method paper's Lemma 1);
	// its clock reads are inside the timing.
	OrderChecked bool
	// Passive: the target takes no part in the epoch (a passive-target mode of a
	// one-sided operation), so it can be kept busy meanwhile (target_busy, poll).
	Passive bool
	// RankMean: a repetition's time is the mean over the ranks, not the slowest's
	// (the collectives' method osu: OSU's average column).
	RankMean bool
	// BarrierEach: every call timed alone with a barrier after it, untimed, many per
	// repetition (OSU's collective loop): calls never overlap, so iterations calibrate.
	BarrierEach bool
	// Aggregate: the window setting, where given, is how many calls a step makes before
	// completing them together, and the time is the step's over that count, per call
	// (IMB's aggregate mode); without a window, one call per step (IMB's non-aggregate).
	// The operation is not Windowed: its messages are not in flight at once.
	Aggregate bool
}

// Method finds one of the operation's timing methods by name.
// BreaksDown says whether a point of the operation under method is measured as a
// non-blocking breakdown (full, post, wait, overlap; runner.nonblocking): a
// non-blocking operation, not under a subtraction method, whose target is not kept
// busy (targetBusy: the setting target_busy above 0; such a step is timed whole). Its
// record then holds the breakdown or the flag that says why not.
func (in Info) BreaksDown(method string, targetBusy bool) bool {
	m, _ := in.Method(method)
	return in.Nonblocking && m.Subtract == "" && !(targetBusy && in.PassiveTarget(method))
}

func (in Info) Method(name string) (Method, bool) {
	for _, m := range in.Methods {
		if m.Name == name {
			return m, true
		}
	}
	return Method{}, false
}

// MethodNames lists the names of the operation's timing methods.
func (in Info) MethodNames() []string {
	out := make([]string, len(in.Methods))
	for i, m := range in.Methods {
		out[i] = m.Name
	}
	return out
}

// KernelFor is the kernel that runs the operation with a timing method ("": none).
func (in Info) KernelFor(method string) string {
	if m, ok := in.Method(method); ok {
		return m.Kernel
	}
	return in.Kernel
}

// BufferBytes is the buffer space (per direction) one rank needs for a message of
// size bytes; nprocs matters for per-process operations (pass 1 when unknown). slots
// is the number of receive slots of a windowed operation: 1 when the window's
// receives share one buffer, the window when each message has its own.
func (in Info) BufferBytes(size int64, slots, nprocs int) int64 {
	switch {
	case in.Windowed:
		return MulSat(size, int64(slots))
	case in.PerProcess:
		return MulSat(size, int64(nprocs))
	case in.Neighborhood: // a block per process, as a bound: the kernel takes the topology's degree
		return MulSat(size, int64(nprocs))
	}
	return size
}

// Units of Info.Displacements.
const (
	DisplElements = "elements"
	DisplBytes    = "bytes"
)

// MulSat multiplies counts that are not negative (sizes, slots, processes),
// saturating far below overflow: a product past any memory stays past it, and sums
// of a few such products stay positive. A wrapped product would pass every check.
func MulSat(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/8/a {
		return math.MaxInt64 / 8
	}
	return a * b
}

// Messages is how many messages of msg_bytes one timed step moves across all
// participating pairs: a window (or one) per direction per pair.
func (in Info) Messages(window, pairs int) float64 {
	n := float64(in.Directions) * float64(pairs)
	if in.Windowed {
		n *= float64(window)
	}
	return n
}

// BytesMoved is the payload moved by one timed step (one round trip, one window) across
// all participating pairs; pairs is the number of pairs taking part.
func (in Info) BytesMoved(size int64, window, pairs int) float64 {
	n := float64(size) * float64(in.Directions) * float64(pairs)
	if in.Windowed {
		n *= float64(window)
	}
	return n
}

var pt2ptOps = []Info{
	layouts(pp("Pingpong_Send_Recv", "round trip: MPI_Send then MPI_Recv on each side")),
	pp("Pingpong_Send_Iprobe_Recv", "round trip: MPI_Send; the receiver spins on MPI_Iprobe, then MPI_Recv"),
	pp("Pingpong_Send_Irecv", "round trip: MPI_Send; the receiver uses MPI_Irecv + MPI_Wait"),
	pp("Pingpong_Send_Recv_AT", "round trip: MPI_Send then MPI_Recv with MPI_ANY_TAG"),
	pp("Pingpong_Send_Recv_AS", "round trip: MPI_Send then MPI_Recv from MPI_ANY_SOURCE (IMB's PingPongAnySource)"),
	pp("Pingpong_Ssend_Recv", "round trip: synchronous MPI_Ssend then MPI_Recv"),
	pp("Pingpong_Bsend_Recv", "round trip: buffered MPI_Bsend then MPI_Recv; the buffer (message + MPI_BSEND_OVERHEAD) attached once per point"),
	pp("Pingpong_Isend_Recv", "round trip: MPI_Isend + MPI_Wait then MPI_Recv"),
	pp("Pingpong_Issend_Recv", "round trip: MPI_Issend + MPI_Wait then MPI_Recv"),
	{Name: "Pingpong_Sendrecv", Family: "pt2pt", Kernel: "pingpong_sendrecv", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 2,
		Description: "exchange: both ranks call MPI_Sendrecv with each other at once"},
	{Name: "Pingpong_Sendrecv_replace", Family: "pt2pt", Kernel: "pingpong_sendrecv_replace", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 2,
		Description: "exchange: both ranks call MPI_Sendrecv_replace with each other at once"},
	{Name: "Pingping_Send_Recv", Family: "pt2pt", Kernel: "pingping_send_recv", Pattern: PatternPair, Reduce: ReduceMax, Directions: 2,
		Description: "both ranks send at once: MPI_Isend, MPI_Recv, MPI_Wait; time of the slower"},
	{Name: "Pingping_Send_Recv_AS", Family: "pt2pt", Kernel: "pingping_send_recv_as", Pattern: PatternPair, Reduce: ReduceMax, Directions: 2,
		Description: "both ranks send at once: MPI_Isend, MPI_Recv from MPI_ANY_SOURCE, MPI_Wait; time of the slower (IMB's PingPingAnySource)"},
	{Name: "Ssend", Family: "pt2pt", Kernel: "ssend", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 1,
		Description: "one way, timed on the sender: MPI_Ssend, the receiver in MPI_Recv; back to back, each send returns once its receive has matched (SKaMPI's Send)"},
	{Name: "Bandwidth_Isend_Irecv", Family: "pt2pt", Kernel: "bandwidth_isend_irecv", Pattern: PatternPair, Reduce: ReduceFirst,
		Windowed: true, Bandwidth: true, Directions: 1,
		Description: "unidirectional bandwidth: a window of MPI_Isend/MPI_Irecv, then a 1-byte ack"},
	{Name: "Bibandwidth_Isend_Irecv", Family: "pt2pt", Kernel: "bibandwidth_isend_irecv", Pattern: PatternPair, Reduce: ReduceMax,
		Windowed: true, Bandwidth: true, Directions: 2,
		Description: "bidirectional bandwidth: both ranks post a window of MPI_Irecv and MPI_Isend, then MPI_Waitall"},
	{Name: "Multipair_Bandwidth", Family: "pt2pt", Kernel: "bandwidth_isend_irecv", Pattern: PatternPairs, Reduce: ReduceMax,
		Windowed: true, Bandwidth: true, Directions: 1,
		Description: "aggregate bandwidth and message rate: every rank i sends a window to rank i+p/2 at once, then a 1-byte ack (osu_mbw_mr, IMB's Uniband)"},
	{Name: "Multipair_Bibandwidth", Family: "pt2pt", Kernel: "bibandwidth_isend_irecv", Pattern: PatternPairs, Reduce: ReduceMax,
		Windowed: true, Bandwidth: true, Directions: 2,
		Description: "aggregate bidirectional bandwidth and message rate: every rank i and rank i+p/2 post a window of MPI_Irecv and MPI_Isend to each other at once, then MPI_Waitall (IMB's Biband)"},
	{Name: "Exchange", Family: "pt2pt", Kernel: "exchange", Pattern: PatternAll, Reduce: ReduceMax, PerProcess: true,
		Bandwidth: true, Directions: 4,
		Description: "IMB's Exchange: every rank MPI_Isend's msg_bytes to both neighbours of a ring, MPI_Recv's from both, MPI_Waitall; the slowest rank's time; MB/s as IMB's, 4 x msg_bytes / time (two messages out, two in)"},
}

var catalog = withPanels(slices.Concat(pt2ptOps, randomOps, collOps, nonblockingPt2pt, nonblockingColl, onesidedOps, onesidedSync, shmemOps, shmemAtomics, shmemLocks, shmemMemory, shmemCollectives, shmemSendrecvs, shmemRings, shmemWaits, shmemCtx, []Info{sendrecvShift}, imbalanceOps, onesidedMore, onesidedIMB, haloOps, collV, neighborOps, persistentOps, ioOps, mtOps, selftestOps))

var selftestOps = []Info{
	// Self-tests: real MPI calls that misbehave on purpose, so users can check on their
	// own cluster that a hang or a crash costs one point, not the run.
	// Alg. 4-5's loop without the acknowledgement: what Lemma 1 says cannot happen with
	// it, for the test that shows check_data's order check catches it.
	func() Info {
		in := Info{Name: "Selftest_Broadcast_Noack", Family: "selftest", Kernel: "shmem_broadcast_noack", Pattern: PatternAll,
			Reduce: ReduceMax, Directions: 1, SHMEM: true, SingleShot: true, ElementBytes: 8, Heap: HeapColl, Rooted: true,
			MinProcs: 2, MinProcsWhy: "a task acknowledges to the root",
			Description: "self-test: Shmem_Broadcast's ack loop with the acknowledgement left out; with check_data = true the order check reports the interleaved broadcasts"}
		in.Methods = []Method{{Name: "noack", Kernel: "shmem_broadcast_noack", RootTimed: true, PerTask: true, OrderChecked: true,
			Description: "8 consecutive broadcasts per step, unacknowledged"}}
		return in
	}(),
	{Name: "Selftest_Hang", Family: "selftest", Kernel: "selftest_hang", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 1,
		Description: "self-test: both ranks block forever in MPI_Recv (the watchdog must end it)"},
	{Name: "Selftest_Crash", Family: "selftest", Kernel: "selftest_crash", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 1,
		Description: "self-test: the initiator calls abort() inside the timed loop (on the deny-list)"},
	{Name: "Selftest_Segfault", Family: "selftest", Kernel: "selftest_segfault", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 1,
		Description: "self-test: the responder writes through a NULL pointer inside the timed loop, a SIGSEGV in C, while the initiator waits (on the deny-list)"},
	{Name: "Selftest_Corrupt", Family: "selftest", Kernel: "selftest_corrupt", Pattern: PatternPair, Reduce: ReduceFirst, RoundTrip: true, Directions: 2,
		Description: "self-test: a ping-pong whose responder flips the middle byte of its reply (check_data = true reports it)"},
	{Name: "Wtime", Family: "timer", Kernel: "wtime", Pattern: PatternPair, Reduce: ReduceFirst, Directions: 1, NoData: true,
		Description: "one read of the clock every timing reads (clock_gettime(CLOCK_MONOTONIC)) on the initiator: what a timer call costs (SKaMPI's MPI_Wtime measurement)"},
	{Name: "Selftest_Slow", Family: "selftest", Kernel: "selftest_slow", Pattern: PatternPair, Reduce: ReduceFirst, RoundTrip: true, Directions: 2,
		Description: "self-test: a ping-pong that sleeps 20 ms a step on both ranks: slow but moving, it must end by its time cap with its samples, never as a hang"},
	{Name: "Selftest_Transient", Family: "selftest", Kernel: "selftest_transient", Pattern: PatternPair, Reduce: ReduceFirst, RoundTrip: true, Directions: 2,
		Description: "self-test: a ping-pong whose first 7 steps sleep 2 ms on both ranks, as a job still starting: the point must end on the ping-pong's steady time, the slow repetitions dropped as a transient"},
}

func pp(name, desc string) Info {
	return Info{Name: name, Family: "pt2pt", Description: desc, Kernel: strings.ToLower(name), Pattern: PatternPair,
		Reduce: ReduceFirst, RoundTrip: true, Directions: 2}
}

// LatencyProbe is the operation pair = "max-latency" times from rank 0 to every other
// rank to choose the slowest to reach: SKaMPI's probe is a ping-pong.
const LatencyProbe = "Pingpong_Send_Recv"

var byName = func() map[string]Info {
	m := make(map[string]Info, len(catalog))
	for _, in := range catalog {
		m[in.Name] = in
	}
	return m
}()

// Lookup finds an operation by its exact name.
func Lookup(name string) (Info, bool) {
	in, ok := byName[name]
	return in, ok
}

// All returns every operation in catalogue order.
func All() []Info { return append([]Info(nil), catalog...) }

// Names returns the sorted operation names.
func Names() []string {
	names := make([]string, 0, len(catalog))
	for _, in := range catalog {
		names = append(names, in.Name)
	}
	sort.Strings(names)
	return names
}

// Role of a rank in an operation.
type Role int

const (
	Idle Role = iota - 1
	Initiator
	Responder
)

// Participants lists the ranks whose times count, initiator first. pair is the
// selected pair for two-rank operations.
func (in Info) Participants(nprocs int, pair [2]int) []int {
	if in.Pattern == PatternPairs || in.Pattern == PatternAll {
		n := nprocs
		if in.Pattern == PatternPairs {
			n = nprocs / 2 * 2
		}
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	return []int{pair[0], pair[1]}
}

// RoleOf says what rank does in the operation and who its partner is.
func (in Info) RoleOf(rank, nprocs int, pair [2]int) (Role, int) {
	if in.Pattern == PatternAll {
		return Initiator, -1 // every rank takes part; the root is a parameter
	}
	if in.Pattern == PatternPairs {
		half := nprocs / 2
		switch {
		case rank < half:
			return Initiator, rank + half
		case rank < 2*half:
			return Responder, rank - half
		}
		return Idle, -1
	}
	switch rank {
	case pair[0]:
		return Initiator, pair[1]
	case pair[1]:
		return Responder, pair[0]
	}
	return Idle, -1
}

// Pairs is the number of pairs taking part.
func (in Info) Pairs(nprocs int) int {
	if in.Pattern == PatternPairs {
		return nprocs / 2
	}
	return 1
}

// sendrecvShift: every rank sends to the next and receives from the previous with
// MPI_Sendrecv (2 ranks: an exchange), the MPI side of Shmem_Sendrecv_Shift.
var sendrecvShift = Info{Name: "Sendrecv_Shift", Family: "pt2pt", Kernel: "sendrecv_shift", Pattern: PatternAll,
	Reduce: ReduceMax, Directions: 2, Bandwidth: true,
	Description: "every rank MPI_Sendrecv's msg_bytes to the next and from the previous rank at once (beside Shmem_Sendrecv_Shift; IMB's Sendrecv): the slowest rank's time, MB/s as IMB's, 2 x msg_bytes / time"}
