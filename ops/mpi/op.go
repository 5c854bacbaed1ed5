//go:build mpi

package mpi

/*
#include <stdlib.h>
#include "skampi.h"
#include "runtime.h"
*/
import "C"

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"unsafe"

	"github.com/skampi/skampi/measure"
	"github.com/skampi/skampi/ops"
)

// Op is an operation prepared for one point on this rank. Run is one cgo crossing
// per repetition; Close releases what the preparation allocated.
type Op struct {
	ctx  *C.sk_ctx
	w    *World
	gen  int                // the generation of the world's buffers ctx points into
	call string             // names the kernel in errors
	pv   *C.struct_sk_pvars // the performance variables read around its runs (StartPVars)
	pvOf []string           // the names asked for
	why  failure            // a family kernel's failure in words (SK_ERR_FAILED)
}

// NewOp prepares an operation: it grows the world's message buffers if needed and
// prepares the kernel once (requests, counts, helper times such as an
// acknowledgement's one-way time). Every rank of the world calls it for every
// point, in the same order: kernels may communicate while preparing.
func (w *World) NewOp(s ops.Request) (*Op, error) {
	name := s.Info.Name
	if s.Bytes > ops.MaxBytes {
		return nil, fmt.Errorf("%s: %d bytes is more than an MPI count of bytes can hold (%w)", name, s.Bytes, ErrInvalid)
	}
	for _, r := range s.Pair {
		if s.Info.Pattern == ops.PatternPair && (r < 0 || r >= w.size) {
			return nil, fmt.Errorf("%s: pair rank %d does not exist (%d processes) (%w)", name, r, w.size, ErrInvalid)
		}
	}
	comm, nprocs, nodeOf, nnodes := w.comm, w.size, w.nodeOf, w.nnodes
	role, peer := s.Info.RoleOf(w.rank, w.size, s.Pair)
	ranks := s.Ranks
	kf, _ := flagsOf(s.Kernel)
	if kf.window && s.Info.Pattern == ops.PatternPair {
		// The engine's window is created collectively: over the pair alone, so the
		// others idle.
		ranks = s.Pair[:]
	}
	if ranks != nil {
		sc, err := w.sub(ranks)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		comm, nprocs, nodeOf, nnodes = sc.comm, len(ranks), sc.nodeOf, sc.nnodes
		if !sc.member {
			role = ops.Idle
		}
	}
	if s.Info.NodeAware && nodeOf == nil {
		return nil, fmt.Errorf("%s: the ranks' hosts are not known (World.SetHosts)", name)
	}
	slots := max(1, s.Slots)
	// A strided data layout's message spans stride times its payload (datatypes.c).
	span := s.Bytes
	if ops.Strided(s.DataLayout) {
		span *= int64(max(1, s.Stride))
		if span > ops.MaxBytes {
			return nil, fmt.Errorf("%s: %d bytes at stride %d span more than an MPI count of bytes can hold (%w)", name, s.Bytes, s.Stride, ErrInvalid)
		}
	}
	send, recv := max(1, s.Info.BufferBytes(span, 1, nprocs)), max(1, s.Info.BufferBytes(span, slots, nprocs))
	if s.Blocks > 0 { // the family's count of blocks (a neighbourhood collective's edges)
		if span > 0 && s.Blocks > ops.MaxBytes/span {
			return nil, fmt.Errorf("%s: %d blocks of %d bytes (%w)", name, s.Blocks, span, ErrInvalid)
		}
		send = max(1, span*s.Blocks)
		recv = send
	}
	// A family whose target is memory of its own (a window, the symmetric heap) asks
	// for none of this: moving skampi's buffers would not make it cold.
	area := ops.ColdArea(s.CacheSize)
	stride, regions := coldRegions(s.Cold, send, recv, area)
	if regions > 1 {
		// At least the whole area, whatever the stride: operations prepared together
		// (a subtraction's whole and part) then reserve alike, and preparing the second
		// never reallocates the buffers the first points into.
		send, recv = max(stride*regions, area), max(stride*regions, area)
	}
	if kf.window {
		recv += C.SK_RMA_SPARE // the window's flag, counter or marker past the data
	}
	if err := w.reserve(send, recv); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}

	// The names, resolved by sk_prepare in the C tables.
	names := []string{s.Kernel, s.Mode, s.Datatype, s.ReduceOp, s.RMAWindow, s.Phase.String(), s.DataLayout, s.Poll}
	cs := make([]*C.char, len(names))
	for i, n := range names {
		cs[i] = C.CString(n)
		defer C.free(unsafe.Pointer(cs[i]))
	}
	// By name from here on: an index into cs once passed the data layout as the poll call.
	layoutName, pollName := cs[6], cs[7]
	a := C.sk_args{
		kernel: cs[0], mode: cs[1], datatype: cs[2], reduce_op: cs[3], rma_window: cs[4], phase: cs[5],
		role: C.int(role), peer: C.int(peer), bytes: C.int(s.Bytes), timer: C.SK_TIMER_GLOBAL_LOOP,
		nprocs: C.int(nprocs), sbuf: w.sbuf, rbuf: w.rbuf, comm: comm, world: w.comm,
		root: C.int(s.Root), task: C.int(s.Task), barrier_above: C.longlong(s.BarrierAbove),
		data_layout: layoutName, stride: C.int(s.Stride),
	}
	if s.Info.Windowed {
		a.window = C.int(s.Window)
		if slots > 1 {
			a.slot_stride = C.longlong(span)
		}
	}
	if s.Aggregate { // calls per step (IMB-IO's aggregate mode); the buffer is one message
		a.window = C.int(max(1, s.Window))
	}
	if s.Iteration {
		a.timer = C.SK_TIMER_ITERATION
	}
	if s.TypeCommit == "every_call" {
		a.every_call = 1
	}
	if s.CheckData {
		a.check = 1
	}
	if regions > 1 {
		a.cold_stride, a.cold_regions = C.longlong(stride), C.int(regions)
	}
	if s.Info.NodeAware {
		a.node_of, a.nnodes = nodeOf, C.int(nnodes)
	}
	// The progress call's interval and the busy target's poll, for the kernels that
	// compute (non-blocking, a busy target): the others read neither.
	a.progress_every, a.poll = C.longlong(s.ProgressEvery), pollName
	if s.Info.Nonblocking {
		a.timer_overhead = C.double(s.TimerOverhead)
	}
	// A family's numbers, by name: sk_prepare resolves them (and refuses a name it
	// does not know).
	if n := len(s.Params); n > 0 {
		names := unsafe.Slice((**C.char)(C.malloc(C.size_t(n)*C.size_t(unsafe.Sizeof((*C.char)(nil))))), n)
		values := unsafe.Slice((*C.double)(C.malloc(C.size_t(n)*C.size_t(unsafe.Sizeof(C.double(0))))), n)
		defer C.free(unsafe.Pointer(&names[0]))
		defer C.free(unsafe.Pointer(&values[0]))
		for i, k := range slices.Sorted(maps.Keys(s.Params)) {
			names[i], values[i] = C.CString(k), C.double(s.Params[k])
			defer C.free(unsafe.Pointer(names[i]))
		}
		a.nparams, a.param_names, a.param_values = C.int(n), &names[0], &values[0]
	}
	if s.BarrierEach {
		a.barrier_each = 1
	}
	if n := len(s.Ints); n > 0 { // and its lists, the same way
		names := unsafe.Slice((**C.char)(C.malloc(C.size_t(n)*C.size_t(unsafe.Sizeof((*C.char)(nil))))), n)
		values := unsafe.Slice((**C.longlong)(C.malloc(C.size_t(n)*C.size_t(unsafe.Sizeof((*C.longlong)(nil))))), n)
		lens := unsafe.Slice((*C.int)(C.malloc(C.size_t(n)*C.size_t(unsafe.Sizeof(C.int(0))))), n)
		defer C.free(unsafe.Pointer(&names[0]))
		defer C.free(unsafe.Pointer(&values[0]))
		defer C.free(unsafe.Pointer(&lens[0]))
		for i, k := range slices.Sorted(maps.Keys(s.Ints)) {
			v := s.Ints[k]
			names[i], lens[i] = C.CString(k), C.int(len(v))
			values[i] = (*C.longlong)(C.malloc(C.size_t(len(v)+1) * C.size_t(unsafe.Sizeof(C.longlong(0)))))
			for j, x := range v {
				unsafe.Slice(values[i], len(v))[j] = C.longlong(x)
			}
			defer C.free(unsafe.Pointer(names[i]))
			defer C.free(unsafe.Pointer(values[i]))
		}
		a.narrays, a.array_names, a.array_values, a.array_lens = C.int(n), &names[0], &values[0], &lens[0]
	}
	if n := len(s.Strings); n > 0 { // and its words, the same way
		names := unsafe.Slice((**C.char)(C.malloc(C.size_t(n)*C.size_t(unsafe.Sizeof((*C.char)(nil))))), n)
		values := unsafe.Slice((**C.char)(C.malloc(C.size_t(n)*C.size_t(unsafe.Sizeof((*C.char)(nil))))), n)
		defer C.free(unsafe.Pointer(&names[0]))
		defer C.free(unsafe.Pointer(&values[0]))
		for i, k := range slices.Sorted(maps.Keys(s.Strings)) {
			names[i], values[i] = C.CString(k), C.CString(s.Strings[k])
			defer C.free(unsafe.Pointer(names[i]))
			defer C.free(unsafe.Pointer(values[i]))
		}
		a.nstrings, a.string_names, a.string_values = C.int(n), &names[0], &values[0]
	}
	call := "kernel " + s.Kernel
	var ctx *C.sk_ctx
	if rc := C.sk_prepare(&a, &ctx); rc != C.MPI_SUCCESS {
		if rc == C.SK_ERR_UNSUPPORTED {
			return nil, fmt.Errorf("%s: %s (%w)", name, UnsupportedReason(s.Kernel), ops.ErrUnsupported)
		}
		if rc == C.SK_ERR_FAILED {
			return nil, fmt.Errorf("%s: %w", name, failureOf(s).err())
		}
		if rc < 0 && rc != C.SK_ERR_NOMEM {
			return nil, fmt.Errorf("%s: %s (%w)", name, refusal(rc, s, nprocs), ErrInvalid)
		}
		return nil, fmt.Errorf("%s: %w", name, check(rc, call+", prepare"))
	}
	return &Op{ctx: ctx, w: w, gen: w.bufGen, call: call, why: failureOf(s)}, nil
}

