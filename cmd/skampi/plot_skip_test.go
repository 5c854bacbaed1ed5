package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
)

// zeroAtomics writes the SHMEM sample results with every atomic measured at 0 s (a
// timer too coarse for them, say): a valid file whose atomics make no figure.
func zeroAtomics(t *testing.T, withOthers bool) string {
	t.Helper()
	b, err := os.ReadFile(plotData + "shmem-np2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if op, _ := m["op"].(string); m["kind"] == "point" {
			in, known := ops.Lookup(op)
			atomic := known && in.AtomicRate
			if !atomic && !withOthers {
				continue
			}
			if atomic {
				for _, k := range []string{"time_s", "mean_s", "median_s", "min_s", "p10_s", "p90_s", "max_s", "stderr_s"} {
					m[k] = 0
				}
				m["samples_s"] = make([]float64, int(m["reps"].(float64)))
				delete(m, "ops_per_s") // a rate of no time is not written
			}
		}
		nb, _ := json.Marshal(m)
		out = append(out, string(nb))
	}
	file := filepath.Join(t.TempDir(), "zero-atomics.jsonl")
	if err := os.WriteFile(file, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// A figure its data cannot make is left out with one warning line naming it and why;
// the other figures are written and the status is 0. With no figure at all, 1.
func TestPlotSkipsAFigureItCannotDraw(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, err := execVerbCmd(newPlotCmd(), "", "-o", dir, "--format", "png,svg", zeroAtomics(t, true))
	if err != nil {
		t.Fatalf("status %d: %v\n%s", verbExitCode(err), err, stderr)
	}
	warnings := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "skampi: warning: atomics figure ") ||
		!strings.Contains(warnings[0], "not drawn: no bar to draw: every atomic's time is 0") {
		t.Errorf("stderr:\n%s", stderr)
	}
	written := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(written) < 4 || strings.Contains(stdout, "atomics") {
		t.Errorf("written:\n%s", stdout)
	}
	for _, p := range written {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}

	stdout, stderr, err = execVerbCmd(newPlotCmd(), "", "-o", t.TempDir(), zeroAtomics(t, false))
	if verbExitCode(err) != 1 || stdout != "" || !strings.Contains(err.Error(), "no figure could be drawn: 1 skipped") ||
		!strings.Contains(stderr, "skampi: warning: atomics figure ") {
		t.Errorf("nothing drawable: %v\nstdout %q\nstderr %q", err, stdout, stderr)
	}
}

// report writes its page without the figure, says so on the page and in one warning
// line, and exits 0.
func TestReportSkipsAFigureItCannotDraw(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.html")
	stdout, stderr, err := execVerbCmd(newReportCmd(), "", "-o", out, zeroAtomics(t, true))
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.HasPrefix(stdout, out+": 1 run(s)") || strings.Count(stderr, "\n") != 1 ||
		!strings.HasPrefix(stderr, "skampi: warning: atomics figure ") {
		t.Errorf("stdout %q\nstderr %q", stdout, stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "Not drawn, their data cannot make a figure") || strings.Count(string(page), "<svg") < 2 {
		t.Errorf("page: %d figures, no note of the one not drawn", strings.Count(string(page), "<svg"))
	}
}
