package inputs

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// OpenSHMEM's symmetric heap. Open MPI 4.1 sizes it once, at shmem_init, from
// SMA_SYMMETRIC_SIZE or SHMEM_SYMMETRIC_HEAP_SIZE (both set: they must agree), 256 MiB
// by default; an allocation beyond it prints the library's message and the PEs that
// got theirs wait for ever in the next collective. So a point that needs more is
// refused before anything runs, saying how to raise it.

// Heap variables, in the order Open MPI reads them.
const (
	HeapVar      = "SMA_SYMMETRIC_SIZE"
	HeapVarMLNX  = "SHMEM_SYMMETRIC_HEAP_SIZE"
	DefaultHeap  = 256 << 20
	maxHeapChars = 16 // Open MPI refuses longer values
)

// Heap is the symmetric heap a run would get: its size, and where that comes from.
type Heap struct {
	Bytes int64
	Var   string // the variable that set it; "" for the default
	Value string
}

// symmetricHeap reads the heap from the environment of the process expanding the
// plan: the launcher's, which the ranks it starts on this host inherit. Tests replace it.
var symmetricHeap = func() (Heap, error) { return heapFrom(os.LookupEnv) }

func heapFrom(lookup func(string) (string, bool)) (Heap, error) {
	v, ok := lookup(HeapVar)
	w, okW := lookup(HeapVarMLNX)
	switch {
	case ok && okW && v != w:
		return Heap{}, fmt.Errorf("%s=%q and %s=%q disagree, and Open MPI then refuses to start OpenSHMEM: set one of them", HeapVar, v, HeapVarMLNX, w)
	case ok:
		return parseHeap(HeapVar, v)
	case okW:
		return parseHeap(HeapVarMLNX, w)
	}
	return Heap{Bytes: DefaultHeap}, nil
}

// parseHeap reads a heap size as Open MPI does: an integer, then at most one of the
// letters K, M, G, T (any case, powers of 1024).
func parseHeap(name, value string) (Heap, error) {
	bad := fmt.Errorf("%s=%q is not a heap size Open MPI reads (a whole number of bytes, or one with K, M, G or T: 512M, 2G)", name, value)
	if len(value) > maxHeapChars {
		return Heap{}, bad
	}
	t := strings.TrimLeft(value, " \t\n\v\f\r")
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	unit := map[string]int64{"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
	mult, ok := unit[strings.ToLower(t[i:])]
	if err != nil || !ok || n <= 0 || n > maxSize/mult {
		return Heap{}, bad
	}
	return Heap{Bytes: n * mult, Var: name, Value: value}, nil
}

// String says where the heap comes from: "the 256MiB heap in effect (Open MPI's
// default)".
func (h Heap) String() string {
	if h.Var == "" {
		return fmt.Sprintf("the %s heap in effect (Open MPI's default)", FormatSize(h.Bytes))
	}
	return fmt.Sprintf("the %s heap in effect (%s=%s)", FormatSize(h.Bytes), h.Var, h.Value)
}

// raise is the setting that gives at least need bytes: a power of two in M or G.
func (h Heap) raise(need int64) string {
	name := h.Var
	if name == "" {
		name = HeapVar
	}
	mib := int64(1)
	for mib<<20 < need {
		mib *= 2
	}
	if mib >= 1024 {
		return fmt.Sprintf("%s=%dG", name, mib/1024)
	}
	return fmt.Sprintf("%s=%dM", name, mib)
}
