package tune

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

func runsSaying(comps map[string][]string, vars map[string]string) Result {
	return Result{Results: &report.Results{Runs: []record.Run{{MPIComponents: comps, MPIControlVars: vars}}}}
}

// A swept parameter of a component that never ran, or held at one value, is said to be
// not in effect; one whose component ran and whose value moved is not; results whose
// headers do not say what ran are not judged.
func TestNotInEffect(t *testing.T) {
	tn := &inputs.Tune{Params: []inputs.Param{
		{Kind: "mca", Name: "btl_vader_eager_limit", Values: []string{"4096", "8192"}},
		{Kind: "mca", Name: "pml_ucx_priority", Values: []string{"1", "2"}},
		{Kind: "mca", Name: "coll_tuned_use_dynamic_rules", Values: []string{"0", "1"}},
		{Kind: "env", Name: "UCX_TLS", Values: []string{"a", "b"}},
	}}
	noVader := map[string][]string{"btl": {"self", "tcp"}, "pml": {"ob1"}, "coll": {"tuned"}}
	rs := []Result{
		runsSaying(noVader, map[string]string{"btl_vader_eager_limit": "4096", "coll_tuned_use_dynamic_rules": "0"}),
		runsSaying(noVader, map[string]string{"btl_vader_eager_limit": "8192", "coll_tuned_use_dynamic_rules": "0"}),
	}
	got := strings.Join(notInEffect(tn, rs), "\n")
	for _, want := range []string{
		"btl_vader_eager_limit: not in effect: btl vader was not open in any run (btl: self, tcp)",
		"pml_ucx_priority: not in effect: pml ob1 carried every point",
		"coll_tuned_use_dynamic_rules: not in effect: the library used 0 in every run (the sweep asked for 0, 1)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if n := len(notInEffect(tn, rs)); n != 3 {
		t.Errorf("%d not in effect, want 3 (UCX_TLS is not an MCA parameter)", n)
	}
	vader := map[string][]string{"btl": {"self", "vader"}, "pml": {"ucx"}, "coll": {"tuned"}}
	rs = []Result{
		runsSaying(vader, map[string]string{"btl_vader_eager_limit": "4096", "coll_tuned_use_dynamic_rules": "0"}),
		runsSaying(vader, map[string]string{"btl_vader_eager_limit": "8192", "coll_tuned_use_dynamic_rules": "1"}),
	}
	if got := notInEffect(tn, rs); len(got) != 0 {
		t.Errorf("every component ran and every value moved, yet: %v", got)
	}
	// Open MPI 5: the shared-memory BTL is sm, btl_vader_* its synonyms.
	sm := map[string][]string{"btl": {"self", "sm"}, "pml": {"ucx"}, "coll": {"tuned"}}
	rs = []Result{
		runsSaying(sm, map[string]string{"btl_vader_eager_limit": "4096", "coll_tuned_use_dynamic_rules": "0"}),
		runsSaying(sm, map[string]string{"btl_vader_eager_limit": "8192", "coll_tuned_use_dynamic_rules": "1"}),
	}
	if got := notInEffect(tn, rs); len(got) != 0 {
		t.Errorf("btl sm is vader's new name, yet: %v", got)
	}
	if got := notInEffect(tn, []Result{runsSaying(nil, nil)}); len(got) != 0 {
		t.Errorf("headers that do not say what ran are judged: %v", got)
	}
}
