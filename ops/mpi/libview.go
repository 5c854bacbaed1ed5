package mpi

import (
	"slices"
	"strings"
)

// LibraryView is what the MPI library says of itself after MPI_Init, through MPI_T:
// which components it has open, by framework, and the effective values of the control
// variables asked for (what the library uses, not what the environment asked).
type LibraryView struct {
	// Components: Open MPI's components with variables registered after MPI_Init, by
	// framework (pml, btl, osc, ...). Open MPI closes the PMLs it did not select, so the
	// PML listed is the one that carried the point-to-point traffic; BTLs, OSCs and
	// colls are the ones open, each used where it applies. MPICH: its device.
	Components map[string][]string
	// Vars: every asked-for control variable the library has, by its MPI_T name, with
	// its value as text (an enumeration's item name).
	Vars map[string]string
}

// componentFrameworks are Open MPI's frameworks a run header lists components of.
var componentFrameworks = []string{"pml", "btl", "mtl", "osc", "coll", "spml", "sshmem", "scoll", "atomic"}

// addComponent notes the component of an Open MPI variable named FRAMEWORK_COMPONENT_...
func addComponent(c map[string][]string, name string) {
	fw, rest, ok := strings.Cut(name, "_")
	if !ok || !slices.Contains(componentFrameworks, fw) {
		return
	}
	comp, _, _ := strings.Cut(rest, "_")
	// base: the framework's own variables; Open MPI 5's pml_wrapper is one too (no
	// component is called that), and listing it would make two PMLs of one.
	if comp == "" || comp == "base" || fw == "pml" && comp == "wrapper" || slices.Contains(c[fw], comp) {
		return
	}
	c[fw] = append(c[fw], comp)
}
