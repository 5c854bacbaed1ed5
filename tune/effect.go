package tune

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skampi/skampi/inputs"
)

// frameworks whose components a run header lists (ops/mpi.LibraryView): an MCA
// parameter FRAMEWORK_COMPONENT_... belongs to that component.
var frameworks = []string{"pml", "btl", "mtl", "osc", "coll", "spml", "sshmem", "scoll", "atomic"}

// aliases: a component's other name. Open MPI 5 renamed btl/vader to btl/sm and keeps
// the btl_vader_* parameters as synonyms: a sweep of btl_vader_eager_limit works there
// though only sm may be listed open.
var aliases = map[string]string{"btl/vader": "sm", "btl/sm": "vader"}

// notInEffect says, first in a verdict, which swept MCA parameters the library did not
// use, from what the runs' headers say ran (MPI_T): a parameter of a component that was
// not open in any run ("btl_vader_eager_limit: not in effect: btl vader was not open in
// any run"), or one the library held at one value whatever the sweep asked. A sweep of
// such a parameter can only measure noise. Results written before headers said what
// ran are not judged here.
func notInEffect(t *inputs.Tune, rs []Result) []string {
	var out []string
	for _, p := range t.Params {
		if p.Kind != "mca" || len(p.Values) < 2 {
			continue
		}
		if why := componentAbsent(p.Name, rs); why != "" {
			out = append(out, p.Name+": not in effect: "+why)
			continue
		}
		if why := heldAt(p, rs); why != "" {
			out = append(out, p.Name+": not in effect: "+why)
		}
	}
	return out
}

// sweptParams counts the parameters the grid varies.
func sweptParams(t *inputs.Tune) int {
	n := 0
	for _, p := range t.Params {
		if len(p.Values) > 1 {
			n++
		}
	}
	return n
}

// componentAbsent: the parameter's component was open in no run that says what was.
func componentAbsent(name string, rs []Result) string {
	fw, rest, ok := strings.Cut(name, "_")
	comp, _, _ := strings.Cut(rest, "_")
	if !ok || comp == "" || comp == "base" || !slices.Contains(frameworks, fw) {
		return ""
	}
	var open []string
	said := false
	for _, r := range rs {
		for _, run := range r.Results.Runs {
			cs, ok := run.MPIComponents[fw]
			if !ok {
				continue
			}
			said = true
			if slices.Contains(cs, comp) || slices.Contains(cs, aliases[fw+"/"+comp]) {
				return ""
			}
			for _, c := range cs {
				if !slices.Contains(open, c) {
					open = append(open, c)
				}
			}
		}
	}
	if !said {
		return ""
	}
	slices.Sort(open)
	if fw == "pml" && len(open) == 1 {
		return fmt.Sprintf("pml %s carried every point", open[0])
	}
	return fmt.Sprintf("%s %s was not open in any run (%s: %s)", fw, comp, fw, strings.Join(open, ", "))
}

// heldAt: every run read the parameter through MPI_T and found one value, though the
// sweep asked for several (a value the library refused, or a name it ignores).
func heldAt(p inputs.Param, rs []Result) string {
	seen := map[string]bool{}
	for _, r := range rs {
		for _, run := range r.Results.Runs {
			v, ok := run.MPIControlVars[p.Name]
			if !ok {
				return "" // a run that does not say: nothing to judge by
			}
			seen[v] = true
		}
	}
	if len(seen) != 1 {
		return ""
	}
	for v := range seen {
		return fmt.Sprintf("the library used %s in every run (the sweep asked for %s)", v, strings.Join(p.Values, ", "))
	}
	return ""
}
