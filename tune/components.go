package tune

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skampi/skampi/inputs"
)

// Component selection: an Open MPI framework's own parameter (pml, btl, osc, coll,
// mtl, spml, ...) takes component names, and a name this Open MPI does not have would
// only be found by the launch it breaks (`pml = ucxx`: every rank aborts in MPI_Init
// with a banner). ompi_info lists the components (mca:FRAMEWORK:COMPONENT:version:...
// lines), in the same output as the parameters, so the check asks nothing more of it.

// addComponents records, on each framework's selection parameter (named as the
// framework, of its "base" component), the components ompi_info listed for it.
func addComponents(c Catalog, components map[string][]string) {
	for fw, names := range components {
		if p, ok := c[fw]; ok && len(names) > 0 {
			slices.Sort(names)
			p.Components = slices.Compact(names)
			p.Framework = fw
			c[fw] = p
		}
	}
}

// checkComponents checks a selection value as Open MPI reads it: component names
// separated by commas, all of them excluded when the list starts with ^.
func (p ParamInfo) checkComponents(value string) error {
	list := strings.TrimPrefix(strings.TrimSpace(value), "^")
	if list == "" {
		return nil // no selection: every component that can run
	}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if slices.Contains(p.Components, name) {
			continue
		}
		msg := fmt.Sprintf("no component %s", name)
		if s := inputs.Suggest(name, p.Components); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		return fmt.Errorf("%s; this Open MPI has: %s (ompi_info --param %s all)", msg, strings.Join(p.Components, ", "), p.Framework)
	}
	return nil
}
