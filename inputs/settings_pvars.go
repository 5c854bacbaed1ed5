package inputs

import (
	"fmt"
	"regexp"
	"slices"
)

// pvarName: MPI_T names are identifiers (Open MPI: pml_ob1_unexpected_msgq_length;
// MPICH: its own); anything else is a typo the library would silently not offer.
var pvarName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var pvarSettingList = []setting{
	{"pvars", `the library's performance variables (MPI_T) read on rank 0 when each point is prepared and after its last repetition, never inside them, recorded per point (pvars): a list of names such as ["pml_ob1_unexpected_msgq_length"], or "all"; counters as their change over the point, levels and sizes as their value after it (default: none)`, func(s *Settings, v any) error {
		if str, ok := v.(string); ok {
			if str != "all" {
				return fmt.Errorf(`must be "all" or a list of names, got %q`, str)
			}
			s.PVars = []string{"all"}
			return nil
		}
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf(`must be "all" or a list of names such as ["pml_ob1_unexpected_msgq_length"], got %s`, typeName(v))
		}
		if len(arr) == 0 {
			return fmt.Errorf(`the list of names is empty: it reads nothing (leave pvars out, or name variables, or "all")`)
		}
		var names []string
		for i, e := range arr {
			n, ok := e.(string)
			if !ok || !pvarName.MatchString(n) {
				return fmt.Errorf("name %d: %v is not a performance variable's name", i+1, e)
			}
			if n == "all" && len(arr) > 1 {
				// "all" reads every variable already: the other names would change nothing.
				return fmt.Errorf(`name %d: "all" is every variable the library offers: give "all" alone, or names without it`, i+1)
			}
			if j := slices.Index(names, n); j >= 0 {
				return fmt.Errorf("name %d: %q is listed twice (names %d and %d)", i+1, n, j+1, i+1)
			}
			names = append(names, n)
		}
		s.PVars = names
		return nil
	}},
}
