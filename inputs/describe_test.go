package inputs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
