//go:build mpi

// Package mpi implements the MPI operations and the communicator the engine uses.
// It is the only package that talks to MPI; timed loops are C functions called once
// per repetition. Build with -tags mpi; without it a stub reports that MPI is missing.
package mpi

/*
#cgo CFLAGS: -O2
#include <stdlib.h>
#include "skampi.h"
#include "runtime.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
	"unsafe"
)

// Available reports whether this build links MPI.
const Available = true

// World is MPI_COMM_WORLD as the engine sees it: a private duplicate for the
// measurements, and message buffers allocated with MPI_Alloc_mem.
type World struct {
	comm       C.MPI_Fint
	rank, size int
	gather     *C.double
	sbuf, rbuf *C.char // page-aligned views into sbase, rbase, which MPI_Alloc_mem returned
	sbase      *C.char
	rbase      *C.char
	sbufBytes  int64
	rbufBytes  int64
	bufGen     int    // counts releases of sbuf/rbuf: an Op prepared before one is stale
	nodeOf     *C.int // node index of every rank, for node-aware kernels
	nnodes     int
	subs       map[string]subComm // communicators of rank subsets, by ranks
	subOrder   []string           // their keys in order of creation, the same on every rank

	threadRequested, threadProvided string    // thread level asked of Init, and what MPI reports
	initStart, initEnd              time.Time // the wall clock around MPI_Init (skampi startup)

	finalizers []func() // what must end before MPI does (OpenSHMEM), newest first
}

// BeforeFinalize runs f in Finalize after skampi's communicators and buffers are freed
// and before MPI_Finalize (shmem_finalize, which may finalise MPI itself: Finalize then
// checks MPI_Finalized).
func (w *World) BeforeFinalize(f func()) { w.finalizers = append(w.finalizers, f) }

type subComm struct {
	comm   C.MPI_Fint
	member bool
	nodeOf *C.int // the node of each rank of the subset, numbered from 0
	nnodes int
}

// sub returns the communicator of the given world ranks (in that order), creating it
// collectively on first use: every rank must ask for the same subsets in the same order.
func (w *World) sub(ranks []int) (subComm, error) {
	key := fmt.Sprint(ranks)
	if c, ok := w.subs[key]; ok {
		return c, nil
	}
	pos := slices.Index(ranks, w.rank)
	var c subComm
	c.member = pos >= 0
	if err := check(C.sk_comm_split(w.comm, C.int(boolInt(c.member)), C.int(max(pos, 0)), &c.comm), "MPI_Comm_split"); err != nil {
		return c, err
	}
	if w.nodeOf != nil {
		all := unsafe.Slice((*int32)(unsafe.Pointer(w.nodeOf)), w.size)
		c.nodeOf = (*C.int)(C.malloc(C.size_t(4 * len(ranks))))
		out := unsafe.Slice((*int32)(unsafe.Pointer(c.nodeOf)), len(ranks))
		ids := map[int32]int32{}
		for i, r := range ranks {
			id, ok := ids[all[r]]
			if !ok {
				id = int32(len(ids))
				ids[all[r]] = id
			}
			out[i] = id
		}
		c.nnodes = len(ids)
	}
	if w.subs == nil {
		w.subs = map[string]subComm{}
	}
	w.subs[key] = c
	w.subOrder = append(w.subOrder, key)
	return c, nil
}

// freeComms frees the sub-communicators, newest first, and then the world's
// duplicate. Freeing is collective: every rank created them in the same order (sub)
// and frees them in the same order here.
func (w *World) freeComms() error {
	var errs []error
	for i := len(w.subOrder) - 1; i >= 0; i-- {
		c := w.subs[w.subOrder[i]]
		errs = append(errs, check(C.sk_comm_free(&c.comm), "MPI_Comm_free"))
		if c.nodeOf != nil {
			C.free(unsafe.Pointer(c.nodeOf))
		}
	}
	w.subs, w.subOrder = nil, nil
	errs = append(errs, check(C.sk_comm_free(&w.comm), "MPI_Comm_free"))
	return errors.Join(errs...)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// SetHosts numbers the hosts (processor names, indexed by rank) in order of their
// first rank, for the node-aware kernels.
func (w *World) SetHosts(hosts []string) {
	if w.nodeOf != nil {
		C.free(unsafe.Pointer(w.nodeOf))
	}
	w.nodeOf = (*C.int)(C.malloc(C.size_t(4 * len(hosts))))
	ids := map[string]int{}
	out := unsafe.Slice((*int32)(unsafe.Pointer(w.nodeOf)), len(hosts))
	for r, h := range hosts {
		id, ok := ids[h]
		if !ok {
			id = len(ids)
			ids[h] = id
		}
		out[r] = int32(id)
	}
	w.nnodes = len(ids)
}

// check turns the return code of one of our C functions into an error: nil for
// MPI_SUCCESS, an *Error carrying the library's class and message for an MPI error;
// our own negative codes: out of memory, or an error wrapping ErrInvalid.
func check(code C.int, call string) error {
	switch {
	case code == C.MPI_SUCCESS:
		return nil
	case code == C.SK_ERR_NOMEM:
		return fmt.Errorf("%s: out of memory", call)
	case code < 0:
		return fmt.Errorf("%s: arguments out of range (%w)", call, ErrInvalid)
	}
	var buf [C.MPI_MAX_ERROR_STRING + 1]C.char
	var class C.int
	C.sk_error_info(code, &class, &buf[0], C.int(len(buf)))
	return &Error{Call: call, Code: int(code), Class: int(class), Message: C.GoString(&buf[0])}
}

// ThreadLevels are the names Init accepts: "default" is MPI_Init, the others are
// MPI_Init_thread with MPI_THREAD_SINGLE, _FUNNELED, _SERIALIZED, _MULTIPLE.
var ThreadLevels = []string{"default", "single", "funneled", "serialized", "multiple"}

// threadLevelName names a level MPI_Query_thread reported.
func threadLevelName(l C.int) string {
	switch l {
	case C.MPI_THREAD_SINGLE:
		return "single"
	case C.MPI_THREAD_FUNNELED:
		return "funneled"
	case C.MPI_THREAD_SERIALIZED:
		return "serialized"
	case C.MPI_THREAD_MULTIPLE:
		return "multiple"
	}
	return fmt.Sprintf("unknown (%d)", int(l))
}

// Init initialises MPI at the thread level named (one of ThreadLevels; "" is
// "default"). Every MPI call stays on one locked OS thread (cmd/skampi locks it), so
// plain MPI_Init, like the C benchmarks, is the default: in Open MPI 4.1 requesting
// FUNNELED alone makes a 1-byte shared-memory round trip 15-60 % slower.
func Init(threadLevel string) (*World, error) {
	if threadLevel == "" {
		threadLevel = "default"
	}
	required, call := C.int(-1), "MPI_Init"
	switch threadLevel {
	case "default":
	case "single":
		required, call = C.MPI_THREAD_SINGLE, "MPI_Init_thread"
	case "funneled":
		required, call = C.MPI_THREAD_FUNNELED, "MPI_Init_thread"
	case "serialized":
		required, call = C.MPI_THREAD_SERIALIZED, "MPI_Init_thread"
	case "multiple":
		required, call = C.MPI_THREAD_MULTIPLE, "MPI_Init_thread"
	default:
		return nil, fmt.Errorf("unknown thread level %q (want one of %s)", threadLevel, strings.Join(ThreadLevels, ", "))
	}
	var provided C.int
	start := time.Now()
	if err := check(C.sk_init(required, &provided), call); err != nil {
		return nil, err
	}
	w := &World{threadRequested: threadLevel, threadProvided: threadLevelName(provided), initStart: start, initEnd: time.Now()}
	if err := check(C.sk_comm_dup_world(&w.comm), "MPI_Comm_dup"); err != nil {
		return nil, err
	}
	var r, s C.int
	if err := check(C.sk_rank(w.comm, &r), "MPI_Comm_rank"); err != nil {
		return nil, err
	}
	if err := check(C.sk_size(w.comm, &s), "MPI_Comm_size"); err != nil {
		return nil, err
	}
	w.rank, w.size = int(r), int(s)
	// After MPI_Init, which may install handlers of its own that ours then chain to.
	if crashArmed {
		RearmCrashReport()
	} else if err := ArmCrashReport(CrashReport{Rank: w.rank}); err != nil {
		return nil, err
	}
	w.gather = (*C.double)(C.malloc(C.size_t(8 * w.size)))
	return w, nil
}

// Finalize frees the communicators and buffers and finalizes MPI (unless already
// finalized). Operations not yet closed may still be closed afterwards.
func (w *World) Finalize() error {
	err := w.freeComms()
	w.release()
	if w.nodeOf != nil {
		C.free(unsafe.Pointer(w.nodeOf))
		w.nodeOf, w.nnodes = nil, 0
	}
	if w.gather != nil {
		C.free(unsafe.Pointer(w.gather))
		w.gather = nil
	}
	for i := len(w.finalizers) - 1; i >= 0; i-- {
		w.finalizers[i]()
	}
	w.finalizers = nil
	return errors.Join(err, check(C.sk_finalize(), "MPI_Finalize"))
}

// Abort ends every rank of the job.
func Abort(code int) { C.sk_abort(C.int(code)) }

// Exit ends the process with status code. Once MPI is finalized it leaves through the
// C library's exit(3), as a C program's return from main does, not through os.Exit
// (exit_group, which skips what the libraries registered with atexit): MPICH 4.1 and
// later (Debian 13's 4.2.1) end their connection to the process manager (PMI_Finalize,
// "cmd=finalize") in an atexit handler, no longer in MPI_Finalize, and Hydra's proxy
// takes a rank whose connection closes unannounced for one that died and kills every
// rank still running with SIGKILL ("BAD TERMINATION ... EXIT CODE: 9" after the last
// point; scripts/repro/mpich_exit_without_atexit.c). Before MPI_Finalize (a rank that
// failed) the handlers are not run: the job must still see a rank that ended badly.
func Exit(code int) {
	if C.sk_finalized() != 0 {
		C.exit(C.int(code))
	}
	os.Exit(code)
}

// Progress counts the steps this rank has finished (and every repetition's start and
// end): the watchdog reads it from its own goroutine to tell a slow point from a
// blocked one. It only reads a counter, so it is safe on any thread at any time.
func Progress() uint64 { return uint64(C.sk_progress()) }

// ThreadLevel returns the thread level requested of Init ("default": MPI_Init) and the
// one MPI_Query_thread reports.
func (w *World) ThreadLevel() (requested, provided string) {
	return w.threadRequested, w.threadProvided
}

// InitTime is the wall clock just before and just after MPI_Init (or _thread) on this
// rank: what start-up costs inside the library (skampi startup, osu_init's time).
func (w *World) InitTime() (start, end time.Time) { return w.initStart, w.initEnd }

func (w *World) Rank() int { return w.rank }
func (w *World) Size() int { return w.size }

func (w *World) Gather(v float64) ([]float64, error) {
	if err := check(C.sk_gather_double(w.comm, C.double(v), w.gather), "MPI_Gather"); err != nil {
		return nil, err
	}
	if w.rank != 0 {
		return nil, nil
	}
	out := make([]float64, w.size)
	copy(out, unsafe.Slice((*float64)(unsafe.Pointer(w.gather)), w.size))
	return out, nil
}

func (w *World) Bcast(v int64) (int64, error) {
	x := C.longlong(v)
	err := check(C.sk_bcast_ll(w.comm, &x), "MPI_Bcast")
	return int64(x), err
}

// Settle runs rounds of barriers until they take as long as the round before (the job's
// start is over: every rank out of MPI_Init, buffers faulted in) or max has passed,
// every rank alike: the rounds run and the last round's median barrier (the slowest
// rank's, seconds). Collective.
func (w *World) Settle(max time.Duration) (int, float64, error) {
	var rounds C.int
	var median C.double
	err := check(C.sk_settle(w.comm, C.double(max.Seconds()), &rounds, &median), "MPI_Barrier")
	return int(rounds), float64(median), err
}

// Hosts returns every rank's processor name, indexed by rank.
func (w *World) Hosts() ([]string, error) {
	const stride = 256
	buf := (*C.char)(C.malloc(C.size_t(stride * w.size)))
	defer C.free(unsafe.Pointer(buf))
	if err := check(C.sk_allgather_names(w.comm, buf, stride), "MPI_Allgather"); err != nil {
		return nil, err
	}
	raw := unsafe.Slice((*byte)(unsafe.Pointer(buf)), stride*w.size)
	out := make([]string, w.size)
	for i := range out {
		name := raw[i*stride : (i+1)*stride]
		if j := strings.IndexByte(string(name), 0); j >= 0 {
			name = name[:j]
		}
		out[i] = string(name)
	}
	return out, nil
}

// Library returns the library's version text, cleaned (CleanLibrary), and the MPI
// standard version "MAJOR.MINOR". Valid before MPI_Init too (MPI 3.1): what the binary
// is linked against.
func Library() (string, string) {
	var buf [8192]C.char
	var v, sv C.int
	C.sk_library_version(&buf[0], C.int(len(buf)), &v, &sv)
	return CleanLibrary(C.GoString(&buf[0])), fmt.Sprintf("%d.%d", v, sv)
}

// Now reads the clock the timed loops use, in seconds.
func Now() float64 { return float64(C.sk_now()) }

// Timer names the clock the timed loops read, and its resolution in seconds.
func Timer() (string, float64) { return "clock_gettime(CLOCK_MONOTONIC)", float64(C.sk_tick()) }

// bufAlign aligns both message buffers to a page, as OSU's buffers are: large blocks
// come 16 bytes past a page boundary (glibc's mmap chunk header), which made 4-64 KiB
// shared-memory round trips 7-12 % slower.
const bufAlign = 4096

// aligned is the first page boundary in p's block.
func aligned(p *C.char) *C.char {
	off := uintptr(unsafe.Pointer(p)) % bufAlign
	if off == 0 {
		return p
	}
	return (*C.char)(unsafe.Add(unsafe.Pointer(p), bufAlign-off))
}

// reserve makes the send buffer at least send bytes and the receive buffer at least
// recv bytes (per-message receive slots make it larger).
func (w *World) reserve(send, recv int64) error {
	if send <= w.sbufBytes && recv <= w.rbufBytes {
		return nil
	}
	send, recv = max(send, w.sbufBytes), max(recv, w.rbufBytes)
	w.release()
	if err := check(C.sk_alloc(C.longlong(send+bufAlign), &w.sbase), "MPI_Alloc_mem"); err != nil {
		return err
	}
	if err := check(C.sk_alloc(C.longlong(recv+bufAlign), &w.rbase), "MPI_Alloc_mem"); err != nil {
		C.sk_free(w.sbase)
		w.sbase = nil
		return err
	}
	w.sbuf, w.rbuf = aligned(w.sbase), aligned(w.rbase)
	w.sbufBytes, w.rbufBytes = send, recv
	// Every page touched now, once: a cold cache's area is first reached inside timed
	// loops, where each new page's fault would be measured (16 faults a 64 KiB step).
	C.sk_touch(w.sbase, C.longlong(send+bufAlign))
	C.sk_touch(w.rbase, C.longlong(recv+bufAlign))
	return nil
}

func (w *World) release() {
	if w.sbase != nil {
		C.sk_free(w.sbase)
	}
	if w.rbase != nil {
		C.sk_free(w.rbase)
	}
	w.sbase, w.rbase, w.sbuf, w.rbuf, w.sbufBytes, w.rbufBytes = nil, nil, nil, nil, 0, 0
	w.bufGen++ // operations prepared on the old buffers must not run
}
