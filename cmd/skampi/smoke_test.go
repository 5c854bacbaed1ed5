//go:build mpi

package main

import (
	"strings"
	"testing"
)

// --smoke runs every point of a suite at two repetitions, says so on the terminal and in
// the run header, and a measuring run does not resume it.
func TestSmokeRun(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "-i", "quick", "--smoke", "-o", out)
	if code != 0 || !strings.Contains(stdout, "smoke run: two repetitions a point") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	if len(res.Runs) != 1 || !res.Runs[0].Smoke || len(res.Points) != res.Runs[0].Points {
		t.Fatalf("runs %+v, %d points, faults %+v", res.Runs, len(res.Points), res.Faults)
	}
	for _, p := range res.Points {
		if p.Reps > 2 || p.Refined {
			t.Errorf("%s %d B: %d repetitions, refined %v", p.Measurement, p.MsgBytes, p.Reps, p.Refined)
		}
	}
	code, _, stderr = skampi(t, nil, "-i", "quick", "-o", out, "--resume")
	if code == 0 || !strings.Contains(stderr, "holds a smoke run") {
		t.Errorf("a measuring run resumed a smoke run: exit %d\n%s", code, stderr)
	}
}
