package ops

import "github.com/skampi/skampi/measure"

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
	// SHMEM operations are OpenSHMEM's (families/shmem/kernels): a run that has one
	// starts OpenSHMEM, and their target is a PE.
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
	// setting io_dir), created before the point and deleted after it (families/mpiio);
	// PrivateFile ones, each process on a file of its own (IMB-IO's P_*_priv), whose
	// name families/mpiio gives (the point's file with ".rankN" after it).
	IO          bool
	PrivateFile bool
	// Displacements: the kernel places every process's block at a C int displacement
	// (MPI's v-forms count them in elements, DisplElements; the w-forms in bytes,
	// DisplBytes), up to nprocs blocks in: a block times the processes must fit an int.
	Displacements string
	// Threaded: each rank of the pair runs the kernel in `threads` threads of its own
	// at once (families/mt/kernels/mt.c), each on its own communicator or tag: a run that has one
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

// BreaksDown says whether a point of the operation under method is measured as a
// non-blocking breakdown (full, post, wait, overlap; runner.nonblocking): a
// non-blocking operation, not under a subtraction method, whose step is not timed
// whole (whole: a family times it whole, such as a busy target's). Its record then
// holds the breakdown or the flag that says why not.
func (in Info) BreaksDown(method string, whole bool) bool {
	m, _ := in.Method(method)
	return in.Nonblocking && m.Subtract == "" && !whole
}

// Method finds one of the operation's timing methods by name.
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

// Units of Info.Displacements.
const (
	DisplElements = "elements"
	DisplBytes    = "bytes"
)
