package collrules

import (
	"fmt"
	"strings"
)

// ForceEnv is the environment that forces one algorithm for a collective, as a sweep
// launches each: Open MPI's forced algorithm only counts with dynamic rules on.
func ForceEnv(lib Library, coll string, ch Choice) ([]string, error) {
	c, err := Lookup(coll)
	if err != nil {
		return nil, err
	}
	switch lib {
	case OpenMPI:
		if c.OMPIID < 0 {
			return nil, fmt.Errorf("Open MPI's tuned component has no algorithms for %s", coll)
		}
		env := []string{"OMPI_MCA_coll_tuned_use_dynamic_rules=1",
			fmt.Sprintf("OMPI_MCA_coll_tuned_%s_algorithm=%d", coll, ch.ID)}
		if ch.Segmented && ch.SegSize > 0 {
			env = append(env, fmt.Sprintf("OMPI_MCA_coll_tuned_%s_algorithm_segmentsize=%d", coll, ch.SegSize))
		}
		return env, nil
	case MPICH:
		name := ch.Name
		if ch.IsDefault() {
			name = "auto"
		}
		return []string{fmt.Sprintf("MPIR_CVAR_%s_INTRA_ALGORITHM=%s", strings.ToUpper(coll), name)}, nil
	}
	return nil, fmt.Errorf("no algorithms for library %q", lib)
}

// ApplyEnv is the environment that makes the library read a rules file at path.
func ApplyEnv(lib Library, path string) []string {
	if lib == OpenMPI {
		return []string{"OMPI_MCA_coll_tuned_use_dynamic_rules=1", "OMPI_MCA_coll_tuned_dynamic_rules_filename=" + path}
	}
	return []string{"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=" + path}
}