// coldRegions divides the cold-cache area into regions of one step's buffers (send
// and receive, rounded up to a cache line); at least two, so consecutive steps never
// share one. Warm: no regions.
func coldRegions(cold bool, send, recv, area int64) (stride, regions int64) {
	if !cold {
		return 0, 0
	}
	stride = (max(send, recv) + 63) &^ 63
	return stride, max(2, area/stride)
}

// refusal says why sk_prepare refused a spec before any MPI call.
func refusal(rc C.int, s ops.Request, nprocs int) string {
	switch rc {
	case C.SK_ERR_KERNEL:
		return fmt.Sprintf("no kernel %q in this build", s.Kernel)
	case C.SK_ERR_DATATYPE:
		return fmt.Sprintf("kernel %s: no datatype %q", s.Kernel, s.Datatype)
	case C.SK_ERR_REDUCE_OP:
		return fmt.Sprintf("kernel %s: no reduction operator %q", s.Kernel, s.ReduceOp)
	case C.SK_ERR_MODE:
		return fmt.Sprintf("kernel %s: no synchronisation mode %q", s.Kernel, s.Mode)
	case C.SK_ERR_WINDOW:
		return fmt.Sprintf("kernel %s: no kind of window %q", s.Kernel, s.RMAWindow)
	case C.SK_ERR_LAYOUT:
		return fmt.Sprintf("kernel %s: no data layout %q, or one it does not take", s.Kernel, s.DataLayout)
	case C.SK_ERR_POLL:
		return fmt.Sprintf("kernel %s, mode %s: the busy target cannot poll with %q (MPI: iprobe or flush, and flush not under an exclusive lock; OpenSHMEM: quiet)", s.Kernel, s.Mode, s.Poll)
	case C.SK_ERR_BUSY:
		return fmt.Sprintf("kernel %s, mode %q: its target cannot be kept busy (target_busy: one-sided MPI operations under a passive mode, OpenSHMEM puts, gets and atomics)", s.Kernel, s.Mode)
	case C.SK_ERR_PHASE:
		return fmt.Sprintf("kernel %s: no non-blocking measurement %q", s.Kernel, s.Phase)
	case C.SK_ERR_NODES:
		return fmt.Sprintf("kernel %s needs the node of every rank", s.Kernel)
	case C.SK_ERR_MODEL:
		return fmt.Sprintf("kernel %s reads and writes its window's memory directly: it needs the unified memory model (MPI_WIN_UNIFIED), and this window is separate", s.Kernel)
	case C.SK_ERR_LOCK_SERVER:
		return fmt.Sprintf("kernel %s: its lock could not be placed on the PE chosen to serve it (OSHMEM's rule, (heap offset / 8) %% npes, did not hold: stderr says where it was served)", s.Kernel)
	case C.SK_ERR_PARAM:
		return fmt.Sprintf("kernel %s: a parameter it does not know, given twice, or out of its range (%v %v %v)", s.Kernel, s.Params, s.Strings, s.Ints)
	case C.SK_ERR_THREADS:
		return fmt.Sprintf("kernel %s: its threads (%v) could not start, or MPI was not initialised with MPI_THREAD_MULTIPLE", s.Kernel, s.Params)
	case C.SK_ERR_COMM:
		return fmt.Sprintf("kernel %s: the communicator does not have the %d processes asked for", s.Kernel, nprocs)
	}
	return fmt.Sprintf("kernel %s: %d bytes, window %d or root %d out of range for %d processes",
		s.Kernel, s.Bytes, s.Window, s.Root, nprocs)
}

