//go:build mpi && shmem

package main

import (
	"testing"

	"github.com/skampi/skampi/record"
)

// The single-call memory measurements: every PE allocates, reallocates and frees
// together, each timed alone, on 2 and 4 PEs; every point measured.
func TestShmemMemoryCalls(t *testing.T) {
	suite := "[settings]\nmin_repetitions = 10\nmax_repetitions = 10\n"
	for _, op := range []string{"Shmem_Malloc", "Shmem_Free", "Shmem_Realloc", "Shmem_Malloc_Free"} {
		suite += "\n[[measurement]]\nname = \"" + op + "\"\nop = \"" + op + "\"\nsizes = [64, \"1MiB\"]\n"
	}
	s := writeSuite(t, suite)
	for _, np := range []string{"2", "4"} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", np, "-i", s, "-o", out)
		if code != 0 || stderr != "" {
			t.Fatalf("np %s: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Points) != 8 || len(res.Faults) != 0 {
			t.Fatalf("np %s: %d points, faults %+v", np, len(res.Points), res.Faults)
		}
		for _, p := range res.Points {
			effect(t, &p, record.EffectTime, "np "+np+": "+p.Op)
			if p.NProcs != 4 && np == "4" {
				t.Errorf("np %s: %s %d B on %d", np, p.Op, p.MsgBytes, p.NProcs)
			}
		}
	}
}
