package job

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// A new run into a directory with results is refused, naming the run and the ways on,
// unless --append; an empty directory or one without results is taken as it is.
func TestCheckFresh(t *testing.T) {
	dir := t.TempDir()
	if err := checkFresh(dir, false); err != nil {
		t.Fatalf("empty: %v", err)
	}
	data, err := os.ReadFile("../report/testdata/pt2pt-a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "results.jsonl"), data, 0o644)
	err = checkFresh(dir, false)
	var ee *ExitError
	want := dir + " already holds run cb3feaa982186dd3 (9 points): --resume continues it, --append adds another run beside it, or choose another -o"
	if !errors.As(err, &ee) || ee.Code != 2 || err.Error() != want {
		t.Errorf("holds a run: %v", err)
	}
	if err := checkFresh(dir, true); err != nil {
		t.Errorf("--append: %v", err)
	}
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "results.jsonl"), []byte("hello\n"), 0o644)
	if err := checkFresh(other, true); err == nil || !strings.Contains(err.Error(), "not a result file") {
		t.Errorf("a foreign file, even with --append: %v", err)
	}
}

// The suite text is kept beside the results: suite.toml first; the same text again
// leaves it; another text goes to suite.RUNID.toml, never over the first; each copy's
// hash is the plan's.
func TestKeepSuite(t *testing.T) {
	dir := t.TempDir()
	parse := func(text string) *inputs.Plan {
		p, err := inputs.Parse("s.toml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := parse("[[measurement]]\nname = \"a\"\nop = \"Barrier\"\nsizes = [0]\n")
	b := parse("[[measurement]]\nname = \"b\"\nop = \"Barrier\"\nsizes = [0]\n")
	sum := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(data)
		return hex.EncodeToString(s[:])
	}
	for _, step := range []struct {
		plan *inputs.Plan
		run  string
	}{{a, "r1"}, {a, "r2"}, {b, "r3"}} {
		if err := keepSuite(dir, step.plan, step.run); err != nil {
			t.Fatal(err)
		}
	}
	if sum(filepath.Join(dir, "suite.toml")) != a.SHA256 || sum(filepath.Join(dir, "suite.r3.toml")) != b.SHA256 {
		t.Errorf("copies do not hold their suites")
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "suite*")); len(names) != 2 {
		t.Errorf("files %v, want suite.toml and suite.r3.toml", names)
	}
	if err := keepSuite("", a, "x"); err != nil {
		t.Errorf("no directory: %v", err)
	}
}
