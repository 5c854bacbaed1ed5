package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const plotData = "../../plots/testdata/"

// runPlot executes the plot verb alone, as root would.
func runPlot(stdin string, args ...string) (string, error) {
	out, _, err := execVerbCmd(newPlotCmd(), stdin, args...)
	return out, err
}

func TestPlotWritesEveryFigure(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "figs")
	out, err := runPlot("", "-o", dir, "--format", "png,svg", "--format", "pdf", "--errors", "p10-p90",
		"np2="+plotData+"quick-np2.jsonl", "np4="+plotData+"quick-np4.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// latency and bandwidth at 2 and 4 processes, scalability of 3 ops: 7 figures, 3 formats.
	if len(lines) != 21 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	magic := map[string]string{".png": "\x89PNG\r\n\x1a\n", ".svg": "<?xml", ".pdf": "%PDF"}
	for _, l := range lines {
		b, err := os.ReadFile(l)
		if err != nil || filepath.Dir(l) != dir || !bytes.HasPrefix(b, []byte(magic[filepath.Ext(l)])) {
			t.Errorf("%s: %v, starts %q", l, err, b[:min(len(b), 8)])
		}
	}
	for _, want := range []string{"latency-pt2pt-np2.png", "bandwidth-pt2pt-np4.pdf", "scalability-ping-pong-blocking.svg"} {
		if !strings.Contains(out, filepath.Join(dir, want)+"\n") {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
}

func TestPlotReadsStdin(t *testing.T) {
	data, err := os.ReadFile(plotData + "timers.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, err := runPlot(string(data), "-o", dir)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "latency-pt2pt-np2.png") + "\n" + filepath.Join(dir, "method-timer-Pingpong_Send_Recv-np2.png") + "\n"
	if out != want {
		t.Errorf("got\n%swant\n%s", out, want)
	}
}

func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	runOnly := filepath.Join(dir, "run-only.jsonl")
	os.WriteFile(runOnly, []byte(`{"kind":"run","run_id":"r","skampi_version":"v","nprocs":2,"start_time":"2026-01-02T03:04:05Z"}`+"\n"), 0o644)
	broken := filepath.Join(dir, "broken.jsonl")
	os.WriteFile(broken, []byte(`{"kind":"point","run_id":"r"}`+"\n"), 0o644)
	good := plotData + "timers.jsonl"
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--format", "gif", good}, 2, `--format: unknown format "gif" (known: png, svg, pdf)`},
		{[]string{"--format", "png,jpeg", good}, 2, `unknown format "jpeg"`},
		{[]string{"--errors", "minmax", good}, 2, `--errors: unknown error bars "minmax"`},
		{[]string{"--bogus", good}, 1, "unknown flag: --bogus"},
		{[]string{"-o", dir, runOnly}, 1, "no figure to draw: 0 point(s) in 1 run(s)"},
		{[]string{"-o", dir, filepath.Join(dir, "missing.jsonl")}, 1, "cannot read " + filepath.Join(dir, "missing.jsonl") + ": no such file or directory"},
		{[]string{"-o", dir, broken}, 1, "no figure to draw: 0 point(s) in 0 run(s)"}, // the bad record is listed on stderr
		{[]string{"-o", filepath.Join(runOnly, "sub"), good}, 1, "not a directory"},
	}
	for _, c := range cases {
		out, err := runPlot("", c.args...)
		if verbExitCode(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) || out != "" {
			t.Errorf("%v: code %d, err %v, out %q; want code %d and %q", c.args, verbExitCode(err), err, out, c.code, c.msg)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("failed runs wrote files: %v", entries)
	}
}
