package main

import (
	"math"
	"strings"
	"testing"

	"github.com/skampi/skampi/report/compare"
)

// Every numeric flag of every verb refuses NaN, infinities and values outside its
// domain while parsing: exit 2 and one error naming the flag. The verbs that launch
// jobs get an extra argument or --print-suite, so that a value wrongly accepted ends
// in another usage error instead of a launch.
func TestNumericFlagsRefuseTheImpossible(t *testing.T) {
	a, b := "../../report/testdata/pt2pt-a.jsonl", "../../report/testdata/pt2pt-b.jsonl"
	for _, c := range []struct {
		flag string
		bad  []string
		args func(flag, v string) []string
	}{
		{"--fail-above", []string{"NaN%", "NaN", "Inf%", "+Inf", "-5%", "1000%", "5", "1e400", "five"},
			func(f, v string) []string { return []string{"compare", f, v, a, b} }},
		{"--alpha", []string{"NaN", "Inf", "-Inf", "0", "1", "-0.1", "1e400"},
			func(f, v string) []string { return []string{"compare", f, v, a, b} }},
		{"--np", []string{"NaN", "0", "-2", "1e3", "99999999999999999999"},
			func(f, v string) []string { return []string{"check", "-i", "quick", f, v} }},
		{"--np", []string{"NaN", "0", "-1", "1025", "2.5"},
			func(f, v string) []string { return []string{"run", "Pingpong_Send_Recv", f, v, "--print-suite"} }},
		{"--max-restarts", []string{"NaN", "-1", "1001"},
			func(f, v string) []string { return []string{"run", "Pingpong_Send_Recv", f, v, "--print-suite"} }},
		{"--runs", []string{"NaN", "0", "-1", "101"},
			func(f, v string) []string { return []string{"run", "Pingpong_Send_Recv", f, v, "--print-suite"} }},
		{"--np", []string{"NaN", "1", "1025"},
			func(f, v string) []string { return []string{"clock", "check", f, v, "extra"} }},
		{"--duration", []string{"NaN", "-1s", "25h", "10"},
			func(f, v string) []string { return []string{"clock", "check", f, v, "extra"} }},
		{"--interval", []string{"NaN", "0s", "-1s", "2h"},
			func(f, v string) []string { return []string{"clock", "check", f, v, "extra"} }},
		{"--np", []string{"NaN", "0", "2,-4", "2,x", "1025"},
			func(f, v string) []string { return []string{"startup", f, v, "extra"} }},
		{"--launches", []string{"NaN", "0", "-1", "10001"},
			func(f, v string) []string { return []string{"startup", f, v, "extra"} }},
		{"--timeout", []string{"NaN", "0s", "-1m", "25h"},
			func(f, v string) []string { return []string{"startup", f, v, "extra"} }},
		{"--np", []string{"NaN", "0", "2,0", "1025"},
			func(f, v string) []string { return []string{"tune", f, v, "extra"} }},
	} {
		for _, v := range c.bad {
			args := c.args(c.flag, v)
			code, _, stderr := runCLI(args...)
			if code != 2 || !strings.Contains(stderr, `for "`+c.flag+`" flag: `) || strings.Count(stderr, "\n") != 2 {
				t.Errorf("skampi %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
			}
		}
	}
}

// The values in range are taken as they were.
func TestNumericFlagsTakeTheirDomain(t *testing.T) {
	for _, args := range [][]string{
		{"check", "-i", "quick", "--np", "4"},
		{"run", "Pingpong_Send_Recv", "--np", "1024", "--runs", "100", "--max-restarts", "0", "--print-suite"},
	} {
		if code, _, stderr := runCLI(args...); code != 0 {
			t.Errorf("skampi %s: exit %d, %s", strings.Join(args, " "), code, stderr)
		}
	}
}

// The gate refuses a threshold that would judge nothing, whoever calls it.
func TestGateRefusesNaN(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), -0.05} {
		if err := (compare.Gate{FailAbove: f}).Valid(); err == nil {
			t.Errorf("threshold %g accepted", f)
		}
	}
	if err := (compare.Gate{FailAbove: 0.05}).Valid(); err != nil {
		t.Error(err)
	}
}
