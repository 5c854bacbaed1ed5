package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/tune"
)

// recordedLaunch is a launcher that starts no MPI: each launch writes recorded
// results under a run id of its own; during is called inside the first launch.
func recordedLaunch(t *testing.T, during func()) tune.Launcher {
	data, err := os.ReadFile("../../plots/testdata/sendrecv-np2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	return func(l inputs.Launch, suite, dir string, resume bool) (int, error) {
		if n++; n == 1 && during != nil {
			during()
		}
		id := fmt.Sprintf("%016x", n)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return 0, err
		}
		return 0, os.WriteFile(filepath.Join(dir, "results.jsonl"), bytes.ReplaceAll(data, []byte("27791a84ce09b1d2"), []byte(id)), 0o644)
	}
}

func tuneOpts(file, out string, launch tune.Launcher) tune.RunOptions {
	var b bytes.Buffer
	return tune.RunOptions{File: file, Dir: out, Stdout: &b, Stderr: &b, Launch: launch,
		Catalogs: func(*inputs.Tune) (tune.Catalog, tune.Catalog) { return nil, nil }}
}

const envTune = `[[measurement]]
name = "sr"
op = "Sendrecv_Shift"
sizes = [8, 64]
[env]
SKAMPI_TUNE_TEST = ["a", "b"]
`

// A second tune into a directory a first one is sweeping is refused, in one line,
// and launches nothing; once the first has ended the directory is free.
func TestTuneOneRunPerDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.toml")
	os.WriteFile(file, []byte(envTune), 0o644)
	out := filepath.Join(t.TempDir(), "sweep")
	var code int
	var stderr string
	second := tuneOpts(file, out, recordedLaunch(t, func() { t.Error("the second run launched") }))
	second.Resume = true
	first := tuneOpts(file, out, recordedLaunch(t, func() {
		if err := tune.Run(second); err == nil || !strings.Contains(err.Error(), "is in use by another skampi tune") {
			t.Errorf("second run: %v", err)
		}
		code, _, stderr = runCLI("tune", "-i", file, "-o", out, "--resume")
	}))
	if err := tune.Run(first); err != nil {
		t.Fatal(err)
	}
	if code != 1 || !strings.HasPrefix(stderr, "skampi: "+out+" is in use by another skampi tune (process ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("second run: exit %d, %q", code, stderr)
	}
	again := tuneOpts(file, out, recordedLaunch(t, nil))
	again.Resume = true
	if err := tune.Run(again); err != nil {
		t.Errorf("after the first: %v", err)
	}
}

// Whatever is wrong, the user reads one line per problem, each with its place in a
// file or the flag at fault, never a Go panic; flag mistakes exit with status 2.
func TestTuneErrorsOneLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	var grid strings.Builder
	grid.WriteString("suite = \"quick\"\n[env]\n")
	for i := 0; i < 11; i++ {
		fmt.Fprintf(&grid, "V%02d = [1, 2]\n", i)
	}
	good := write("good.toml", envTune)
	big := write("big.toml", grid.String())
	write("s.toml", "[[measurement]]\nname = \"b\"\nop = \"Bcats\"\nsizes = [1]\n[[measurement]]\nname = \"c\"\nop = \"Bcast\"\nsizes = [1]\nwindow = 0\n")
	badSuite := write("bad-suite.toml", "suite = \"s.toml\"\nnp = [2, 4]\n")
	names := write("names.toml", envTune+"\"A=B\" = [1]\n")
	np := write("np.toml", "np = [1, 2]\n"+envTune)
	notDir := write("file", "")
	empty := t.TempDir()
	ioDirs := write("io.toml", "suite = \"io\"\n[suite_settings]\nio_dir = [\""+empty+"\", \""+notDir+"\"]\n")
	pos := regexp.MustCompile(`^\S+:\d+:\d+: \S`)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-i", big, "-o", empty}, 1, big + ":3:1: the grid makes 10,240 launches (env.V00 2 × "},
		{[]string{"-i", badSuite, "-o", empty}, 1, badSuite + ":1:9: suite: s.toml does not parse (2 errors)"},
		{[]string{"-i", names, "-o", empty}, 1, names + `:7:1: env: "A=B" is not an environment variable name`},
		{[]string{"-i", np, "-o", empty}, 1, np + `:1:7: np: the suite does not run on 1 process: measurement "sr": Sendrecv_Shift needs at least 2 processes`},
		{[]string{"-i", ioDirs, "-o", empty}, 1, fmt.Sprintf("%s:3:%d: suite_settings: with io_dir = %s (combination openmpi_np2_io_dir-", ioDirs, len(`io_dir = ["`+empty+`", `)+1, notDir)},
		{[]string{"-i", good, "-o", empty, "--force"}, 2, "skampi: tune: --force takes a sweep"},
		{[]string{"-i", good, "-o", empty, "--resume", "--verdict-only"}, 2, "skampi: tune: --resume launches, --verdict-only does not"},
		{[]string{"-i", good, "-o", notDir}, 2, "skampi: tune: -o " + notDir + ": not a directory"},
		{[]string{"-i", good, "-o", filepath.Join(empty, "none"), "--verdict-only"}, 2, "skampi: tune: --verdict-only: -o " + filepath.Join(empty, "none") + " does not exist"},
		{[]string{"-i", good, "-o", empty, "--verdict-only"}, 2, "skampi: tune: " + empty + " holds no sweep"},
		{[]string{"-i", good, "-o", empty, "--segment-sizes", "4KiB"}, 2, "skampi: tune: --segment-sizes: only with --collectives"},
		{[]string{"--collectives", "Bcast", "-o", empty, "--segment-sizes", "0,4x"}, 2, `skampi: tune: --segment-sizes: "4x": a size from 0 to 1GiB`},
		{[]string{"--collectives", "Bcast", "-o", empty, "--segment-sizes", "0,4KiB,4096"}, 2, `skampi: tune: --segment-sizes: "4096" given twice`},
	} {
		code, stdout, stderr := runCLI(append([]string{"tune"}, c.args...)...)
		if code != c.code || !strings.HasPrefix(stderr, c.want) || strings.Contains(stderr, "goroutine") {
			t.Errorf("%v: exit %d\n%s%s", c.args, code, stdout, stderr)
		}
		for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
			if !pos.MatchString(line) && !strings.HasPrefix(line, "skampi: tune: ") && line != "Run 'skampi tune --help' for usage." {
				t.Errorf("%v: a line without a place or a flag: %q", c.args, line)
			}
		}
	}
}

