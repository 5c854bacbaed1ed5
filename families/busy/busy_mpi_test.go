//go:build mpi && shmem

package busy

import (
	"fmt"
	"testing"

	"github.com/skampi/skampi/internal/familytest"
	"github.com/skampi/skampi/record"
)

// Busy passive targets (target_busy), MPI and OpenSHMEM, on 2 and 4 processes (4
// oversubscribed: correctness only): the target computes in every step, polling or
// not, and every point is measured with its data checked, its target's computation
// and poll call recorded as set. A kernel that could not keep its target busy refuses
// the point (SK_ERR_BUSY) rather than measure it idle, which fails this test; an
// OpenSHMEM target meeting its origin in MPI rather than in OpenSHMEM could hang it.
// The poll is named only where the target polls (progress > 0).
func TestBusyPassiveTargets(t *testing.T) {
	const suite = `[settings]
min_repetitions = 4
max_repetitions = 8
check_data = true
max_time_per_point = "10s"
window = 1

[[measurement]]
name = "put lock"
op = "Put"
method = "lock"
sizes = [8, 4096]
target_busy = "20us"
progress = 500

[[measurement]]
name = "accumulate flush"
op = "Accumulate"
method = "lock_all_flush"
sizes = [8]
target_busy = "20us"
progress = 500
poll = "flush"

[[measurement]]
name = "shmem put"
op = "Shmem_Put"
sizes = [8, 4096]
target_busy = "20us"
progress = 500

[[measurement]]
name = "shmem put idle"
op = "Shmem_Put"
sizes = [8]
target_busy = "0us"

[[measurement]]
name = "shmem get"
op = "Shmem_Get"
sizes = [8]
target_busy = "20us"

[[measurement]]
name = "shmem fadd"
op = "Shmem_Atomic_Fetch_Add_Long"
sizes = [8]
target_busy = "20us"
progress = 500
`
	for _, np := range []int{2, 4} {
		res := familytest.RunSuite(t, np, suite)
		if want := 2 + 1 + 2 + 1 + 1 + 1; len(res.Points) != want {
			t.Fatalf("np %d: %d points, want %d", np, len(res.Points), want)
		}
		for _, p := range res.Points {
			at := fmt.Sprintf("np %d: %s", np, p.Measurement)
			effect(t, &p, record.EffectTime, at)
			if p.TargetBusyS == nil {
				t.Fatalf("%s %d B: target_busy_s %v", at, p.MsgBytes, p.TargetBusyS)
			}
			busy := *p.TargetBusyS
			if p.Measurement == "shmem put idle" {
				if busy != 0 {
					t.Errorf("%s: target_busy_s %g, want 0", at, busy)
				}
				effect(t, &p, record.EffectBreakdown, at) // the usual breakdown
				continue
			}
			if busy != 20e-6 {
				t.Errorf("%s: target_busy_s %g, want 20e-6", at, busy)
			}
			want := map[string]string{"put lock": "iprobe", "accumulate flush": "flush", "shmem put": "quiet", "shmem get": "", "shmem fadd": "quiet"}[p.Measurement]
			if p.Poll != want {
				t.Errorf("%s: poll %q, want %q", at, p.Poll, want)
			}
			if p.Breakdown != nil {
				t.Errorf("%s: a busy target's operation is timed whole, yet it has a breakdown", at)
			}
		}
	}
}

// effect: the point shows the effect e, or carries the flag that says why not.
func effect(t *testing.T, p *record.Point, e record.Effect, at string) {
	t.Helper()
	if err := record.Explained(p, e); err != nil {
		t.Errorf("%s: %v", at, err)
	}
}
