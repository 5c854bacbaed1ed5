//go:build mpi

package main

// The command line a CI job and an OSU user meet, on real runs: OSU's options, what a
// plain one-sided line measures, tune's check of component names.

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

// OSU's options on a real run: the sizes -m names, iterations from -i, the data check
// from -c in every record, and the suite kept in -o DIR saying how each was mapped.
func TestRunOSUOptions(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "run", "Pingpong_Send_Recv", "-m", "4:64", "-i", "50", "-x", "5", "-c",
		"--min-repetitions", "2", "--max-repetitions", "4", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	var sizes []int64
	for _, p := range res.Points {
		sizes = append(sizes, p.MsgBytes)
		if p.Iterations != 50 || !p.CheckData {
			t.Errorf("%d B: iterations %d, check_data %v", p.MsgBytes, p.Iterations, p.CheckData)
		}
		effect(t, &p, record.EffectTime, "OSU options")
	}
	if !slices.Equal(sizes, []int64{4, 8, 16, 32, 64}) || len(res.Faults) != 0 {
		t.Errorf("sizes %v, faults %+v", sizes, res.Faults)
	}
	kept, _ := os.ReadFile(filepath.Join(out, "suite.toml"))
	for _, want := range []string{"iterations = 50  # -i 50 (OSU)", "warmup = 1  # -x 5 (OSU)", "check_data = true  # -c (OSU's validation)"} {
		if !bytes.Contains(kept, []byte(want)) {
			t.Errorf("suite.toml lacks %q:\n%s", want, kept)
		}
	}
}

// A plain one-line Put is OSU's osu_put_latency (window 1), and says so; -W 8 is a
// bandwidth window.
func TestRunOneSidedLatencyDefault(t *testing.T) {
	for _, c := range []struct {
		args   []string
		window int
		note   bool
	}{{nil, 1, true}, {[]string{"-W", "8"}, 8, false}} {
		out := t.TempDir()
		args := append([]string{"run", "Put", "--sizes", "8,1KiB", "--min-repetitions", "2", "--max-repetitions", "4", "-o", out}, c.args...)
		code, stdout, stderr := skampi(t, nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", c.args, code, stdout, stderr)
		}
		if got := strings.Contains(stdout, "note: Put: window 1, latency: one operation and its completion at a time"); got != c.note {
			t.Errorf("%v: note shown %v\n%s", c.args, got, stdout)
		}
		res := readResults(t, out)
		for _, p := range res.Points {
			if max(p.Window, 1) != c.window {
				t.Errorf("%v: %d B: window %d, want %d", c.args, p.MsgBytes, p.Window, c.window)
			}
		}
		if len(res.Points) != 2 {
			t.Errorf("%v: %d points", c.args, len(res.Points))
		}
	}
}

// A component this Open MPI does not have is the tune file's mistake, with its
// position and what there is, found from ompi_info before anything launches.
func TestTuneUnknownComponent(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pml.toml")
	os.WriteFile(file, []byte("suite = \"quick\"\n[mca]\npml = [\"ob1\", \"ucxx\"]\n"), 0o644)
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := skampi(t, nil, "tune", "-i", file, "-o", out)
	want := file + ":3:15: mca.pml: no component ucxx (did you mean ucx?); this Open MPI has: "
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "ob1") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("-o %s was made: %v", out, err)
	}
}
