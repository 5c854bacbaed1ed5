package pipelined

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/runner"
)

// The family is registered whole: its operation in the catalogue with the family's
// name, its runner hooks, and its setting, scoped to its operation.
func TestRegistered(t *testing.T) {
	n := 0
	for _, in := range ops.All() {
		if in.Family == family {
			n++
			if got := runner.FamiliesOf(in); len(got) != 1 || got[0] != family {
				t.Errorf("%s: families %v, want [%s]", in.Name, got, family)
			}
			if !in.Rooted || in.Pattern != ops.PatternAll {
				t.Errorf("%s: not a rooted collective: %+v", in.Name, in)
			}
		}
	}
	if n == 0 {
		t.Fatal("no operation of the family in the catalogue")
	}
	if inputs.Defaults().Value(setting) == nil {
		t.Errorf("setting %s has no default", setting)
	}
}

// The setting is read from a suite, its default holds where it is not given, and it is
// an error for an operation outside the family and for a size under a byte.
func TestSetting(t *testing.T) {
	plan, err := inputs.Parse("t.toml", []byte(`
[[measurement]]
name = "a"
op = "Bcast_Pipelined_Chain"
sizes = [1024]
pipeline_segment = "64KiB"
[[measurement]]
name = "b"
op = "Bcast_Pipelined_Chain"
sizes = [1024]
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := segment(plan.Measurements[0].Settings); got != 64<<10 {
		t.Errorf("segment %d, want %d", got, 64<<10)
	}
	if got := segment(plan.Measurements[1].Settings); got != 8<<10 {
		t.Errorf("default segment %d, want %d", got, 8<<10)
	}
	const m = "[[measurement]]\nname = \"m\"\nsizes = [1024]\nop = "
	for suite, want := range map[string]string{
		m + `"Bcast"` + "\npipeline_segment = 1024\n":                  "does not use it",
		m + `"Bcast_Pipelined_Chain"` + "\npipeline_segment = 0\n":     "at least 1B",
		m + `"Bcast_Pipelined_Chain"` + "\npipeline_segment = \"x\"\n": "pipeline_segment",
	} {
		_, err := inputs.Parse("t.toml", []byte(suite))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one saying %q", suite, err, want)
		}
	}
}
