//go:build mpi && shmem

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// One measurement spelled three ways (a one-liner naming no method, one naming the
// default, flush, and a suite) records the same method and compares row for row.
func TestDefaultMethodMatchesAcrossSpellings(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 2
max_repetitions = 4
window = 1

[[measurement]]
name = "put"
op = "Put"
sizes = [8, 64]
`)
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	runs := [][]string{
		{"run", "Put", "-W", "1", "--sizes", "8,64", "--min-repetitions", "2", "--max-repetitions", "4", "-o", dirs[0]},
		{"run", "Put", "-W", "1", "--method", "flush", "--sizes", "8,64", "--min-repetitions", "2", "--max-repetitions", "4", "-o", dirs[1]},
		{"-i", suite, "-o", dirs[2]},
	}
	for i, args := range runs {
		if code, _, stderr := skampi(t, nil, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		for _, p := range readResults(t, dirs[i]).Points {
			if p.Method != "flush" {
				t.Errorf("%v: %s %d B records method %q", args, p.Op, p.MsgBytes, p.Method)
			}
		}
	}
	for _, other := range dirs[1:] {
		code, out, stderr := skampi(t, nil, "compare", "a="+filepath.Join(dirs[0], "results.jsonl"), "b="+filepath.Join(other, "results.jsonl"))
		if code != 0 || !strings.Contains(out, "2 rows, 2 compared") {
			t.Errorf("compare: exit %d\n%s%s", code, out, stderr)
		}
	}
}
