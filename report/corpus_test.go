package report

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden testdata/bad/*.problems files")

// Every result file in testdata/bad, read as a verb reads it, gives the problems (and
// the refusal, if any) its .problems file holds. Limits are lowered so that small files
// reach them: lines over 4 KiB, sources over 32 KiB or 50 lines.
func TestBadResultFiles(t *testing.T) {
	line, bytes, lines := MaxLineBytes, MaxSourceBytes, MaxSourceLines
	MaxLineBytes, MaxSourceBytes, MaxSourceLines = 4<<10, 32<<10, 50
	defer func() { MaxLineBytes, MaxSourceBytes, MaxSourceLines = line, bytes, lines }()
	files, _ := filepath.Glob("testdata/bad/*.jsonl")
	skos, _ := filepath.Glob("testdata/bad/*.sko")
	files = append(files, skos...)
	if len(files) < 25 {
		t.Fatalf("only %d bad files", len(files))
	}
	for _, file := range files {
		res, err := Source{Name: file}.Load(nil)
		var b strings.Builder
		var refused *Problem
		if err != nil && !errors.As(err, &refused) {
			t.Errorf("%s: %v", file, err)
			continue
		}
		for _, p := range res.Problems {
			fmt.Fprintln(&b, p)
		}
		if refused != nil {
			fmt.Fprintln(&b, "refused:", refused)
		}
		fmt.Fprintf(&b, "read: %d run(s), %d point(s), %d fault(s), %d clock(s)\n", len(res.Runs), len(res.Points), len(res.Faults), len(res.Clocks))
		golden := strings.TrimSuffix(file, filepath.Ext(file)) + ".problems"
		if *update {
			if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (go test ./report -run TestBadResultFiles -update writes it)", file, err)
			continue
		}
		if b.String() != string(want) {
			t.Errorf("%s:\n%s\nwant\n%s", file, b.String(), want)
		}
	}
}
