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
