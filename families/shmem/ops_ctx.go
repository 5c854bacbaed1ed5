package shmem

import (
	"strings"

	"github.com/skampi/skampi/ops"
)

// OpenSHMEM contexts (families/shmem/kernels/ctx.c): creating and destroying one,
// timed apart, per option (SKaMPI's Shmem_Ctx_Create_* and Shmem_Ctx_Destroy_*), and
// the atomics on a context (SKaMPI's Shmem_Ctx_Atomic_*), beside the same atomics on
// the default context (Shmem_Atomic_*_Long: the atomics figure draws them side by
// side).

// ctxOptions: a context operation's methods, one per option of shmem_ctx_create, and
// default (no method): options 0.
func ctxOptions(in ops.Info) ops.Info {
	in.Methods = []ops.Method{{Name: "default", Kernel: in.Kernel, Description: "options 0: a context any thread may use, stores completed by shmem_ctx_quiet"}}
	for _, o := range []struct{ name, desc string }{
		{"serialized", "SHMEM_CTX_SERIALIZED: used by one thread at a time"},
		{"private", "SHMEM_CTX_PRIVATE: used by the creating thread only"},
		{"nostore", "SHMEM_CTX_NOSTORE: no store to symmetric memory need complete by shmem_ctx_quiet"},
	} {
		in.Methods = append(in.Methods, ops.Method{Name: o.name, Kernel: in.Kernel + "_" + o.name, Description: o.desc})
	}
	in.Description += "; method = default (options 0), serialized, private, nostore"
	return in
}

// The step is a create and a destroy, one of them timed: CallTimed, so "auto"
// iterations are calibrated on the whole step. Calibrated on the timed call alone, a
// destroy of a few microseconds after a create of milliseconds (Open MPI's
// shmem_ctx_create makes a UCX worker and endpoints) asked for hundreds of steps per
// repetition: each repetition ran past max_time_per_point, and each step made a
// context. Open MPI 5.0.7 never frees or reuses a destroyed options-0 context until
// shmem_finalize (open-mpi/ompi#13060), which then took longer than hang_timeout to
// tear down the ~300 of them a Shmem_Ctx_Destroy point made per PE.
func shmemCtxCall(name, kernel, desc string) ops.Info {
	return ctxOptions(ops.Info{Name: name, Family: "shmem", Kernel: kernel, Pattern: ops.PatternAll, Reduce: ops.ReduceMax,
		Directions: 1, SHMEM: true, NoData: true, Heap: ops.HeapSlots, CallTimed: true, Description: desc})
}

// The empty completion on a context, subtracted from the non-fetching atomics on one.
var ctxQuietSubtracted = ops.Method{Name: "quiet_subtracted", Subtract: "Shmem_Ctx_Quiet",
	Description: "the atomic and its shmem_ctx_quiet, less an empty shmem_ctx_quiet measured in alternation (subtracted_s)"}

var shmemCtx = ops.Register(1600, func() []ops.Info {
	out := []ops.Info{
		shmemCtxCall("Shmem_Ctx_Create", "shmem_ctx_create",
			"shmem_ctx_create alone (timed one call at a time) on every PE of the communicator at once; the shmem_ctx_destroy after it untimed"),
		shmemCtxCall("Shmem_Ctx_Destroy", "shmem_ctx_destroy",
			"shmem_ctx_destroy alone (timed one call at a time) on every PE of the communicator at once; the shmem_ctx_create before it untimed"),
		{Name: "Shmem_Ctx_Quiet", Family: "shmem", Kernel: "shmem_ctx_quiet_empty", Pattern: ops.PatternAll, Reduce: ops.ReduceMax,
			Directions: 1, SHMEM: true, NoData: true, Heap: ops.HeapSlots,
			Description: "shmem_ctx_quiet with nothing outstanding on a serialized context, on every PE of the communicator (subtracted from the non-fetching atomics on a context by method quiet_subtracted)"},
	}
	for _, k := range []struct {
		name, desc string
		quiet      bool
	}{
		{"Fetch", "atomic fetch", false}, {"Set", "atomic set, then shmem_ctx_quiet", true},
		{"Inc", "atomic increment, then shmem_ctx_quiet", true}, {"Fetch_Inc", "atomic fetch-and-increment", false},
		{"Add", "atomic add, then shmem_ctx_quiet", true}, {"Fetch_Add", "atomic fetch-and-add", false},
		{"Swap", "atomic swap", false}, {"Compare_Swap", "atomic compare-and-swap", false},
		{"And", "atomic and (unsigned), then shmem_ctx_quiet", true}, {"Or", "atomic or (unsigned), then shmem_ctx_quiet", true},
		{"Xor", "atomic xor (unsigned), then shmem_ctx_quiet", true}, {"Fetch_And", "atomic fetch-and (unsigned)", false},
		{"Fetch_Or", "atomic fetch-or (unsigned)", false}, {"Fetch_Xor", "atomic fetch-xor (unsigned)", false},
	} {
		in := ops.Info{Name: "Shmem_Ctx_Atomic_" + k.name + "_Long", Family: "shmem",
			Kernel:  "shmem_ctx_atomic_" + strings.ToLower(k.name) + "_long",
			Pattern: ops.PatternAll, Reduce: ops.ReduceMax, Directions: 1, SHMEM: true, AtomicRate: true,
			// drawn as a third bar beside int and long on the default context
			AtomicKind: k.name, AtomicType: "Long ctx", ElementBytes: 8, SingleElement: true, Heap: ops.HeapSlots,
			MinProcs: 2, MinProcsWhy: "one PE is the target, the others hit it",
			Description: k.desc + " on a long at the communicator's first PE, by every other PE at once, on a serialized context of each"}
		if k.quiet {
			m := ctxQuietSubtracted
			m.Kernel = in.Kernel
			in.Methods = append(in.Methods, m)
		}
		out = append(out, in)
	}
	for _, y := range []struct{ name, desc string }{
		{"Yes", "that succeeds (the condition is the value there)"},
		{"No", "that fails (a condition the long never equals)"},
	} {
		out = append(out, element(ops.Info{Name: "Shmem_Ctx_Atomic_Compare_Swap_" + y.name, Family: "shmem",
			Kernel: "shmem_ctx_compare_swap_" + strings.ToLower(y.name), Pattern: ops.PatternPair, Reduce: ops.ReduceFirst,
			Directions: 1, SHMEM: true, Heap: ops.HeapSlots,
			Description: "shmem_ctx_long_atomic_compare_swap " + y.desc + " on a serialized context, by the initiator on the target's long; the old value returned is checked"}, 8, true))
	}
	return out
}())
