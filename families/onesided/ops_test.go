package onesided

import (
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
)

// One-sided operations carry the synchronisation modes as methods, each with its own
// kernel; request-based ones only the passive modes. OSU's mode names are methods of
// the operations OSU measures, the default is OSU's default (flush); a retired name
// says which method took its sequence (ops' TestRetiredMethods, for every operation).
func TestOnesidedModes(t *testing.T) {
	osu := []string{"flush", "flush_local", "lock", "lock_all", "fence", "pscw"}
	for _, name := range []string{"Put", "Get", "Accumulate"} {
		in, _ := ops.Lookup(name)
		for _, m := range osu {
			if meth, _ := in.Method(m); meth.Kernel != strings.ToLower(name) || meth.Mode != m {
				t.Errorf("%s has no method %s of its own (kernel %q, mode %q)", name, m, meth.Kernel, meth.Mode)
			}
		}
		if in.KernelFor("") != strings.ToLower(name) || !in.Windowed || !in.OneSided || in.DefaultMethod != defaultMode {
			t.Errorf("%s: %+v", name, in)
		}
		if !in.PassiveTarget("") || !in.PassiveTarget("lock") || in.PassiveTarget("fence") {
			t.Errorf("%s: passive target under its default mode and lock, not under fence", name)
		}
	}
	rget, _ := ops.Lookup("Rget")
	for _, m := range rget.MethodNames() {
		if m == "fence" || m == "pscw" || strings.HasPrefix(m, "fence_") || strings.HasPrefix(m, "pscw_") {
			t.Errorf("Rget has the active mode %s", m)
		}
	}
	if !slices.Contains(rget.MethodNames(), "lock_all_flush") {
		t.Errorf("Rget's modes %v", rget.MethodNames())
	}
	for _, name := range []string{"Fetch_and_op", "Compare_and_swap"} {
		if in, _ := ops.Lookup(name); !in.SingleElement || !in.Reduction {
			t.Errorf("%s: %+v", name, in)
		}
	}
	pp, _ := ops.Lookup("Put_Pingpong")
	if !pp.RoundTrip || pp.Windowed || !slices.Equal(pp.MethodNames(), []string{"fence_epoch", "lock_all_flush"}) {
		t.Errorf("Put_Pingpong: %+v", pp)
	}
	if tp, _ := ops.Lookup("Transpose_Put"); tp.MinProcs != 0 {
		t.Errorf("Transpose_Put: MinProcs %d", tp.MinProcs)
	}
}
