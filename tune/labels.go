package tune

import (
	"fmt"
	"strings"

	"github.com/skampi/skampi/inputs"
)

// Labels names each combination by what varies across the sweep.
func Labels(cs []inputs.Combination) map[string]string {
	vary := func(get func(inputs.Combination) string) bool {
		for _, c := range cs {
			if get(c) != get(cs[0]) {
				return true
			}
		}
		return false
	}
	libs := vary(func(c inputs.Combination) string { return c.Library })
	nps := vary(func(c inputs.Combination) string { return fmt.Sprint(c.NP) })
	varied := map[string]bool{}
	seen := map[string]string{}
	for _, c := range cs {
		for _, v := range c.Values {
			k := v.Param.Kind + "/" + v.Param.Name
			if old, ok := seen[k]; ok && old != v.Value {
				varied[k] = true
			}
			seen[k] = v.Value
		}
	}
	out := map[string]string{}
	for _, c := range cs {
		var parts []string
		if libs {
			parts = append(parts, c.Library)
		}
		if nps {
			parts = append(parts, fmt.Sprintf("np %d", c.NP))
		}
		for _, v := range c.Values {
			if varied[v.Param.Kind+"/"+v.Param.Name] {
				parts = append(parts, v.Param.Name+"="+v.Shown())
			}
		}
		if len(parts) == 0 {
			parts = []string{c.Name}
		}
		out[c.Name] = strings.Join(parts, ", ")
	}
	// The verdict tells combinations apart by label: two alike (values that contain
	// ", " and "=") would be judged as one.
	count := map[string]int{}
	for _, l := range out {
		count[l]++
	}
	for _, c := range cs {
		if count[out[c.Name]] > 1 {
			out[c.Name] += " [" + c.Name + "]"
		}
	}
	return out
}

// applyLines are the exact lines that give an application the recommended values
// (those that differ from the baseline's), each saying where it goes: an MCA
// parameter as a line of Open MPI's parameter file, as an environment variable and
// as an mpirun flag (any one of them does); a control or environment variable as an
// environment variable; a suite setting as itself.
func applyLines(c, base inputs.Combination) []string {
	var out, file, env, mca []string
	if c.Library != base.Library {
		bin := map[string]string{"openmpi": "bin/skampi", "mpich": "bin/skampi-mpich"}[c.Library]
		out = append(out, fmt.Sprintf("library:       use %s (its skampi: %s)", c.Library, bin))
	}
	was := map[string]string{}
	for _, v := range base.Values {
		was[v.Param.Kind+"/"+v.Param.Name] = v.Value
	}
	for _, v := range c.Values {
		if old, ok := was[v.Param.Kind+"/"+v.Param.Name]; ok && old == v.Value {
			continue
		}
		val := inputs.ShellWord(v.Value)
		switch v.Param.Kind {
		case "mca":
			file = append(file, "MCA file:      "+v.Param.Name+" = "+v.Value+"   ($HOME/.openmpi/mca-params.conf)")
			env = append(env, "environment:   export OMPI_MCA_"+v.Param.Name+"="+val)
			mca = append(mca, "--mca "+v.Param.Name+" "+val)
		case "cvar", "env":
			env = append(env, "environment:   export "+v.Param.Name+"="+val)
		case "setting":
			out = append(out, fmt.Sprintf("suite setting: %s = %s   (an application's own threshold)", v.Param.Name, v.Shown()))
		}
	}
	out = append(append(out, file...), env...)
	if len(mca) > 0 {
		out = append(out, "mpirun flag:   mpirun "+strings.Join(mca, " ")+" ...")
	}
	return out
}
