package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
)

// list --skampi prints one aligned row per SKaMPI function, then the counts; a
// pattern keeps the rows whose SKaMPI name or operation match.
func TestListSkampi(t *testing.T) {
	all := ops.SkampiFuncs()
	m, y, n := ops.SkampiCounts(all)
	code, stdout, stderr := runCLI("list", "--skampi")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	want := fmt.Sprintf("217 SKaMPI measurement functions: %d measured by skampi, %d not yet, %d not measured", m, y, n)
	if code != 0 || stderr != "" || len(lines) != len(all)+1 || lines[len(lines)-1] != want {
		t.Fatalf("exit %d, %d lines, last %q, stderr %q", code, len(lines), lines[len(lines)-1], stderr)
	}
	// Aligned: the second column starts at the same place on every row.
	col := -1
	for i, f := range all {
		l := lines[i]
		if !strings.HasPrefix(l, f.Name+" ") || !strings.Contains(l, f.What()) {
			t.Fatalf("row %d %q is not %s: %s", i, l, f.Name, f.What())
		}
		at := strings.Index(l[len(f.Name):], f.What()) + len(f.Name)
		if col >= 0 && at != col {
			t.Errorf("row %q: operation at column %d, not %d", l, at, col)
		}
		col = at
	}

	code, stdout, _ = runCLI("list", "--skampi", "Win_lock*")
	lines = strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "Win_lock ") || !strings.HasPrefix(lines[1], "Win_lock_desync ") ||
		!strings.HasPrefix(lines[2], "2 of 217 SKaMPI measurement functions: 2 measured by skampi, 0 not yet, 0 not measured") {
		t.Errorf("glob: %d %q", code, stdout)
	}
	// The pattern also finds the SKaMPI functions an operation measures.
	code, stdout, _ = runCLI("list", "--skampi", "transpose_put")
	if code != 0 || !strings.Contains(stdout, "Put_Exchange ") || !strings.Contains(stdout, "onesided_alltoall ") {
		t.Errorf("by operation: %d %q", code, stdout)
	}
	if code, stdout, stderr := runCLI("list", "--skampi", "nosuch"); code != 1 || stdout != "" ||
		stderr != "skampi: list --skampi: no SKaMPI function matches \"nosuch\" (skampi list --skampi shows them all)\n" {
		t.Errorf("no match: %d %q %q", code, stdout, stderr)
	}
}
