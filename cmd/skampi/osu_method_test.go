//go:build mpi

package main

import (
	"slices"
	"testing"

	"github.com/skampi/skampi/record"
)

// Method osu is OSU's collective loop inside every repetition: many calls, each timed
// alone with a barrier after it, the ranks' mean; so with many calls a repetition it
// is not flagged pipelined, where the default method's back-to-back calls are.
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
		if p.Method != "osu" || p.Iterations < 1 || slices.Contains(p.Flags, record.FlagPipelined) {
			t.Errorf("%s %d B: method %q, %d iterations (calibrated: as many as fit rep_time), flags %v", p.Op, p.MsgBytes, p.Method, p.Iterations, p.Flags)
		}
	}
	for _, method := range []string{"osu", ""} {
		out = t.TempDir()
		args := []string{"run", "Allreduce", "--sizes", "8", "--iterations", "50", "-o", out}
		if method != "" {
			args = append(args, "--method", method)
		}
		if code, stdout, stderr := skampi(t, nil, args...); code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		p := readResults(t, out).Points[0]
		if p.Iterations != 50 || slices.Contains(p.Flags, record.FlagPipelined) != (method == "") {
			t.Errorf("method %q, 50 calls a repetition: %d iterations, flags %v: pipelined only without the barriers", method, p.Iterations, p.Flags)
		}
	}
}
