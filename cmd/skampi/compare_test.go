package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/internal/aadata"
	"github.com/spf13/cobra"
)

const (
	pt2ptA = "../../report/testdata/pt2pt-a.jsonl"
	pt2ptB = "../../report/testdata/pt2pt-b.jsonl"
)

// execVerbCmd runs a verb's command as the root runs it (errors and usage silenced:
// run prints them), with stdin.
func execVerbCmd(c *cobra.Command, stdin string, args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	c.SetArgs(args)
	c.SetOut(&out)
	c.SetErr(&errb)
	c.SetIn(strings.NewReader(stdin))
	c.SilenceErrors, c.SilenceUsage = true, true
	err = c.Execute()
	return out.String(), errb.String(), err
}

func verbExitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	if err != nil {
		return 1
	}
	return 0
}

func TestCompareVerb(t *testing.T) {
	out, _, err := execVerbCmd(newCompareCmd(), "", "a="+pt2ptA, "b="+pt2ptB)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"b vs a (baseline): each run is one sample; no row has the runs a side the U test needs (4 at alpha 0.05): changes are shown, no significance is claimed\n",
		"\nPingpong_Send_Recv, 2 processes\n",
		"     4 KiB      9.663 µs ± 14%    12.718 µs ± 6.7%    +31.6%   (1+1 runs: not tested)¹\n",
		"   geomean ",
		"\ntotal b vs a: 9 rows, 9 compared, ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "   geomean "); n != 2 {
		t.Errorf("%d geomean lines, want one per measurement", n)
	}
	// Three sources: each compared with the first; stdin is a source too.
	data, _ := os.ReadFile(pt2ptB)
	out, _, err = execVerbCmd(newCompareCmd(), string(data), "--metric", "bandwidth", "--alpha", "0.01", pt2ptA, "b="+pt2ptB, "-")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"b vs ../../report/testdata/pt2pt-a (baseline): each run is one sample",
		"\nstdin vs ../../report/testdata/pt2pt-a (baseline)", "\nBandwidth_Isend_Irecv, 2 processes, bandwidth\n", " GB/s ± "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCompareVerbErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{pt2ptA}, 2, "compare needs at least two result files, the first being the baseline (got 1)"},
		{nil, 2, "compare needs at least two result files"},
		{[]string{"--metric", "latency", pt2ptA, pt2ptB}, 2, `--metric must be time or bandwidth, got "latency"`},
		{[]string{pt2ptA, "nope=/no/such.jsonl"}, 1, "nope: open /no/such.jsonl: no such file or directory"},
		{[]string{"a=" + pt2ptA, "c=../../report/testdata/cskampi.sko"}, 1, "a and c have no point in common: points are matched by operation, method, message size, process count"},
	}
	for _, c := range cases {
		_, stderr, err := execVerbCmd(newCompareCmd(), "", c.args...)
		if verbExitCode(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: code %d, %v; want %d, %q", c.args, verbExitCode(err), err, c.code, c.msg)
		}
		if strings.Contains(stderr, "Usage:") {
			t.Errorf("%v: the whole usage on stderr (main says the mistake and names --help)", c.args)
		}
	}
}

// aaFiles writes the 20 recorded runs of internal/aadata as two
// files of 10 runs each, every time of the second multiplied by scale (its bandwidths
// divided).
func aaFiles(t *testing.T, scale float64) (a, b string) {
	t.Helper()
	lines, err := aadata.Lines()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, b = filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	var bufs [2]bytes.Buffer
	runs := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(lines))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		id := r["run_id"].(string)
		if _, ok := runs[id]; !ok {
			runs[id] = len(runs)
		}
		side := 0
		if runs[id] >= 10 {
			side = 1
		}
		if side == 1 && r["kind"] == "point" {
			for k, v := range r {
				switch x := v.(type) {
				case float64:
					if strings.HasSuffix(k, "_s") {
						r[k] = x * scale
					} else if strings.HasSuffix(k, "_Bps") {
						r[k] = x / scale
					}
				case []any:
					if strings.HasSuffix(k, "_s") {
						for i := range x {
							x[i] = x[i].(float64) * scale
						}
					}
				}
			}
		}
		line, _ := json.Marshal(r)
		bufs[side].Write(append(line, '\n'))
	}
	if err := errors.Join(sc.Err(), os.WriteFile(a, bufs[0].Bytes(), 0o644), os.WriteFile(b, bufs[1].Bytes(), 0o644)); err != nil {
		t.Fatal(err)
	}
	return a, b
}

// --fail-above gates a nightly job: exit 5 on a significant regression above the
// threshold, 0 on an A/A comparison, 1 when the sides have too few runs to judge.
func TestCompareFailAbove(t *testing.T) {
	a, b := aaFiles(t, 1)
	out, stderr, err := execVerbCmd(newCompareCmd(), "", "--fail-above", "5%", "base="+a, "new="+b)
	if verbExitCode(err) != 0 || !strings.Contains(stderr, "compare: no significant regression above +5.0% in 20 tested rows") || !strings.Contains(out, "n=10+10") {
		t.Errorf("A/A: exit %d, %v\n%s%s", verbExitCode(err), err, stderr, out)
	}
	_, slow := aaFiles(t, 1.5)
	_, stderr, err = execVerbCmd(newCompareCmd(), "", "--fail-above", "0.05", "base="+a, "new="+slow)
	if verbExitCode(err) != 5 || !strings.Contains(stderr, "regression: op=Pingpong_Send_Recv msg_bytes=8 nprocs=2") ||
		!strings.Contains(err.Error(), "significant regression above +5.0%") {
		t.Errorf("50 %% slower: exit %d, %v\n%s", verbExitCode(err), err, stderr)
	}
	// A threshold above the change passes.
	if _, _, err = execVerbCmd(newCompareCmd(), "", "--fail-above", "80%", "base="+a, "new="+slow); err != nil {
		t.Errorf("50 %% slower, threshold 80 %%: %v", err)
	}
	_, _, err = execVerbCmd(newCompareCmd(), "", "--fail-above", "5%", "a="+pt2ptA, "b="+pt2ptB)
	if verbExitCode(err) != 1 || !strings.Contains(err.Error(), "no row of b vs a could be tested") {
		t.Errorf("single runs: exit %d, %v", verbExitCode(err), err)
	}
	// One label given to several files is one side of all their runs.
	out, _, err = execVerbCmd(newCompareCmd(), "", "base="+pt2ptA, "base="+pt2ptB, "new="+pt2ptA, "new="+pt2ptB)
	if err != nil || !strings.Contains(out, "(2+2 runs: not tested)") {
		t.Errorf("labels joined: %v\n%s", err, out)
	}
	for _, bad := range []string{"five", "5", "-1%"} { // and the rest in TestNumericFlagsRefuseTheImpossible
		if code, _, stderr := runCLI("compare", "--fail-above", bad, a, b); code != 2 {
			t.Errorf("--fail-above %s: exit %d, %s", bad, code, stderr)
		}
	}
}
