//go:build mpi

package mpi_test

import (
	"maps"
	"slices"
	"testing"

	_ "github.com/skampi/skampi/families/all" // every family's kernels, as in skampi
	"github.com/skampi/skampi/ops"
	. "github.com/skampi/skampi/ops/mpi"
)

// The C tables and the catalogue must agree: every kernel the catalogue names runs,
// no kernel is dead, and the datatype and operator names are the same. Reads the
// tables only: no MPI_Init. Every family is linked in, as in skampi: their kernels
// are in tables of their own.

// What the kernel table says of a kernel agrees with what the catalogue says of the
// operations and methods that use it: collectives take a datatype and a root, node-aware
// kernels get the nodes, a root-timed method's kernel computes its own result.
func TestKernelFlagsMatchCatalogue(t *testing.T) {
	for _, in := range ops.All() {
		if in.SHMEM {
			continue
		}
		f, ok := FlagsOf(in.Kernel)
		if !ok {
			continue // TestCatalogueKernelsRegistered says so
		}
		if f.NodeAware != in.NodeAware || f.Collective != (in.Pattern == ops.PatternAll) || f.OwnResult != (in.LockHold || in.CallTimed) ||
			f.Nonblocking != in.Nonblocking || f.Window != in.OneSided || f.Typed != (in.Reduction && in.Pattern == ops.PatternPair && in.OneSided) {
			t.Errorf("%s: kernel %s %+v; catalogue: node-aware %v, pattern %v", in.Name, in.Kernel, f, in.NodeAware, in.Pattern)
		}
		for _, m := range in.Methods {
			f, _ := FlagsOf(m.Kernel)
			if f.OwnResult != (m.RootTimed || in.CallTimed) || f.Collective != (in.Pattern == ops.PatternAll) || f.Window != in.OneSided {
				t.Errorf("%s, method %s: kernel %s %+v; catalogue: root-timed %v", in.Name, m.Name, m.Kernel, f, m.RootTimed)
			}
		}
	}
	if f, _ := FlagsOf("bcast_rounds"); !f.PerProcessStep {
		t.Error("bcast_rounds times a broadcast from every root: its step is nprocs broadcasts")
	}
}

func TestDatatypesMatchCatalogue(t *testing.T) {
	got := slices.Sorted(slices.Values(DatatypeNames()))
	want := slices.Sorted(maps.Keys(ops.Datatypes))
	if !slices.Equal(got, want) {
		t.Fatalf("C datatypes %v, catalogue %v", got, want)
	}
	for name, size := range ops.Datatypes {
		if c := DatatypeSize(name); c != size {
			t.Errorf("datatype %s: %d bytes in C, %d in the catalogue", name, c, size)
		}
	}
}

func TestReduceOpsMatchCatalogue(t *testing.T) {
	got := slices.Sorted(slices.Values(ReduceOpNames()))
	want := slices.Sorted(slices.Values(ops.ReduceOps))
	if !slices.Equal(got, want) {
		t.Fatalf("C reduction operators %v, catalogue %v", got, want)
	}
}

// Every mode a method names is one the kernels resolve, on a kernel that has modes;
// every mode the kernels resolve serves some method or kernel; the kinds of window and
// the non-blocking measurements have the same names on both sides.
func TestNamesMatchCatalogue(t *testing.T) {
	modes := ModeNames()
	used := map[string]bool{}
	for _, k := range Kernels() {
		used[KernelMode(k)] = true
	}
	for _, in := range ops.All() {
		if in.SHMEM {
			continue
		}
		for _, m := range in.Methods {
			if m.Mode == "" {
				continue
			}
			used[m.Mode] = true
			if !slices.Contains(modes, m.Mode) {
				t.Errorf("%s, method %s: the kernels have no mode %q", in.Name, m.Name, m.Mode)
			}
			if KernelMode(m.Kernel) == "" {
				t.Errorf("%s, method %s: kernel %s takes no mode", in.Name, m.Name, m.Kernel)
			}
		}
	}
	for _, m := range modes {
		if !used[m] {
			t.Errorf("mode %q serves no method or kernel", m)
		}
	}
	if got := LayoutNames(); !slices.Equal(got, ops.DataLayouts) {
		t.Errorf("C data layouts %v, catalogue %v", got, ops.DataLayouts)
	}
	if got := WindowNames(); !slices.Equal(got, ops.RMAWindows) {
		t.Errorf("C kinds of window %v, catalogue %v", got, ops.RMAWindows)
	}
	var phases []string
	for p := ops.PhaseFull; p <= ops.PhaseCompute; p++ {
		phases = append(phases, p.String())
	}
	if got := PhaseNames(); !slices.Equal(got, phases) {
		t.Errorf("C non-blocking measurements %v, catalogue %v", got, phases)
	}
}

// An operation that takes data_layout (Layouts) runs kernels that all take one
// (sk_kernel.layout); another may share such a kernel and never pass it a layout.
func TestLayoutsMatchCatalogue(t *testing.T) {
	n := 0
	for _, in := range ops.All() {
		if in.SHMEM {
			continue
		}
		kernels := []string{in.Kernel}
		for _, m := range in.Methods {
			kernels = append(kernels, m.Kernel)
		}
		for _, k := range kernels {
			if in.Layouts && !TakesLayouts(k) {
				t.Errorf("%s (Layouts %v): kernel %s takes layouts: %v", in.Name, in.Layouts, k, TakesLayouts(k))
			}
		}
		if in.Layouts {
			n++
		}
	}
	if n == 0 {
		t.Error("no operation takes data layouts")
	}
}

// Every name the runner may give a kernel by ops.Request.Params is one sk_prepare
// resolves (a name it does not know is refused at prepare, point by point), and it
// knows no other: the two languages agree on the names, not on positions.
func TestParamNamesKnownToC(t *testing.T) {
	for _, n := range ops.ParamNames {
		if !ParamKnown(n) {
			t.Errorf("sk_prepare does not resolve parameter %q", n)
		}
	}
	if ParamKnown("spin") || ParamKnown("") {
		t.Error("sk_prepare resolves a name no family gives")
	}
}
