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
		var names []string
		for i, e := range arr {
			n, ok := e.(string)
			if !ok || !pvarName.MatchString(n) {
				return fmt.Errorf("name %d: %v is not a performance variable's name", i+1, e)
			}
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		s.PVars = names
		return nil
	}},
}
