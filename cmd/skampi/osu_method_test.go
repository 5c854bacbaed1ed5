//go:build mpi

package main

import (
	"slices"
	"testing"

	"github.com/skampi/skampi/record"
)

// Method osu is OSU's collective loop inside every repetition: many calls, each timed
// alone with a barrier after it (so not flagged pipelined), the ranks' mean. Beside it
// the default method's one call per repetition, the slowest rank.
func TestCollectiveMethodOSU(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "run", "Allreduce", "Bcast", "--sizes", "8,4KiB", "--method", "osu", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	if len(res.Points) != 4 {
		t.Fatalf("%d points, faults %+v", len(res.Points), res.Faults)
	}
	for i := range res.Points {
		p := &res.Points[i]
		effect(t, p, record.EffectTime, "method osu")
		if p.Method != "osu" || p.Iterations < 2 || slices.Contains(p.Flags, record.FlagPipelined) {
			t.Errorf("%s %d B: method %q, %d iterations, flags %v: want osu, calibrated iterations, not pipelined",
				p.Op, p.MsgBytes, p.Method, p.Iterations, p.Flags)
		}
	}
	out = t.TempDir()
	if code, stdout, stderr := skampi(t, nil, "run", "Allreduce", "--sizes", "8", "-o", out); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if p := readResults(t, out).Points[0]; p.Method != "" || p.Iterations != 1 {
		t.Errorf("default method: %q, %d iterations: want one call per repetition", p.Method, p.Iterations)
	}
}
