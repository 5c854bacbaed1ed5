//go:build mpi

package main

// Integration test of the halo exchanges and the one-sided operations of many
// origins at once.

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

// The halo steps with and without their computation, and the concurrent one-sided
// operations at every communicator size, at 2 and 4 processes (oversubscribed at 4:
// correctness only): every point measured on every rank, no fault (no hang), and
// halo_compute recorded on the halo steps alone (0 where they do not compute).
func TestHaloAndConcurrent(t *testing.T) {
	var b strings.Builder
	b.WriteString("[settings]\nmin_repetitions = 2\nmax_repetitions = 4\nbuffer = \"256KiB\"\n")
	for _, op := range []string{"Halo_Twosided", "Halo_Onesided_PSCW", "Halo_Onesided_Fence"} {
		fmt.Fprintf(&b, "\n[[measurement]]\nname = \"halo %s\"\nop = %q\nsizes = [8, 4096]\niterations = 5\nhalo_compute = \"100us\"\n", op, op)
		fmt.Fprintf(&b, "\n[[measurement]]\nname = \"%s, no computation\"\nop = %q\nsizes = [8]\n", op, op)
	}
	for op, methods := range map[string]string{"Put_passive_concurrent": `"exclusive", "shared"`,
		"Accumulate_concurrent": `"same", "disjoint"`, "Accumulate_concurrent_multi": `"same", "disjoint"`} {
		fmt.Fprintf(&b, "\n[[measurement]]\nname = \"concurrent %s\"\nop = %q\nmethod = [%s]\nsizes = [8, 4096]\nprocs = [2, 3, \"all\"]\n", op, op, methods)
	}
	suite := writeSuite(t, b.String())
	for _, np := range []int{2, 4} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", suite, "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Faults) != 0 || len(res.Points) == 0 || len(res.Points) != res.Runs[0].Points {
			t.Fatalf("np %d: %d points of %d, faults %+v", np, len(res.Points), res.Runs[0].Points, res.Faults)
		}
		halo := 0
		for _, p := range res.Points {
			effect(t, &p, record.EffectTime, fmt.Sprintf("np %d, %s %s on %d", np, p.Op, p.Method, p.NProcs))
			if len(p.RankTimeS) != p.NProcs {
				t.Errorf("np %d, %s %s %d B on %d: %d rank times", np, p.Op, p.Method, p.MsgBytes, p.NProcs, len(p.RankTimeS))
			}
			want, concurrent := 0.0, strings.HasPrefix(p.Measurement, "concurrent")
			if strings.HasPrefix(p.Measurement, "halo") {
				want, halo = 100e-6, halo+1
			}
			if got := p.HaloComputeS; (got == nil) != concurrent || (got != nil && *got != want) {
				t.Errorf("np %d, %s: halo_compute_s %v, want %g", np, p.Measurement, got, want)
			}
		}
		if halo != 6 {
			t.Errorf("np %d: %d computing halo points", np, halo)
		}
	}
}
