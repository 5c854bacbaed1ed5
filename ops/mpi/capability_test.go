//go:build mpi

package mpi

import (
	"debug/elf"
	"os"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
)

// The routines some libraries lack are weak references in the linked binary (this test
// binary, linked the way bin/skampi is): the dynamic linker then leaves them NULL where
// the library does not define them, and the binary starts and refuses those kernels.
// Bound GLOBAL (what the Go linker's internal mode makes of them), the binary would not
// even start with a library that lacks one ("undefined symbol: MPI_Psend_init").
func TestWeakReferences(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Skipf("not an ELF binary: %v", err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	bind := map[string]elf.SymBind{}
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF {
			bind[s.Name] = elf.ST_BIND(s.Info)
		}
	}
	names := weakRoutines()
	if len(names) < 18 { // 15 collectives' inits, MPI_Psend_init, MPI_Precv_init, MPI_Pready
		t.Fatalf("weak routines: %v", names)
	}
	seen := 0
	for _, n := range names {
		b, ok := bind[n]
		if !ok {
			continue // resolved (to nothing) at link time: no library at hand defined it
		}
		seen++
		if b != elf.STB_WEAK {
			t.Errorf("%s is bound %v in %s, not weak: the binary needs external linking", n, b, exe)
		}
	}
	if seen == 0 {
		t.Errorf("none of %v among the binary's dynamic symbols", names)
	}
}

// skampi version's capabilities, skampi list's marks and the refusals all come from one
// place: a persistent or partitioned kernel is refused exactly where the capabilities
// say the library lacks its routine, and the reason names that routine.
func TestCapabilitiesAgreeWithRefusals(t *testing.T) {
	caps := strings.Join(Capabilities(), "; ")
	for _, in := range ops.All() {
		if in.Family != "persistent" {
			continue
		}
		why := UnsupportedReason(in.Kernel)
		coll, _, _ := strings.Cut(in.Name, "_") // Allreduce_persistent, Allreduce_init
		switch {
		case in.Kernel == "pingpong_partitioned":
			if lacking := strings.Contains(caps, "no partitioned communication"); lacking != (why != "") {
				t.Errorf("%s: refused %q, capabilities %q", in.Name, why, caps)
			}
		case in.Kernel == "pingpong_persistent" || in.Kernel == "bandwidth_persistent" || in.Kernel == "bibandwidth_persistent":
			if why != "" { // MPI-1's MPI_Send_init: every library has it
				t.Errorf("%s refused: %q", in.Name, why)
			}
		default:
			lacking := strings.Contains(caps, "no persistent collectives") || strings.Contains(caps, "except") && strings.Contains(caps, "MPI_"+coll+"_init")
			if lacking != (why != "") {
				t.Errorf("%s: refused %q, capabilities %q", in.Name, why, caps)
			}
			if why != "" && !strings.Contains(why, "does not provide MPI_"+coll+"_init") {
				t.Errorf("%s: reason %q", in.Name, why)
			}
		}
	}
}
