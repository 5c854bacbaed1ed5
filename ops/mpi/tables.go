//go:build mpi

package mpi

/*
#include <stdlib.h>
#include "kernels.h"
#include "layout.h"
// A one-sided kernel is one whose window sk_close_rma frees (a Bsend buffer's close is not).
static int sk_kernel_has_window(const sk_kernel *k) { return k->close == sk_close_rma; }
*/
import "C"

import "unsafe"

// The C tables, by name: what the catalogue's names must resolve to. Read by tests,
// never on the measuring path.

// Kernels lists the kernel table's names, in table order.
func Kernels() []string {
	out := make([]string, C.sk_kernel_count())
	for i := range out {
		out[i] = C.GoString(C.sk_kernel_at(C.int(i)).name)
	}
	return out
}

// DatatypeNames lists the datatypes collectives take.
func DatatypeNames() []string {
	out := make([]string, C.sk_datatype_count())
	var size C.int
	for i := range out {
		out[i] = C.GoString(C.sk_datatype_name(C.int(i), &size))
	}
	return out
}

// ReduceOpNames lists the reduction operators reductions take.
func ReduceOpNames() []string {
	out := make([]string, C.sk_reduce_op_count())
	for i := range out {
		out[i] = C.GoString(C.sk_reduce_op_name(C.int(i)))
	}
	return out
}

// ModeNames, WindowNames and PhaseNames list the synchronisation modes, kinds of
// window and non-blocking measurements the kernels resolve by name.
func ModeNames() []string {
	return names(C.sk_mode_count(), func(i C.int) *C.char { return C.sk_mode_at(i) })
}
func WindowNames() []string {
	return names(C.sk_window_count(), func(i C.int) *C.char { return C.sk_window_at(i) })
}
func PhaseNames() []string {
	return names(C.sk_phase_count(), func(i C.int) *C.char { return C.sk_phase_at(i) })
}

// LayoutNames lists the data layouts the kernels resolve by name.
func LayoutNames() []string {
	return names(C.sk_layout_count(), func(i C.int) *C.char { return C.sk_layout_name(i) })
}

// takesLayouts: the kernel of that name takes data layouts (sk_kernel.layout).
func takesLayouts(name string) bool {
	for i := C.int(0); i < C.sk_kernel_count(); i++ {
		if k := C.sk_kernel_at(i); C.GoString(k.name) == name {
			return k.layout != C.SK_LAY_NONE
		}
	}
	return false
}

func names(n C.int, at func(C.int) *C.char) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = C.GoString(at(C.int(i)))
	}
	return out
}

// kernelMode is the mode a kernel runs under when its request names none ("": the
// kernel has no modes).
func kernelMode(name string) string {
	for i := range C.sk_kernel_count() {
		if k := C.sk_kernel_at(i); C.GoString(k.name) == name && k.mode != nil {
			return C.GoString(k.mode)
		}
	}
	return ""
}

// datatypeSize is the size in bytes the kernels give a datatype (0: unknown).
func datatypeSize(name string) int64 {
	var size C.int
	for i := range C.sk_datatype_count() {
		if C.GoString(C.sk_datatype_name(i, &size)) == name {
			return int64(size)
		}
	}
	return 0
}

// kernelFlags are the facts the kernel table keeps about a kernel.
type kernelFlags struct {
	collective, nodeAware, ownResult, perProcessStep, nonblocking bool
	window                                                        bool // a one-sided kernel: prepares and frees a window
	typed                                                         bool // takes a datatype without being a collective
}

func flagsOf(name string) (kernelFlags, bool) {
	for i := range C.sk_kernel_count() {
		if k := C.sk_kernel_at(i); C.GoString(k.name) == name {
			return kernelFlags{
				collective:     k.flags&C.SK_K_COLLECTIVE != 0,
				nodeAware:      k.flags&C.SK_K_NODE_AWARE != 0,
				ownResult:      k.flags&C.SK_K_OWN_RESULT != 0,
				perProcessStep: k.flags&C.SK_K_PER_PROCESS_STEP != 0,
				nonblocking:    k.flags&C.SK_K_NONBLOCKING != 0,
				window:         C.sk_kernel_has_window(k) != 0,
				typed:          k.flags&C.SK_K_TYPED != 0,
			}, true
		}
	}
	return kernelFlags{}, false
}

// RegisterKernels adds another package's n kernel tables (a family's kernels,
// families/NAME/kernels: an array of C sk_table pointers, which that package owns for
// the life of the process) to the engine's, so its kernels are prepared and run like these; with
// explain, their failures (SK_ERR_FAILED) are said its way. A name two tables give,
// or too many tables, is a programming error.
func RegisterKernels(tables unsafe.Pointer, n int, explain ...Explain) {
	before := map[string]bool{}
	for _, k := range Kernels() {
		before[k] = true
	}
	if C.sk_register_kernels((**C.sk_table)(tables), C.int(n)) != 0 {
		panic("mpi.RegisterKernels: too many kernel tables")
	}
	seen := map[string]bool{}
	for _, k := range Kernels() {
		if seen[k] {
			panic("mpi.RegisterKernels: kernel " + k + " is in two tables")
		}
		seen[k] = true
		if !before[k] && len(explain) > 0 {
			explainers[k] = explain[0]
		}
	}
}

// ParamKnown says whether sk_prepare resolves a parameter of that name (ops.Request.Params).
func ParamKnown(name string) bool {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.sk_param_known(cs) == 1
}
