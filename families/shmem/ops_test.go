package shmem

import (
	"testing"

	"github.com/skampi/skampi/ops"
)

// OpenSHMEM's operations: puts and gets break down like non-blocking operations, the
// atomics every PE but the first hits at once (the deny-list's names: TestDenyList).
func TestSHMEMOps(t *testing.T) {
	put, _ := ops.Lookup("Shmem_Put")
	if !put.SHMEM || !put.Nonblocking || !put.Windowed || put.Pattern != ops.PatternPair {
		t.Errorf("Shmem_Put: %+v", put)
	}
	n := 0
	kindType := map[[2]string]string{}
	for _, in := range ops.All() {
		if in.AtomicKind != "" || in.AtomicType != "" {
			// What an atomic is, is in its fields: the figures never parse its name.
			k := [2]string{in.AtomicKind, in.AtomicType}
			if !in.AtomicRate || in.AtomicKind == "" || in.AtomicType == "" || kindType[k] != "" {
				t.Errorf("%s: kind %q type %q (also %s)", in.Name, in.AtomicKind, in.AtomicType, kindType[k])
			}
			kindType[k] = in.Name
		}
		if in.Family != "shmem-atomics" {
			continue
		}
		n++
		if !in.AtomicRate || !in.SingleElement || in.Pattern != ops.PatternAll || (in.ElementBytes != 4 && in.ElementBytes != 8) ||
			in.AtomicKind == "" || in.AtomicType == "" {
			t.Errorf("%s: %+v", in.Name, in)
		}
	}
	fa, _ := ops.Lookup("Shmem_Atomic_Fetch_Add_Long")
	if fa.AtomicKind != "Fetch_Add" || fa.AtomicType != "Long" || fa.ElementBytes != 8 {
		t.Errorf("Shmem_Atomic_Fetch_Add_Long: kind %q type %q, %d bytes", fa.AtomicKind, fa.AtomicType, fa.ElementBytes)
	}
	if n == 0 {
		t.Error("no operation in the family shmem-atomics")
	}
}

// What the checks before a run read of the family's operations: the symmetric memory a
// point allocates (the prepare functions of kernels/), who a lock needs, and the
// throughput of OpenSHMEM's all-to-all, where the figures read it as MPI's.
func TestSHMEMOperationNeeds(t *testing.T) {
	for _, c := range []struct {
		op            string
		size          int64
		window, procs int
		want          int64
	}{
		{"Shmem_Put", 4 << 20, 64, 2, 512<<20 + 64},
		{"Shmem_Put", 1 << 20, 1, 8, 2<<20 + 64},
		{"Shmem_P", 8, 64, 2, 128}, // not windowed: one slot, at least 128 bytes
		{"Shmem_Realloc", 1 << 20, 64, 2, 2<<20 + 64 + 3<<20},
		{"Shmem_Align_Free", 1 << 20, 1, 2, 2<<20 + 64 + 1<<20 + 4096},
		{"Shmem_Barrier", 0, 1, 4, (8+1)*64*8 + 8*64 + 128},
		{"Shmem_Alltoall", 1 << 20, 1, 16, 2*16<<20 + 17*64*8 + 8*524352 + 128}, // pWrk: 65537 longs, 64-byte aligned
		{"Shmem_Sendrecv_Shift", 100, 1, 4, 128 + 128 + 4*64},
		{"Shmem_Sendrecv_Shift_Offset", 100, 1, 4, 2*128 + 128},
		{"Shmem_Sendrecv_Shift_Seed", 100, 1, 4, 2*128 + 256},
		{"Shmem_Lock_Contention", 0, 1, 1, 128 + 8*8192},
		{"Shmem_Malloc", 1 << 20, 1, 2, 2<<20 + 64 + 1<<20},
	} {
		in, ok := ops.Lookup(c.op)
		if !ok {
			t.Fatalf("%s: not in the catalogue", c.op)
		}
		if got := in.SymmetricBytes(c.size, c.window, c.procs); got != c.want {
			t.Errorf("%s(%d, window %d, %d PEs) = %d, want %d", c.op, c.size, c.window, c.procs, got, c.want)
		}
	}
	put, _ := ops.Lookup("Shmem_Put")
	if put.SymmetricBytes(1<<50, 1<<16, 2) <= 0 {
		t.Error("overflow")
	}
	if in, _ := ops.Lookup("Shmem_Lock_Contention"); in.MinProcs == 2 { // procs = 1 is uncontended
		t.Errorf("Shmem_Lock_Contention: MinProcs %d", in.MinProcs)
	}
	if in, ok := ops.Lookup("Shmem_Alltoall"); !ok || !in.Throughput {
		t.Errorf("Shmem_Alltoall: throughput %v, want true", in.Throughput)
	}
}

// OpenSHMEM's self-test keeps its place in skampi list: first of the self-tests.
func TestSelftestFirstOfTheSelftests(t *testing.T) {
	all := ops.All()
	for i, in := range all {
		if in.Name == "Selftest_Broadcast_Noack" {
			if i+1 == len(all) || all[i+1].Name != "Selftest_Hang" || all[i-1].Family == "selftest" {
				t.Errorf("Selftest_Broadcast_Noack is not first of the self-tests")
			}
			return
		}
	}
	t.Error("Selftest_Broadcast_Noack: not in the catalogue")
}
