//go:build mpi

package main

import (
	"strings"
	"testing"
)

// --runs launches the suite several times into one directory and summarises every
// point over the runs; without -o it is refused before anything starts.
func TestRuns(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "run", "Pingpong_Send_Recv", "--sizes", "8,1KiB", "--runs", "3", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	if len(res.Runs) != 3 || len(res.Points) != 6 {
		t.Fatalf("%d runs, %d points", len(res.Runs), len(res.Points))
	}
	if !strings.Contains(stdout, "== run 3 of 3 ==") || !strings.Contains(stdout, " of 2 points scatter over the runs") {
		t.Errorf("no summary of the runs:\n%s", stdout)
	}
	code, _, stderr = skampi(t, nil, "run", "Pingpong_Send_Recv", "--sizes", "8", "--runs", "2")
	if code != 2 || !strings.Contains(stderr, "--runs needs -o DIR") {
		t.Errorf("--runs without -o: exit %d, %s", code, stderr)
	}
}