// --verdict-only judges only a sweep of this tune file and this text of its suite;
// --force takes another's.
func TestTuneVerdictOnlyChecksSweep(t *testing.T) {
	dir := t.TempDir()
	file, suite := filepath.Join(dir, "t.toml"), filepath.Join(dir, "s.toml")
	os.WriteFile(file, []byte("suite = \"s.toml\"\n[env]\nSKAMPI_TUNE_TEST = [\"a\", \"b\"]\n"), 0o644)
	os.WriteFile(suite, []byte("[[measurement]]\nname = \"sr\"\nop = \"Sendrecv_Shift\"\nsizes = [8, 64]\n"), 0o644)
	out := filepath.Join(dir, "sweep")
	if err := tune.Run(tuneOpts(file, out, recordedLaunch(t, nil))); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(suite, []byte("[[measurement]]\nname = \"sr\"\nop = \"Sendrecv_Shift\"\nsizes = [8, 64, 512]\n"), 0o644)
	code, _, stderr := runCLI("tune", "-i", file, "-o", out, "--verdict-only")
	if code != 2 || !strings.HasPrefix(stderr, "skampi: tune: the suite "+suite+" has changed since the sweep in "+out+" started") {
		t.Errorf("edited suite: exit %d %q", code, stderr)
	}
	forced := tuneOpts(file, out, nil)
	forced.VerdictOnly, forced.Force = true, true
	if err := tune.Run(forced); err != nil {
		t.Errorf("--force: %v", err)
	}
}

// A tune whose launcher starts no skampi (true), fails every launch (false) or is a
// script that fails, measures nothing: it exits 1 with the first launch's status,
// command and output, after one launch of each combination, and writes no verdict.
// A quoted launcher word reaches the launcher whole.
func TestTuneLauncherMeasuresNothing(t *testing.T) {
	dir := t.TempDir()
	file, bin, script := filepath.Join(dir, "t.toml"), filepath.Join(dir, "skampi"), filepath.Join(dir, "launch.sh")
	os.WriteFile(file, []byte(envTune), 0o644)
	os.WriteFile(bin, nil, 0o755) // never run: no launcher here starts it
	os.WriteFile(script, []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \""+dir+"/args\"\necho 'launch.sh: no MPI here' >&2\nexit 7\n"), 0o755)
	for _, c := range []struct {
		launcher string
		want     []string
	}{
		{"true", []string{"repeat 1 ended with status 0 but measured nothing (no point in ", "\n  command: SKAMPI_TUNE_TEST=a true -np 2 " + bin + " -i ", "/skampi.out): nothing"}},
		{"false", []string{"repeat 1 ended with status 1\n", "\n  command: SKAMPI_TUNE_TEST=a false -np 2 " + bin + " -i "}},
		{script + ` -x 'SKAMPI_A=x y' -n {np}`, []string{"repeat 1 ended with status 7\n",
			"\n  command: SKAMPI_TUNE_TEST=a " + script + " -x 'SKAMPI_A=x y' -n 2 " + bin + " -i ", "/skampi.out) ends:\n    launch.sh: no MPI here\n"}},
	} {
		out := filepath.Join(t.TempDir(), "sweep")
		code, stdout, stderr := runCLI("tune", "-i", file, "-o", out, "--launcher", c.launcher, "--openmpi-bin", bin)
		if code != 1 || !strings.HasPrefix(stderr, "skampi: tune: no launch measured anything: the first 2 launches, one of every combination, failed, so the sweep stopped short of its 10; the first, openmpi_np2_SKAMPI_TUNE_TEST-a repeat 1 ended with status ") {
			t.Errorf("--launcher %s: exit %d\n%s%s", c.launcher, code, stdout, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("--launcher %s: no %q in\n%s", c.launcher, w, stderr)
			}
		}
		if _, err := os.Stat(filepath.Join(out, "verdict.txt")); err == nil {
			t.Errorf("--launcher %s: a verdict was written", c.launcher)
		}
	}
	args, _ := os.ReadFile(filepath.Join(dir, "args"))
	if want := "-x\nSKAMPI_A=x y\n-n\n2\n" + bin + "\n-i\n"; !strings.HasPrefix(string(args), want) {
		t.Errorf("the script got %q, want %q...", args, want)
	}
	// What only a shell could do is refused before anything is made.
	out := filepath.Join(t.TempDir(), "sweep")
	code, _, stderr := runCLI("tune", "-i", file, "-o", out, "--launcher", "mpirun -H $(hostname)", "--openmpi-bin", bin)
	if code != 2 || !strings.HasPrefix(stderr, "skampi: tune: --launcher: $(hostname) at column 11 is command substitution, which needs a shell") {
		t.Errorf("$(...): exit %d %q", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused --launcher made -o DIR")
	}
}
