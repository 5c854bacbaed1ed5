//go:build mpi

package main

// Integration test of the imbalance operations: a late rank in a collective, and
// every pair's ping-pong at once.

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/skampi/skampi/record"
)

// The delayed collectives at 2 and 4 processes (oversubscribed at 4: correctness only)
// with their data checked: every point records its delay and takes at least that long
// (the last rank waits it out inside the step, and the time is the slowest rank's);
// Alltoallv_Skewed's uneven blocks and Par_Pingpong_Send_Recv's pairs are checked too
// (at 8 B, 2 ints, the other ranks send none; at 4 KiB, 1024 ints, 128 each).
func TestImbalance(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 2
max_repetitions = 4
check_data = true

[[measurement]]
name = "alltoall late"
op = "delayed_Alltoall"
sizes = [8, 4096]
delay = "200us"

[[measurement]]
name = "gather late"
op = "delayed_Gather"
sizes = [8, 4096]
delay = "200us"
root = 1

[[measurement]]
name = "skewed"
op = "Alltoallv_Skewed"
sizes = [8, 4096]
ratio = 8
datatype = "int"

[[measurement]]
name = "pairs"
op = "Par_Pingpong_Send_Recv"
sizes = [8, 4096]
`)
	for _, np := range []int{2, 4} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", suite, "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Points) != 8 || len(res.Faults) != 0 {
			t.Fatalf("np %d: %d points, faults %+v", np, len(res.Points), res.Faults)
		}
		for _, p := range res.Points {
			at := fmt.Sprintf("np %d, %s", np, p.Measurement)
			effect(t, &p, record.EffectTime, at)
			if !p.CheckData || len(p.RankTimeS) != np {
				t.Errorf("%s: check_data %v, %d rank times", at, p.CheckData, len(p.RankTimeS))
			}
			switch p.Op {
			case "delayed_Alltoall", "delayed_Gather":
				if p.DelayS == nil || *p.DelayS != 200e-6 {
					t.Errorf("%s %d B: delay_s %v", at, p.MsgBytes, p.DelayS)
				}
				// The late rank's spin is calibrated for the delay: on a machine that
				// slowed or sped up since, it may run shorter.
				relation(t, p.TimeS >= 200e-6, fmt.Sprintf("%s %d B: time %g s, shorter than the delay", at, p.MsgBytes, p.TimeS), &p)
			case "Par_Pingpong_Send_Recv":
				if p.DelayS != nil || p.Reps > 0 && (p.LatencyS == nil || *p.LatencyS*2 != p.TimeS) {
					t.Errorf("np %d, pairs %d B: delay_s %v, latency %v, time %g", np, p.MsgBytes, p.DelayS, p.LatencyS, p.TimeS)
				}
			}
		}
	}
}
