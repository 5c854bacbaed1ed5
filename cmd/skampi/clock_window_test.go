//go:build mpi

package main

// Integration tests: the clock check, window synchronisation, the one-line run and a
// small tune sweep.

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// clock check on one host: every rank shares the machine's clock, so a residual can
// only be the measurement's own error: half the fastest round trip plus the model's.
// The model's estimate (3 standard errors) assumes steady latency noise; a shared VM
// is burstier, so the bound allows twice that plus 5 µs.
func TestClockCheck(t *testing.T) {
	for _, alg := range []string{"hca", "skampi"} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "clock", "check", "--np", "2", "--algorithm", alg,
			"--duration", "1s", "--interval", "500ms", "-o", out)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", alg, code, stdout, stderr)
		}
		if !strings.Contains(stdout, alg+" synchronisation of 2 processes") || !strings.Contains(stdout, "drift") {
			t.Errorf("%s: output\n%s", alg, stdout)
		}
		f, err := os.Open(filepath.Join(out, "clock.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := report.ReadJSONL(f, "clock.jsonl")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Runs) != 1 || len(res.Clocks) != 3 { // rank 1 at 0, 0.5 and 1 s
			t.Fatalf("%s: %d runs, %d clock records", alg, len(res.Runs), len(res.Clocks))
		}
		for _, c := range res.Clocks {
			if bound := c.RTTS/2 + 2*c.UncertaintyS + 5e-6; math.Abs(c.ResidualS) > bound || c.RTTS <= 0 || c.Algorithm != alg {
				t.Errorf("%s: rank %d at %.1f s: residual %g beyond %g (%+v)", alg, c.Rank, c.ElapsedS, c.ResidualS, bound, c)
			}
		}
	}
}

// Window synchronisation: repetitions start at agreed instants on a global clock;
// late or overrunning ones are counted as discarded, never as measured.
func TestWindowSync(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 4
max_repetitions = 8
sync = "window"

[[measurement]]
name = "allreduce"
op = "Allreduce"
sizes = [8, 4096]

[[measurement]]
name = "ping-pong"
op = "Pingpong_Send_Recv"
sizes = [8]
`)
	for _, np := range []int{2, 4} {
		out := t.TempDir()
		if code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", suite, "-o", out); code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Points) != 3 {
			t.Fatalf("np %d: %d points", np, len(res.Points))
		}
		for _, p := range res.Points {
			if p.Sync != "window" || p.WindowS == nil || p.InvalidFraction == nil || len(p.SamplesS) != p.Reps {
				t.Errorf("np %d: %s: %+v", np, p.Op, p)
			}
			// A valid repetition (one that started in its window) and its time, or the
			// flags that say none did (no_valid_reps, discard_cap: a busy machine).
			effect(t, &p, record.EffectTime, fmt.Sprintf("np %d: %s", np, p.Op))
		}
	}
}

// The one-line form runs without a file: the points asked for, the header naming the
// command-line suite, and the same command with --resume finding them all there.
func TestRunOneLine(t *testing.T) {
	out := t.TempDir()
	args := []string{"run", "Pingpong_Send_Recv", "Bcast", "--sizes", "1,4KiB", "--method", "barrier,ack",
		"--min-repetitions", "3", "--max-repetitions", "5", "-o", out}
	if code, stdout, stderr := skampi(t, nil, args...); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	if len(res.Points) != 2+2*2 || res.Runs[0].Suite != "command-line" || res.Runs[0].SuiteSource != "command line" {
		t.Fatalf("%d points, suite %q from %q", len(res.Points), res.Runs[0].Suite, res.Runs[0].SuiteSource)
	}
	for _, p := range res.Points {
		// The ack method subtracts the acknowledgement's way, measured apart: on a busy
		// machine a result may go negative, and must then be flagged.
		at := p.Op + " " + p.Method
		effect(t, &p, record.EffectTime, at)
		if p.Reps > 5 || p.Op == "Bcast" && p.Method == "" {
			t.Errorf("%s %d B: %d reps, method %q", at, p.MsgBytes, p.Reps, p.Method)
		}
		// At least min_repetitions, or a cap's flag (few_repetitions) says why not.
		if err := record.ExplainedIf(&p, record.EffectRepetitions, p.Reps >= 3); err != nil {
			t.Errorf("%s: %v", at, err)
		}
	}
	code, stdout, stderr := skampi(t, nil, append(args, "--resume")...)
	if code != 0 || !strings.Contains(stdout, "resumed: 6 points were already in") {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// A small sweep end to end: two eager limits, each in its own directory with the MCA
// variable in its run header, a verdict with one breakpoint per setting, the report;
// run again with --resume it launches nothing.
func TestTuneSweep(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.toml")
	os.WriteFile(file, []byte(`[settings]
min_repetitions = 4
max_repetitions = 8
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = { from = "512B", to = "64KiB", step = "*2" }
[mca]
btl_vader_eager_limit = [4096, 16384]
`), 0o644)
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := skampi(t, nil, "tune", "-i", file, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, v := range []string{"4096", "16384"} {
		res := readResults(t, filepath.Join(out, "openmpi_np2_btl_vader_eager_limit-"+v, "rep1"))
		if len(res.Points) != 8 || res.Runs[0].Env["OMPI_MCA_btl_vader_eager_limit"] != v {
			t.Errorf("%s: %d points, env %v", v, len(res.Points), res.Runs[0].Env)
		}
	}
	for _, want := range []string{"baseline btl_vader_eager_limit=4096", "breakpoints", "report.html"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// The verdict ends with one recommendation: for every size, or the baseline's.
	if !regexp.MustCompile(`(?m)^recommendation( for every size)?: `).MatchString(stdout) {
		t.Errorf("output lacks a recommendation line:\n%s", stdout)
	}
	if b, err := os.ReadFile(filepath.Join(out, "report.html")); err != nil || !bytes.Contains(b, []byte("Tuning verdict")) {
		t.Errorf("report: %v", err)
	}
	code, stdout, _ = skampi(t, nil, "tune", "-i", file, "-o", out, "--resume")
	if code != 0 || strings.Count(stdout, "already measured") != 2*inputs.DefaultTuneRepeats {
		t.Errorf("resume: exit %d\n%s", code, stdout)
	}
}