// Run executes iters steps in C and returns this rank's time per operation (NaN on
// a rank that takes no part); in a slot, C waits for its start and reports NaN for a
// late start.
func (o *Op) Run(iters int, slot measure.Slot) (float64, error) {
	switch {
	case o.ctx == nil:
		return math.NaN(), fmt.Errorf("%s: run after Close", o.call)
	case o.gen != o.w.bufGen:
		return math.NaN(), fmt.Errorf("%s: a later NewOp reallocated the message buffers; prepare the operation again", o.call)
	case iters < 1:
		return math.NaN(), fmt.Errorf("%s: %d iterations (%w)", o.call, iters, ErrInvalid)
	}
	var t C.double
	barrier := C.int(0)
	if slot.Barrier {
		barrier = 1
	}
	rc := C.sk_run(o.ctx, C.longlong(iters), C.double(slot.Start), barrier, &t)
	if rc == C.SK_ERR_FAILED {
		return math.NaN(), fmt.Errorf("%s: %w", o.call, o.why.err())
	}
	if err := check(rc, o.call); err != nil {
		return math.NaN(), err
	}
	return float64(t), nil
}

// CalibrateSpin measures the busy computation of the non-blocking overlap
// measurements on this rank: nanoseconds per spin iteration, the median of seven runs
// of at least 200 µs.
func CalibrateSpin() float64 { return float64(C.sk_spin_calibrate()) }

