package familytest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// BadSuites checks that every suite in the family's testdata/bad is refused before
// anything runs with exactly the text of its .err file (each line naming the file, a
// line and a column), and that there is one.
func BadSuites(t *testing.T) {
	t.Helper()
	files, _ := filepath.Glob("testdata/bad/*.toml")
	if len(files) == 0 {
		t.Fatal("no bad suite")
	}
	for _, f := range files {
		_, err := inputs.Load(f)
		if err == nil {
			t.Errorf("%s: accepted", f)
			continue
		}
		want, rerr := os.ReadFile(strings.TrimSuffix(f, ".toml") + ".err")
		if rerr != nil {
			t.Fatal(rerr)
		}
		if got := err.Error() + "\n"; got != string(want) {
			t.Errorf("%s:\n%s\nwant:\n%s", f, got, want)
		}
	}
}
