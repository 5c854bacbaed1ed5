//go:build mpi

package mpi

/*
#include "skampi.h"
*/
import "C"

// What the library this process runs with offers beyond MPI-3.1, asked of the library
// itself: the C side reaches those routines through weak references, NULL where the
// library does not define them (ops/mpi/persistent.c), never through MPI_VERSION.

// Capabilities says what this binary can measure beyond MPI-3.1 with its library:
// persistent collectives (MPI_<Coll>_init, or Open MPI's MPIX_<Coll>_init extension)
// and partitioned communication (MPI_Psend_init); what it lacks is refused point by
// point, with the reason (UnsupportedReason).
func Capabilities() []string {
	var colls []collSupport
	for i := C.int(0); ; i++ {
		var name *C.char
		how := C.sk_persistent_collective(i, &name)
		if how < 0 {
			break
		}
		colls = append(colls, collSupport{Name: C.GoString(name), How: supportHow(how)})
	}
	partitioned := ""
	if m := C.sk_partitioned_missing(); m != nil {
		partitioned = C.GoString(m)
	}
	return capabilityText(colls, C.sk_mpix_fallback() != 0, partitioned)
}

// UnsupportedReason says why this binary cannot run a kernel with its library ("" when
// it can): the library and the routine it does not provide ("Open MPI v4.1.4 does not
// provide MPI_Psend_init").
func UnsupportedReason(kernel string) string {
	for i := range C.sk_kernel_count() {
		k := C.sk_kernel_at(i)
		if C.GoString(k.name) != kernel {
			continue
		}
		if m := C.sk_kernel_missing(k); m != nil {
			lib, _ := Library()
			return missingText(C.GoString(m), lib)
		}
		return ""
	}
	return ""
}

// weakRoutines are the routines the kernels reach through weak references
// (TestWeakReferences).
func weakRoutines() []string {
	var out []string
	for i := C.int(0); C.sk_weak_routine(i) != nil; i++ {
		out = append(out, C.GoString(C.sk_weak_routine(i)))
	}
	return out
}
