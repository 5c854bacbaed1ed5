package inputs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
)

// check describes a suite's plan; one the default job cannot hold is said on stderr,
// with what to do, and the error says it was.
func TestCheck(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	suite := "description = \"two\\u001b[2J\"\n[[measurement]]\nname = \"a\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1, 8]\n"
	if err := os.WriteFile(file, []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := Check(CheckOptions{Suite: file, NP: 4, NPGiven: true, Stdout: &out, Stderr: &errb}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.Contains(text, `two\x1b[2J`) || !strings.Contains(text, "1B 8B") || !strings.Contains(text, "on 4 processes") || errb.Len() != 0 {
		t.Errorf("stdout:\n%s\nstderr:\n%s", text, errb.String())
	}
	out.Reset()
	err := Check(CheckOptions{Suite: file, NP: 1, Stdout: &out, Stderr: &errb})
	if !errors.Is(err, ErrCheckReported) || out.Len() != 0 || !strings.Contains(errb.String(), "skampi: check planned a job of 1 processes") {
		t.Errorf("np 1: %v\nstdout %q\nstderr %q", err, out.String(), errb.String())
	}
}

// check at a process count where a size outgrows the cap: the sizes column lists the
// sizes measured, and the note says which size was left out and why.
func TestCheckShowsSizesLeftOut(t *testing.T) {
	withMemory(t, 0, false)
	var out, errb bytes.Buffer
	if err := Check(CheckOptions{Suite: "pt2pt", NP: 64, NPGiven: true, Stdout: &out, Stderr: &errb}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	var row string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, " Exchange ") {
			row = line
		}
	}
	note := `note: measurement "Exchange": 4MiB dropped at 64 processes: needs 512MiB per rank, cap 256MiB (a suite that sets buffer measures them)`
	if !strings.Contains(row, "1MiB") || strings.Contains(row, "4MiB") || !strings.Contains(text, note) {
		t.Errorf("row %q\n%s", row, text)
	}
}

// check names, beneath the plan, each measurement whose operation this binary cannot
// run, why, and how many points the run will record as denied; the rest of the plan
// is described as ever.
func TestCheckRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.toml")
	suite := "[[measurement]]\nname = \"put\"\nop = \"Shmem_Put\"\nsizes = [8, 64]\n" +
		"[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1, 8]\n"
	if err := os.WriteFile(file, []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	why := "this skampi was built without OpenSHMEM (an MPICH build): build it against Open MPI with shmem.h, `make build`"
	var out, errb bytes.Buffer
	o := CheckOptions{Suite: file, NP: 2, NPGiven: true, Stdout: &out, Stderr: &errb, Refused: func(in ops.Info) string {
		if in.SHMEM {
			return why
		}
		return ""
	}}
	if err := Check(o); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	want := "refused: Shmem_Put (2 point(s), measurement(s) 1): " + why + "; the run records them as denied\n"
	if !strings.Contains(text, want) || strings.Count(text, "refused:") != 1 || !strings.Contains(text, "total: 4 points") {
		t.Errorf("stdout:\n%s", text)
	}
	out.Reset()
	o.Refused = nil
	if err := Check(o); err != nil || strings.Contains(out.String(), "refused") {
		t.Errorf("without a hook: %v\n%s", err, out.String())
	}
}

func TestNumberRanges(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{{nil, ""}, {[]int{4}, "4"}, {[]int{1, 2, 3, 7}, "1-3 7"}, {[]int{1, 3, 4, 6, 7, 8}, "1 3-4 6-8"}} {
		if got := numberRanges(c.in); got != c.want {
			t.Errorf("%v: %q, want %q", c.in, got, c.want)
		}
	}
}
