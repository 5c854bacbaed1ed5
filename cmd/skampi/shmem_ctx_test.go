//go:build mpi && shmem

package main

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/skampi/skampi/record"
)

// The rest of OpenSHMEM as the method paper measured it, on 2 and 4 PEs (4
// oversubscribed: correctness only): contexts created and destroyed per option, the
// atomics and compare-and-swap on a context (the old values checked), the lock tests
// in turns and in a round (every test must find the lock held: a 0 fails the point),
// the _nbi rings broken down, shmem_quiet after a put, shmem_align alone, and the
// GROMACS send-receive with its last PE late, whose time holds the delay. Every planned
// point is measured and none fails: a wrong old value of a compare-and-swap, a ring's
// data (check_data) or a test that got the lock would fail its point.
func TestShmemContextsLockTestsBreakdowns(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 4
max_repetitions = 8
check_data = true
max_time_per_point = "10s"

[[measurement]]
name = "create"
op = "Shmem_Ctx_Create"
sizes = [8]
method = ["default", "serialized", "private", "nostore"]

[[measurement]]
name = "destroy"
op = "Shmem_Ctx_Destroy"
sizes = [8]
method = ["default", "serialized", "private", "nostore"]

[[measurement]]
name = "fetch_add"
op = "Shmem_Ctx_Atomic_Fetch_Add_Long"
sizes = [8]

[[measurement]]
name = "add"
op = "Shmem_Ctx_Atomic_Add_Long"
sizes = [8]
method = "quiet_subtracted"

[[measurement]]
name = "cswap yes"
op = "Shmem_Ctx_Atomic_Compare_Swap_Yes"
sizes = [8]

[[measurement]]
name = "cswap no"
op = "Shmem_Ctx_Atomic_Compare_Swap_No"
sizes = [8]

[[measurement]]
name = "turns"
op = "Shmem_Test_Lock_Turns"
sizes = [8]

[[measurement]]
name = "round"
op = "Shmem_Test_Lock_Round"
sizes = [8]

[[measurement]]
name = "put ring"
op = "Shmem_Put_Nbi_Ring"
sizes = [8, 4096]

[[measurement]]
name = "get ring"
op = "Shmem_Get_Nbi_Ring"
sizes = [8, 4096]
timer = "iteration"

[[measurement]]
name = "quiet put"
op = "Shmem_Quiet_Put"
sizes = [8, 4096]

[[measurement]]
name = "align"
op = "Shmem_Align"
sizes = [64]

[[measurement]]
name = "late"
op = "Shmem_Sendrecv_Shift_Seed"
sizes = [8, 4096]
delay = "200us"
`)
	for _, np := range []int{2, 4} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", suite, "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if want := 8 + 4 + 2 + 2*2 + 2 + 1 + 2; len(res.Points) != want || len(res.Faults) != 0 {
			t.Fatalf("np %d: %d points, want %d; faults %+v", np, len(res.Points), want, res.Faults)
		}
		for _, p := range res.Points {
			at := fmt.Sprintf("np %d: %s [%s]", np, p.Op, p.Method)
			// Less an empty quiet, a time near zero may come out below it on a loaded
			// machine: flagged then.
			effect(t, &p, record.EffectTime, at)
			switch p.Op {
			case "Shmem_Put_Nbi_Ring", "Shmem_Get_Nbi_Ring":
				effect(t, &p, record.EffectBreakdown, at)
				if p.NProcs != np || p.Breakdown != nil && !(p.PostS > 0 || slices.Contains(p.Flags, record.FlagNegative)) {
					t.Errorf("%s %d B on %d PEs: breakdown %+v, flags %v", at, p.MsgBytes, p.NProcs, p.Breakdown, p.Flags)
				}
			case "Shmem_Sendrecv_Shift_Seed":
				if p.DelayS == nil || *p.DelayS != 200e-6 {
					t.Errorf("%s %d B: delay_s %v", at, p.MsgBytes, p.DelayS)
				}
				// The late PE's spin is calibrated for the delay: a machine that moved
				// since may run it shorter.
				relation(t, p.TimeS >= 200e-6, fmt.Sprintf("%s %d B: time %g s, shorter than the delay", at, p.MsgBytes, p.TimeS), &p)
			}
		}
	}
}
