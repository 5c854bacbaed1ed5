//go:build mpi

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A built-in suite run with flags over it: every point at the sizes given, and the
// run header and the suite.toml the directory keeps say what was overridden.
func TestRunBuiltinOverridden(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r")
	cmd := command(binary, "run", "-i", "quick", "--sizes", "8,64", "--min-repetitions", "2", "--max-repetitions", "4", "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	res := readResults(t, out)
	if len(res.Runs) != 1 {
		t.Fatalf("%d run headers", len(res.Runs))
	}
	run := res.Runs[0]
	if run.Suite != "quick" || !strings.HasPrefix(run.SuiteSource, "builtin:quick overridden by: --max-repetitions 4 --min-repetitions 2 --sizes 8,64") {
		t.Errorf("suite %q, suite_source %q", run.Suite, run.SuiteSource)
	}
	for _, p := range res.Points {
		if p.MsgBytes != 8 && p.MsgBytes != 64 && p.MsgBytes != 0 {
			t.Errorf("%s at %d B: not a size given", p.Measurement, p.MsgBytes)
		}
	}
	text, err := os.ReadFile(filepath.Join(out, "suite.toml"))
	if err != nil || !strings.HasPrefix(string(text), "# builtin:quick, overridden by: --max-repetitions 4 --min-repetitions 2 --sizes 8,64") {
		t.Errorf("suite.toml: %v\n%s", err, text)
	}
}
