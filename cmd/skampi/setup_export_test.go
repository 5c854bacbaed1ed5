//go:build mpi

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// A run of one operation under three timing methods, end to end: the terminal table
// and results.sko name every method, the gobench export of the run's directory has a
// benchmark per method and size, and plot, report and export read the directory.
func TestMethodsInEveryExport(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "run", "Pingpong_Send_Recv", "Put", "--method", "lock_all,lock,fence", "--sizes", "8,64",
		"--min-repetitions", "3", "--max-repetitions", "5", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"one-way [us] round trip [us]", " lock_all ", " lock ", " fence ", "rma_window=allocate"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("terminal lacks %q:\n%s", want, stdout)
		}
	}
	sko, _ := os.ReadFile(filepath.Join(out, "results.sko"))
	for _, m := range []string{"lock_all", "lock", "fence"} {
		if bytes.Count(sko, []byte(`begin result "Put method=`+m+`"`)) != 1 {
			t.Errorf("results.sko: no one block of %s:\n%s", m, sko)
		}
	}
	code, bench, stderr := skampi(t, nil, "export", out, "--format", "gobench")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	names := map[string]bool{}
	r := benchfmt.NewReader(strings.NewReader(bench), "bench.txt")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			names[res.Name.String()] = true
		}
	}
	// Each name is the setup, then every setting the point records.
	has := func(prefix string) bool {
		for n := range names {
			if strings.HasPrefix(n, prefix+"/timer=global-loop/") {
				return true
			}
		}
		return false
	}
	for _, m := range []string{"lock_all", "lock", "fence"} {
		for _, b := range []string{"8", "64"} {
			if n := "Put/method=" + m + "/bytes=" + b + "/procs=2"; !has(n) {
				t.Errorf("no benchmark %s/... in %v", n, names)
			}
		}
	}
	if !has("Pingpong_Send_Recv/bytes=8/procs=2") || len(names) != 8 {
		t.Errorf("benchmarks %v", names)
	}
	figs := t.TempDir()
	if code, stdout, stderr := skampi(t, nil, "plot", out, "-o", figs); code != 0 || !strings.Contains(stdout, "latency-pt2pt-np2.png") {
		t.Errorf("plot DIR: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, _, stderr := skampi(t, nil, "report", out, "-o", filepath.Join(figs, "r.html")); code != 0 {
		t.Errorf("report DIR: exit %d: %s", code, stderr)
	}
}

// compare matches points by what they measured: the built-in quick suite ("ping-pong,
// blocking", "bandwidth" with window 16) and a one-line run of the same operations
// share every size they both measured. Two runs a side are too few to test, and a gate
// over them refuses to judge (exit 1).
func TestCompareBuiltinAgainstOneLine(t *testing.T) {
	suite, line := t.TempDir(), t.TempDir()
	for i := 0; i < 2; i++ {
		if code, stdout, stderr := skampi(t, nil, "-i", "quick", "-o", suite, "--append"); code != 0 {
			t.Fatalf("quick: exit %d\n%s\n%s", code, stdout, stderr)
		}
		code, stdout, stderr := skampi(t, nil, "run", "Pingpong_Send_Recv", "-m", "1:64KiB", "-o", line, "--append")
		if code != 0 {
			t.Fatalf("one line: exit %d\n%s\n%s", code, stdout, stderr)
		}
		code, stdout, stderr = skampi(t, nil, "run", "Bandwidth_Isend_Irecv", "-W", "16", "--sizes", "1KiB,4KiB", "-o", line, "--append")
		if code != 0 {
			t.Fatalf("one line: exit %d\n%s\n%s", code, stdout, stderr)
		}
	}
	code, stdout, stderr := skampi(t, nil, "compare", "suite="+suite, "line="+line)
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// Ping-pong: 1 B to 64 KiB by *8 in the suite, every power of two in the line: 6 in
	// common; bandwidth: 1 KiB and 4 KiB. Pingpong_Isend_Recv is only in the suite.
	for _, want := range []string{"\nping-pong, blocking (Pingpong_Send_Recv), 2 processes\n", "\nbandwidth (Bandwidth_Isend_Irecv), 2 processes\n",
		"(2+2 runs: not tested)", " 8 compared,"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("compare lacks %q:\n%s", want, stdout)
		}
	}
	code, _, stderr = skampi(t, nil, "compare", "--fail-above", "5%", "suite="+suite, "line="+line)
	if code != 1 || !strings.Contains(stderr, "no row of line vs suite could be tested") {
		t.Errorf("gate on 2+2 runs: exit %d\n%s", code, stderr)
	}
}
