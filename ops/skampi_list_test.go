package ops

import (
	"strings"
	"testing"
)

// The generated page carries every function and the counts.
func TestSkampiMarkdown(t *testing.T) {
	md := string(SkampiMarkdown())
	all := SkampiFuncs()
	if !strings.Contains(md, SkampiCountLine(all, len(all))+".") {
		t.Error("no count line")
	}
	for _, f := range all {
		if !strings.Contains(md, "| `"+f.Name+"` |") {
			t.Errorf("%s is not in the page", f.Name)
		}
	}
	if got := strings.Count(md, "\n| `"); got != len(all) {
		t.Errorf("%d rows, want %d", got, len(all))
	}
}
