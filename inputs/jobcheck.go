package inputs

import (
	"fmt"
	"math"

	"github.com/skampi/skampi/ops"
)

// What a job needs of the machines it runs on, checked on its points before anything
// starts: the memory of every rank on one host together, and OpenSHMEM's symmetric
// heap per PE.

// rankMemory is what one rank holds for the points so far: its message buffers only
// grow (ops/mpi: World.reserve, on every rank, idle or not), a point's window and
// result buffer (and a multi-threaded point's buffers per thread) last as long as the point.
type rankMemory struct {
	send, recv, transient int64
}

// add takes a point into account; it returns the rank's peak so far.
func (r *rankMemory) add(pt *Point) int64 {
	op, s, n := pt.Op(), pt.Settings(), pt.NProcs
	if op.OneSided && op.Pattern == ops.PatternPair {
		n = 2 // a window over the pair alone
	}
	slots := s.Slots(op)
	size := pt.Size // the memory one message spans (a strided layout's: FamilySetting.Span)
	for _, f := range spans {
		size = f(s, op, size)
	}
	send, recv := max(1, op.BufferBytes(size, 1, n)), max(1, op.BufferBytes(size, slots, n))
	if op.OneSided {
		recv += RMASpare
	}
	if s.Cache == CacheCold && !op.OneSided && !op.SHMEM {
		// Every step on another region of an area twice the last-level cache.
		area := ops.ColdArea(s.CacheSize)
		stride := (max(send, recv) + 63) &^ 63
		area = max(ops.MulSat(stride, max(2, area/stride)), area)
		send, recv = area, area
	}
	transient := int64(0)
	for _, f := range familyMemory {
		if v := f(pt, size); v > math.MaxInt64-transient {
			transient = math.MaxInt64 // saturated, as MulSat
		} else {
			transient += v
		}
	}
	if op.OneSided {
		// The gets' results. The window itself is recv, or the library's memory when
		// the library allocates it (families/onesided's rma_window, through
		// RegisterMemory).
		transient += ops.MulSat(size, int64(max(1, s.Window))) + RMASpare
	}
	r.send, r.recv, r.transient = max(r.send, send), max(r.recv, recv), max(r.transient, transient)
	return r.send + r.recv + r.transient
}

// familyMemory: what families add to a point's memory (RegisterMemory).
var familyMemory []func(pt *Point, size int64) int64

// RegisterMemory adds what a family's points hold on a rank beyond skampi's message
// buffers, while the point runs (a thread's own buffers, a window the library
// allocates): f gives the bytes for pt, whose messages span size bytes each, 0 for
// other points. The job's memory check before any process starts counts it; its
// package's init calls it.
func RegisterMemory(f func(pt *Point, size int64) int64) {
	familyMemory = append(familyMemory, f)
}

// RMASpare: a window's flag, counter or marker past the data (ops/mpi: SK_RMA_SPARE).
const RMASpare = 64

// ranksPerHost is the most ranks any host of the job runs; all of them when the hosts
// are not known (a job skampi starts on this machine).
func ranksPerHost(job Job) int {
	if len(job.Hosts) != job.NProcs || job.NProcs == 0 {
		return job.NProcs
	}
	count, most := map[string]int{}, 0
	for _, h := range job.Hosts {
		count[h]++
		most = max(most, count[h])
	}
	return most
}

// checkJob reports the first point whose ranks on one host together need more memory
// than this machine has, every measurement whose points need more symmetric heap
// than the heap in effect, and every one a family's check of its points refuses
// (RegisterPointCheck).
func checkJob(el *ErrorList, points []Point, job Job) {
	mem, memKnown := memTotal()
	per := ranksPerHost(job)
	var r rankMemory
	memTold, heapTold := false, map[*Measurement]bool{}
	type told struct {
		check int
		m     *Measurement
	}
	familyTold := map[told]bool{}
	for i := range points {
		pt := &points[i]
		m := pt.Measurement
		if peak := r.add(pt); memKnown && !memTold && peak > mem/int64(per) {
			memTold = true
			el.add(m.Pos, "measurement %q: %s at %s needs %s per rank (message buffers, and windows for one-sided operations), %s for the %d ranks on one host: more than this machine's memory; lower the sizes or buffer, or put fewer ranks on a host",
				m.Name, m.Op.Name, FormatSize(pt.Size), approxSize(peak), approxSize(ops.MulSat(peak, int64(per))), per)
		}
		for i, f := range pointChecks {
			if msg := f(pt); msg != "" && !familyTold[told{i, m}] {
				familyTold[told{i, m}] = true
				el.add(m.Pos, "measurement %q: %s", m.Name, msg)
			}
		}
		if m.Op.Heap != ops.HeapNone && !heapTold[m] {
			if msg := heapShort(pt); msg != "" {
				heapTold[m] = true
				el.add(m.Pos, "measurement %q: %s", m.Name, msg)
			}
		}
	}
}

// heapShort says why an OpenSHMEM point does not fit the symmetric heap; "" when it does.
func heapShort(pt *Point) string {
	m := pt.Measurement
	heap, err := symmetricHeap()
	if err != nil {
		return fmt.Sprintf("%s needs OpenSHMEM's symmetric heap: %v", m.Op.Name, err)
	}
	need := m.Op.SymmetricBytes(pt.Size, m.Settings.Window, pt.NProcs)
	if need <= heap.Bytes {
		return ""
	}
	what, or := FormatSize(pt.Size), ""
	if m.Op.Windowed {
		what += fmt.Sprintf(" with window %d", m.Settings.Window)
		or = " or window"
	}
	if m.Op.Pattern == ops.PatternAll {
		what += fmt.Sprintf(" on %d PEs", pt.NProcs)
	}
	return fmt.Sprintf("%s at %s needs %s of symmetric memory per PE, more than %s: set %s (or lower the sizes%s)",
		m.Op.Name, what, approxSize(need), heap, heap.raise(need), or)
}

// approxSize is a size as FormatSize writes it when that is short, else to a tenth of
// its unit ("512.0MiB"): a need of 536870976 bytes reads better so.
func approxSize(n int64) string {
	if s := FormatSize(n); len(s) <= 8 {
		return s
	}
	for _, u := range sizeUnits {
		if n >= u.mult && u.mult > 1 {
			return fmt.Sprintf("%.1f%s", float64(n)/float64(u.mult), u.suffix)
		}
	}
	return FormatSize(n)
}
