package report

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// LoadLabelled names each run by its source's base label, reads stdin only for "-",
// and keeps each source's own results.
func TestLoadLabelled(t *testing.T) {
	data, err := os.ReadFile("testdata/pingpong.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	stdin := func() (io.Reader, error) { asked++; return bytes.NewReader(data), nil }
	var problems bytes.Buffer
	all, labels, each, err := LoadLabelled(ParseSources([]string{"runs/a=testdata/pingpong.jsonl"}), stdin, &problems)
	if err != nil || asked != 0 || len(each) != 1 || len(all.Runs) == 0 {
		t.Fatalf("%v, stdin read %d times, %d sources", err, asked, len(each))
	}
	for _, r := range all.Runs {
		if labels[r.RunID] != "a" && !strings.HasPrefix(labels[r.RunID], "a:") {
			t.Errorf("run %s labelled %q", r.RunID, labels[r.RunID])
		}
	}
	_, labels, _, err = LoadLabelled(ParseSources(nil), stdin, &problems)
	if err != nil || asked != 1 || len(labels) != 0 {
		t.Errorf("stdin: %v, read %d times, labels %v", err, asked, labels)
	}
	refused := errors.New("a terminal")
	if _, _, _, err := LoadLabelled(ParseSources(nil), func() (io.Reader, error) { return nil, refused }, &problems); err != refused {
		t.Errorf("a refused stdin: %v", err)
	}
	if _, _, _, err := LoadLabelled(ParseSources([]string{"testdata/none.jsonl"}), stdin, &problems); err == nil ||
		!strings.HasPrefix(err.Error(), "cannot read testdata/none.jsonl: ") {
		t.Errorf("a missing file: %v", err)
	}
}

// A run's -o directory stands for its results.jsonl, in every verb's sources; a
// directory without one is one clear error.
func TestLoadDirectory(t *testing.T) {
	data, err := os.ReadFile("testdata/pingpong.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/"+ResultsFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := Source{Name: "testdata/pingpong.jsonl"}.Load(nil)
	if err != nil {
		t.Fatal(err)
	}
	srcs := ParseSources([]string{dir + "/", "x=" + dir})
	if srcs[0].Label != dir || srcs[1].Label != "x" {
		t.Errorf("labels %q, %q", srcs[0].Label, srcs[1].Label)
	}
	for _, s := range srcs {
		got, err := s.Load(nil)
		if err != nil || len(got.Points) != len(want.Points) || len(got.Runs) != len(want.Runs) {
			t.Fatalf("%s: %v, %d points (want %d)", s.Name, err, len(got.Points), len(want.Points))
		}
	}
	empty := t.TempDir()
	_, err = Source{Name: empty}.Load(nil)
	if err == nil || err.Error() != empty+" is a directory without results.jsonl: name a result file, or the -o directory of a run" {
		t.Errorf("a directory without results: %v", err)
	}
	if _, _, _, err := LoadLabelled(ParseSources([]string{empty}), nil, io.Discard); err == nil || strings.Contains(err.Error(), "cannot read") {
		t.Errorf("LoadLabelled of a directory without results: %v", err)
	}
}
