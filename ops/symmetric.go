package ops

// OpenSHMEM's symmetric memory, as the checks before a run count it (inputs: the heap
// a point needs, the processes a host holds): vocabulary of the catalogue, which
// families/shmem's operations name in Info.Heap.

// Heap names how a point of an OpenSHMEM operation allocates symmetric memory: the
// prepare functions of families/shmem/kernels, and what the step allocates on top.
type Heap int

const (
	HeapNone        Heap = iota // not OpenSHMEM
	HeapSlots                   // sk_shmem_prepare: 2 x size x window, 64-byte aligned, + 64 (at least 128)
	HeapMalloc                  // HeapSlots, and the step's shmem_malloc of size
	HeapRealloc                 // HeapSlots, and size reallocated to twice it (both live at once at worst)
	HeapAlign                   // HeapSlots, and size aligned to 4 KiB
	HeapColl                    // sk_shmem_prepare_coll: two areas of nprocs blocks, pSync and pWrk arrays
	HeapShift                   // sk_shmem_prepare_sendrecv: the data, two flags, a lock per PE
	HeapShiftOffset             // sk_shmem_prepare_sendrecv_offset: twice the data, two flags
	HeapLock                    // sk_shmem_prepare_lock: a marker, a line of its own, shmemLockSlots longs
	HeapShiftSeed               // sk_shmem_prepare_sendrecv_seed: twice the data, four flags
)

// Layout constants of families/shmem/kernels/coll.c: longs per pSync array,
// consecutive calls, and Open MPI's SHMEM_REDUCE_MIN_WRKDATA_SIZE.
const (
	shmemSyncLongs   = 64
	shmemConsecutive = 8
	shmemMinWrk      = 1
)

// shmemLockSlots: the longs a lock point's buffer holds to place its lock among
// (families/shmem/kernels: SK_SHMEM_LOCK_SLOTS).
const shmemLockSlots = 8192

func up64(n int64) int64 { return (n + 63) &^ 63 }

// SymmetricBytes is the symmetric memory one PE allocates for a point: a message of
// size bytes, window messages in flight (windowed operations only) and a communicator
// of nprocs PEs. It follows the prepare functions of families/shmem/kernels; 0 for
// MPI operations.
func (in Info) SymmetricBytes(size int64, window, nprocs int) int64 {
	w := int64(1)
	if in.Windowed && window > 1 {
		w = int64(window)
	}
	slots := max(128, up64(MulSat(2*size, w))+64)
	switch in.Heap {
	case HeapSlots:
		return slots
	case HeapMalloc:
		return slots + size
	case HeapRealloc:
		return slots + 3*size
	case HeapAlign:
		return slots + size + 4096
	case HeapColl:
		n := int64(nprocs)
		wrk := up64(max(size/8/2+1, shmemMinWrk) * 8)
		return 2*up64(MulSat(size, n)) + (max(n, shmemConsecutive)+1)*shmemSyncLongs*8 + shmemConsecutive*wrk + 128
	case HeapShift:
		return up64(size) + 128 + 64*int64(nprocs)
	case HeapShiftOffset:
		return 2*up64(size) + 128
	case HeapLock:
		return 128 + 8*shmemLockSlots
	case HeapShiftSeed:
		return 2*up64(size) + 256
	}
	return 0
}
