package inputs

import (
	"fmt"
	"strings"

	"github.com/skampi/skampi/ops"
)

// A suite that sets no buffer (every built-in suite) has skampi size the buffers for the
// job: a per-process operation's buffers hold a block for every process, so they grow
// with the process count, and a point is measured when what one rank holds for it fits
// RankMemoryCap; a point that needs more is left out with a note, never refused. The cap
// depends on the process count alone, so the launcher, every rank, resume, crash blame
// and `skampi check` expand the same points for the same job.

// rankCapMax is the most a rank holds for one point at any process count, a bound on the
// message buffers per process as IMB's -mem is.
const rankCapMax = 1 << 30

// jobCap bounds what all ranks of a job hold together for one point: so a built-in
// suite at any process count fits a job skampi starts on one machine of this much
// memory, and a laptop's `skampi check --np 64` agrees with what the cluster runs.
const jobCap = 16 << 30

// rankCapMin is the least the cap becomes, however many processes.
const rankCapMin = 4 << 20

// RankMemoryCap is the most one rank may hold for a point (message buffers, receive
// slots, windows, a cold cache's area) when the suite leaves the buffer to skampi, on a
// job of nprocs processes: 1 GiB up to 16 processes, then 16 GiB shared by all ranks,
// and never below 4 MiB.
func RankMemoryCap(nprocs int) int64 {
	c := int64(rankCapMax)
	if nprocs > 0 {
		c = min(c, jobCap/int64(nprocs))
	}
	return max(c, rankCapMin)
}

// pointMemory is what one rank holds for the point alone, as checkJob counts it; a
// cold cache sized "auto" (this machine's last-level cache) counts at the most that can
// be, so that every machine leaves out the same points.
func pointMemory(pt *Point) int64 {
	var r rankMemory
	if s := pt.Settings(); s.Cache == CacheCold && s.CacheSize <= 0 {
		m := *pt.Measurement
		m.Settings.CacheSize = ops.ColdCacheCap
		p := *pt
		p.Measurement = &m
		return r.add(&p)
	}
	return r.add(pt)
}

// droppedSizes are the sizes of one measurement and communicator size left out for the
// cap, with the most any of them needs.
type droppedSizes struct {
	sizes    []int64
	smallest int64 // the need of the first size left out
	most     int64
	limit    int64 // the cap or the heap they exceed
}

func (d *droppedSizes) add(size, need, limit int64) {
	d.limit = limit
	if n := len(d.sizes); n > 0 && d.sizes[n-1] == size { // another timing method
		d.most = max(d.most, need)
		return
	}
	if len(d.sizes) == 0 {
		d.smallest = need
	}
	d.sizes = append(d.sizes, size)
	d.most = max(d.most, need)
}

// note: "1MiB dropped at 64 processes: needs 512.0MiB per rank, cap 256MiB (...)"; limit
// is what follows the need.
func (d *droppedSizes) note(comm, nprocs, listed int, limit string) string {
	what := make([]string, len(d.sizes))
	for i, s := range d.sizes {
		what[i] = FormatSize(s)
	}
	sizes := strings.Join(what, ", ")
	if len(what) > 4 {
		sizes = what[0] + " to " + what[len(what)-1] + fmt.Sprintf(" (%d sizes)", len(what))
	}
	if len(d.sizes) == listed {
		sizes = "every size (" + sizes + ")"
	}
	at := fmt.Sprintf("%d processes", nprocs)
	if comm != nprocs {
		at = fmt.Sprintf("%d of %d processes", comm, nprocs)
	}
	need := "needs " + d.needText(d.most)
	if len(d.sizes) > 1 && d.smallest != d.most {
		need = "need " + d.needText(d.smallest) + " to " + d.needText(d.most)
	}
	return fmt.Sprintf("%s dropped at %s: %s %s", sizes, at, need, limit)
}

// needText is a need as approxSize writes it, or as the limit and the bytes past it
// when rounding would make it read as the limit ("256MiB + 128B", not "256.0MiB").
func (d *droppedSizes) needText(need int64) string {
	if d.limit > 0 && need > d.limit && need-d.limit < d.limit/100 {
		return FormatSize(d.limit) + " + " + FormatSize(need-d.limit)
	}
	return approxSize(need)
}

// capNote is the limit of a note on sizes left out at the cap.
func capNote(nprocs int) string {
	return fmt.Sprintf("per rank, cap %s (a suite that sets buffer measures them)", approxSize(RankMemoryCap(nprocs)))
}

// heapGrown is the symmetric memory an OpenSHMEM point needs when that is more than the
// heap in effect only because of its process count (it would fit on 2 PEs): such a
// point is left out like one above the cap; 0 when it fits, or when 2 PEs would not fit
// either (then the heap is the suite's mistake, refused by checkJob).
func heapGrown(pt *Point) (need int64, heap Heap) {
	m := pt.Measurement
	heap, err := symmetricHeap()
	if err != nil {
		return 0, heap
	}
	need = m.Op.SymmetricBytes(pt.Size, m.Settings.Window, pt.NProcs)
	if need <= heap.Bytes || m.Op.SymmetricBytes(pt.Size, m.Settings.Window, 2) > heap.Bytes {
		return 0, heap
	}
	return need, heap
}

// heapNote is the limit of a note on sizes left out for the symmetric heap.
func heapNote(heap Heap, most int64) string {
	return fmt.Sprintf("of symmetric memory per PE, more than %s: %s measures them", heap, heap.raise(most))
}
