package main

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

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
		"b vs a (baseline): Mann-Whitney U test on the repetitions, alpha 0.05\n",
		"\nPingpong_Send_Recv, 2 processes\n",
		"     4 KiB      9.663 µs ± 14%    12.718 µs ± 6.7%    +31.6%   (p=0.000 n=32+32)\n",
		"       1 B     1.176 µs ± 4.0%     1.232 µs ± 2.9%         ~    (p=0.631 n=32+9)\n",
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
	for _, want := range []string{"b vs ../../report/testdata/pt2pt-a (baseline): Mann-Whitney U test on the repetitions, alpha 0.01\n",
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
		{[]string{"--alpha", "1.5", pt2ptA, pt2ptB}, 2, "--alpha must be between 0 and 1, got 1.5"},
		{[]string{"--metric", "latency", pt2ptA, pt2ptB}, 2, `--metric must be time or bandwidth, got "latency"`},
		{[]string{pt2ptA, "nope=/no/such.jsonl"}, 1, "nope: open /no/such.jsonl: no such file or directory"},
		{[]string{"a=" + pt2ptA, "c=../../report/testdata/cskampi.sko"}, 1, "a and c have no point in common: points are matched by measurement, op, message size and process count"},
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
