//go:build mpi

package pipelined

import (
	"strconv"
	"testing"

	"github.com/skampi/skampi/internal/familytest"
)

// The built binary measures the pipelined broadcast with every received byte checked,
// at segments smaller than, equal to and larger than the message, a root other than
// 0, int elements, and 2 and 3 processes; every point is measured (no fault) and
// records the segment it was measured with.
//
// The watchdog gets 60 s, as the other oversubscribed tests' does: under go test's
// package parallelism the ring's 4 ranks on 2 busy cores once went 9 s (the default for
// 2 s points) without finishing a step; a hang still ends the job, a minute later.
func TestMeasured(t *testing.T) {
	for _, seg := range []int64{1 << 10, 12 << 10, 1 << 20} {
		res := familytest.Run(t, 3, "Bcast_Pipelined_Chain", "--sizes", "0,4,12KiB,100KiB", "--datatype", "int",
			"--root", "1", "--procs", "2,all", "--check-data", "--pipeline-segment", strconv.FormatInt(seg, 10),
			"--max-time-per-point", "2s", "--hang-timeout", "60s")
		if len(res.Points) != 8 {
			t.Errorf("segment %d: %d points, want 4 sizes at 2 process counts", seg, len(res.Points))
		}
		for _, p := range res.Points {
			if got := p.FamilySettings[setting]; got != strconv.FormatInt(seg, 10) {
				t.Errorf("segment %d: %d B point records %s = %q", seg, p.MsgBytes, setting, got)
			}
			if !(p.TimeS > 0) {
				t.Errorf("segment %d: %d B point's time %g", seg, p.MsgBytes, p.TimeS)
			}
		}
	}
}
