//go:build mpi

package main

import (
	"testing"

	"github.com/skampi/skampi/record"
)

// Bandwidth reaches the buffer size with shared and with per-message receive slots,
// and a cold-cache run is measured and recorded as such.
func TestRecvSlotsAndColdCache(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 2
max_repetitions = 3
buffer = "1MiB"
window = 16

[[measurement]]
name = "shared"
op = "Bandwidth_Isend_Irecv"
sizes = { from = "256KiB", to = "max", step = "*4" }

[[measurement]]
name = "per-message"
op = "Bandwidth_Isend_Irecv"
sizes = { from = "256KiB", to = "max", step = "*4" }
recv_slots = "per-message"

[[measurement]]
name = "cold"
op = "Pingpong_Send_Recv"
sizes = [1024]
cache = "cold"
check_data = true
`)
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "-i", suite, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	largest := map[string]int64{}
	for _, p := range res.Points {
		largest[p.Measurement] = max(largest[p.Measurement], p.MsgBytes)
		switch p.Measurement {
		case "shared", "per-message":
			effect(t, &p, record.EffectTime, p.Measurement)
			if p.RecvSlots != p.Measurement || p.Shows(record.EffectTime) && p.BandwidthBps == nil || p.Cache != "warm" {
				t.Errorf("%s: recv_slots %q, cache %q, bandwidth %v", p.Measurement, p.RecvSlots, p.Cache, p.BandwidthBps)
			}
		case "cold":
			effect(t, &p, record.EffectTime, p.Measurement)
			if p.Cache != "cold" || !p.CheckData || p.RecvSlots != "" {
				t.Errorf("cold point: %+v", p)
			}
		}
	}
	for _, m := range []string{"shared", "per-message"} {
		if largest[m] != 1<<20 {
			t.Errorf("%s: largest size %d, want the buffer (1 MiB)", m, largest[m])
		}
	}
	if len(res.Faults) != 0 {
		t.Errorf("faults: %+v", res.Faults)
	}
}
