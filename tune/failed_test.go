package tune

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// failingTune is a sweep of two combinations (X=a, the baseline, and X=b).
func failingTune(t *testing.T, repeats int) *inputs.Tune {
	t.Helper()
	tu, err := inputs.ParseTune("f.toml", fmt.Appendf(nil, "repeats = %d\n[[measurement]]\nname = \"sr\"\nop = \"Sendrecv_Shift\"\nsizes = [8]\n[env]\nX = [\"a\", \"b\"]\n", repeats))
	if err != nil {
		t.Fatal(err)
	}
	return tu
}

// A sweep in which no launch measured anything is an error, with the first launch in
// full: how it ended, the command that ran it, the end of its output. Once every
// combination has failed, it stops launching.
func TestSweepThatMeasuresNothing(t *testing.T) {
	for _, c := range []struct {
		name     string
		repeats  int
		code     int
		output   string
		launches int
		want     []string
	}{
		{"every launch fails", 5, 1, "line 1\nmpirun: not enough slots\n", 2, []string{
			"tune: no launch measured anything: the first 2 launches, one of every combination, failed, so the sweep stopped short of its 10; the first, openmpi_np2_X-a repeat 1 ended with status 1\n",
			"\n  command: X=a false -np 2 /b/skampi -i ",
			"/skampi.out) ends:\n    line 1\n    mpirun: not enough slots",
		}},
		{"a launcher that starts nothing", 5, 0, "", 2, []string{
			"the first, openmpi_np2_X-a repeat 1 ended with status 0 but measured nothing (no point in ",
			"\n  command: X=a false -np 2 ",
			"/skampi.out): nothing",
		}},
		{"one repeat", 1, 3, "", 2, []string{"tune: no launch measured anything: all 2 launches failed; the first, openmpi_np2_X-a repeat 1 ended with status 3\n"}},
		{"a long output", 1, 1, strings.Repeat("x\n", 100) + "the reason", 2, []string{strings.Repeat("    x\n", tailLines-1) + "    the reason"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			launches := 0
			launch := func(l inputs.Launch, suite, dir string, resume bool) (int, error) {
				launches++
				os.MkdirAll(dir, 0o755)
				os.WriteFile(filepath.Join(dir, LogName), []byte(c.output), 0o644)
				return c.code, nil
			}
			var out bytes.Buffer
			o := Options{Dir: t.TempDir(), Out: &out, Command: func(l inputs.Launch, suite, dir string, resume bool) []string {
				return launchArgs([]string{"false"}, "/b/skampi", l, suite, dir, resume)
			}}
			err := Sweep(failingTune(t, c.repeats), o, launch)
			if err == nil {
				t.Fatalf("no error\n%s", out.String())
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("no %q in\n%v", w, err)
				}
			}
			if launches != c.launches {
				t.Errorf("%d launches, want %d", launches, c.launches)
			}
			if strings.Count(err.Error(), "\n    ") > tailLines {
				t.Errorf("more than %d lines of output:\n%v", tailLines, err)
			}
		})
	}
}