// SpinFor is the spin count whose busy computation lasts target seconds on this rank,
// calls of that length timed (a short one costs more per iteration than nsPerIter,
// CalibrateSpin's rate from long runs, says).
func SpinFor(target, nsPerIter float64) int64 {
	return int64(C.sk_spin_for(C.double(target), C.double(nsPerIter)))
}

// TimerOverhead measures, on this rank, the seconds one timer interval adds to an
// operation timed per call: the clock read twice around a call that does nothing,
// through the same code as a timed post (the median of batches).
func TimerOverhead() float64 { return float64(C.sk_timer_overhead()) }

// Corruption is the first received byte that differed from what was sent, if the
// operation checks its data and found one on this rank.
// SetPhase switches a non-blocking operation to another of its measurements (full,
// post, ...) between runs: the subtraction method's whole and part then run on the
// same buffers (two preparations of an OpenSHMEM kernel get two symmetric buffers,
// whose alignments make a 4 KiB put run 80-130 ns here).
func (o *Op) SetPhase(p ops.Phase) error {
	if o.ctx == nil {
		return fmt.Errorf("%s: set phase after Close", o.call)
	}
	name := C.CString(p.String())
	defer C.free(unsafe.Pointer(name))
	if C.sk_set_phase(o.ctx, name) != C.MPI_SUCCESS {
		return fmt.Errorf("%s: no non-blocking measurement %q (%w)", o.call, p, ErrInvalid)
	}
	return nil
}

func (o *Op) Corruption() *ops.Corruption {
	if o.ctx == nil || o.ctx.bad == 0 {
		return nil
	}
	c := o.ctx
	return &ops.Corruption{From: int(c.bad_from), Slot: int(c.bad_slot), Offset: int64(c.bad_offset),
		Expected: byte(c.bad_expected), Actual: byte(c.bad_actual), Repetition: int(c.bad_rep)}
}

// Ctx is the operation's prepared C context (sk_ctx *; nil once released), for a
// family's own kernels package to read what its kernel keeps there (families/mt).
func (o *Op) Ctx() unsafe.Pointer { return unsafe.Pointer(o.ctx) }

// Close ends what the operation keeps open across runs (a one-sided window, freed
// collectively: every member closes it, in the same order) and releases it. After
// Finalize it makes no MPI call; closing twice is harmless.
func (o *Op) Close() error {
	if o == nil || o.ctx == nil {
		return nil
	}
	C.sk_pvars_free(o.pv) // before the communicator or window it is bound to goes
	o.pv = nil
	err := check(C.sk_close(o.ctx), o.call+", close")
	C.sk_release(o.ctx)
	o.ctx = nil
	return err
}
