package inputs

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
)

// skampi list without a command: a pattern keeps the matching names, a refused
// operation says why, no match is an error, a bad pattern and two lists are mistakes.
func TestList(t *testing.T) {
	var out bytes.Buffer
	refused := func(in ops.Info) string {
		if in.Name == "Pingpong_Send_Recv" {
			return "not here"
		}
		return ""
	}
	if err := List(ListOptions{Pattern: "pingpong_send_*", Refused: refused, Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(out.String(), "\n"); !strings.HasPrefix(lines[0], "Pingpong_Send_Recv ") ||
		!strings.Contains(lines[0], " [refused: not here] round trip") || strings.Count(out.String(), "refused") != 1 {
		t.Errorf("glob:\n%s", out.String())
	}
	out.Reset()
	if err := List(ListOptions{Pattern: "quick", Suites: true, Stdout: &out}); err != nil || !strings.Contains(out.String(), "quick\n") {
		t.Errorf("suites: %v %q", err, out.String())
	}
	if err := List(ListOptions{Pattern: "nosuch", Refused: refused, Stdout: &out}); err == nil ||
		err.Error() != `list: no operation matches "nosuch" (skampi list shows them all)` {
		t.Errorf("no match: %v", err)
	}
	for _, o := range []ListOptions{{Pattern: "[x"}, {Skampi: true, Suites: true}} {
		if err := o.Valid(); err == nil {
			t.Errorf("%+v is valid", o)
		}
	}
}