// A sweep in which some launches measured keeps what they measured: each failure is
// named with its output file as it happens, and all of them at the end. When the
// baseline is what failed, the verdict is written but judges nothing, which is an
// error too.
func TestSweepPartlyFailed(t *testing.T) {
	for _, c := range []struct {
		fails        string // the value of X whose launches fail
		judged       bool
		wantLaunches string
	}{
		{"b", true, "tune: 5 of 10 launches failed: openmpi_np2_X-b repeat 1 (status 1), openmpi_np2_X-b repeat 2 (status 1),"},
		{"a", false, "tune: 5 of 10 launches failed: openmpi_np2_X-a repeat 1 (status 1),"},
	} {
		t.Run(c.fails, func(t *testing.T) {
			tu := failingTune(t, 5)
			dir := t.TempDir()
			launch := func(l inputs.Launch, suite, out string, resume bool) (int, error) {
				if l.Values[0].Value == c.fails {
					return 1, nil
				}
				fakeRun(t, out, fmt.Sprintf("%s-%d", l.Name, l.Repeat), 1, 1)
				return 0, nil
			}
			var out bytes.Buffer
			if err := Sweep(tu, Options{Dir: dir, Out: &out}, launch); err != nil {
				t.Fatal(err)
			}
			failed := filepath.Join(dir, "openmpi_np2_X-"+c.fails, "rep1")
			for _, w := range []string{
				"tune: openmpi_np2_X-" + c.fails + ", repeat 1: the launch ended with status 1 after 0s (its output: " + filepath.Join(failed, LogName) + ")",
				c.wantLaunches,
				"; the verdict is of what the others measured, the first failure in full:\nopenmpi_np2_X-" + c.fails + " repeat 1 ended with status 1\n  output: none",
			} {
				if !strings.Contains(out.String(), w) {
					t.Errorf("no %q in\n%s", w, out.String())
				}
			}
			res, err := Load(tu, dir)
			if err != nil {
				t.Fatal(err)
			}
			v, err := Judge(tu, res)
			if err != nil {
				t.Fatal(err)
			}
			if err := v.judgedNothing(); (err == nil) != c.judged {
				t.Errorf("judged nothing: %v", err)
			} else if err != nil && err.Error() != "tune: nothing was judged: the baseline has no results (X=a at 2 processes)" {
				t.Errorf("judged nothing: %v", err)
			}
		})
	}
}

// skampi tune over a sweep whose baseline failed writes the verdict of what was
// measured and exits with an error; when only another setting failed it succeeds.
func TestRunBaselineFailed(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f.toml")
	os.WriteFile(file, []byte("repeats = 2\n[[measurement]]\nname = \"sr\"\nop = \"Sendrecv_Shift\"\nsizes = [8]\n[env]\nX = [\"a\", \"b\"]\n"), 0o644)
	for _, fails := range []string{"a", "b"} {
		dir := filepath.Join(t.TempDir(), "sweep")
		var out bytes.Buffer
		err := Run(RunOptions{File: file, Dir: dir, Stdout: &out, Stderr: &out,
			Catalogs: func(*inputs.Tune) (Catalog, Catalog) { return nil, nil },
			Launch: func(l inputs.Launch, suite, out string, resume bool) (int, error) {
				if l.Values[0].Value == fails {
					return 2, nil
				}
				fakeRun(t, out, fmt.Sprintf("%s-%d", l.Name, l.Repeat), 1, 1)
				return 0, nil
			}})
		want := ""
		if fails == "a" {
			want = "tune: nothing was judged: the baseline has no results (X=a at 2 processes)"
		}
		if fmt.Sprint(err) != want && (err != nil || want != "") {
			t.Errorf("X=%s failing: %v, want %q", fails, err, want)
		}
		if _, err := os.Stat(filepath.Join(dir, "verdict.txt")); err != nil {
			t.Errorf("X=%s failing: no verdict: %v", fails, err)
		}
		if !strings.Contains(out.String(), "tune: 2 of 4 launches failed: openmpi_np2_X-"+fails+" repeat 1 (status 2)") {
			t.Errorf("X=%s failing: the failures not listed:\n%s", fails, out.String())
		}
	}
}

// A failed launch's command is a line sh would run the same way.
func TestShellLine(t *testing.T) {
	for _, c := range []struct {
		env, argv []string
		want      string
	}{
		{nil, []string{"/b/skampi", "--np", "2"}, "/b/skampi --np 2"},
		{[]string{"X=a b", "Y="}, []string{"mpirun", "-x", "A=x y", "it's", "$HOME"}, `X='a b' Y='' mpirun -x 'A=x y' "it's" '$HOME'`},
		{nil, []string{"A=b", "x"}, "'A=b' x"},
	} {
		if got := shellLine(c.env, c.argv); got != c.want {
			t.Errorf("%q %q: %s, want %s", c.env, c.argv, got, c.want)
		}
	}
}
