package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportVerb(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.html")
	stdout, stderr, err := execVerbCmd(newReportCmd(), "", "a=../../report/testdata/pt2pt-a.jsonl",
		"b=../../report/testdata/pt2pt-b.jsonl", "-o", out, "--title", "two runs")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.HasPrefix(stdout, out+": 2 run(s), ") {
		t.Errorf("stdout %q", stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{"<title>two runs</title>", `id="comparison"`, "b vs a (baseline)", "geomean", "/ a"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Labelled sources are compared: overlays (a colour per label), plus a ratio figure
	// per compared measurement; not each run's own figures.
	if n := strings.Count(page, "<svg"); n < 4 || !strings.Contains(page, "— a<") || !strings.Contains(page, "— b<") {
		t.Errorf("%d figures", n)
	}
	if _, _, err := execVerbCmd(newReportCmd(), "", "../../report/testdata/pt2pt-a.jsonl", "--errors", "bars"); verbExitCode(err) != 2 {
		t.Errorf("bad --errors: %v", err)
	}
}

// stdin can be one of the compared sources: it is read once.
func TestReportFromStdin(t *testing.T) {
	a, err := os.ReadFile("../../report/testdata/pt2pt-a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "r.html")
	if _, stderr, err := execVerbCmd(newReportCmd(), string(a), "-", "b=../../report/testdata/pt2pt-b.jsonl", "-o", out); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	page, _ := os.ReadFile(out)
	if !strings.Contains(string(page), "b vs stdin (baseline)") {
		t.Error("no comparison with the source read from stdin")
	}
}

// Runs of different suites still make a report: each run's figures, and a line saying
// why they are not compared.
func TestReportRunsSharingNoPoint(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.html")
	stdout, stderr, err := execVerbCmd(newReportCmd(), "", "a=../../report/testdata/pt2pt-a.jsonl",
		"b=../../plots/testdata/sendrecv-np2.jsonl", "-o", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.HasPrefix(stdout, out+": 2 run(s), ") {
		t.Errorf("stdout %q", stdout)
	}
	b, _ := os.ReadFile(out)
	if page := string(b); !strings.Contains(page, "No comparison") || !strings.Contains(page, "a and b have no point in common") ||
		!strings.Contains(page, "Shmem_Sendrecv_Shift, Shmem_Sendrecv_Shift_Offset beside Sendrecv_Shift") {
		t.Errorf("page lacks the note or the figures")
	}
}
