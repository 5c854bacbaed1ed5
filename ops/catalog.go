// Package ops is the catalogue of measurable operations. Each operation is described
// once, here: its name, family, documentation, parameters, who takes part, how the
// per-rank times of a repetition reduce to one, its timing methods and the kernel
// that runs it. Suites, the engine, the runner and the kernels all read these fields;
// nothing else names an operation. It is pure Go; the kernels live in ops/mpi and
// families/shmem/kernels (cgo).
package ops

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"sync"
)

// The catalogue is made of sections, each a list of operations the file that
// describes them registers: var xOps = register(key, []Info{...}). Its order is the
// order of the keys, whatever order Go initialises the files in: it is the order of
// `skampi list`, of a suite's operations expanded and of the documentation, so a
// section keeps its key, and a new family takes a key of its own where its operations
// belong (between two sections: a key between theirs). No list here names the sections.
type section struct {
	key int
	ops []Info
}

var (
	sections []section
	// built is set once the catalogue is made (at its first use, after package
	// initialisation): a section registered later would be missing from it.
	built bool
)

// register adds a section of operations to the catalogue at key and returns them. It
// is called from package-level variable declarations, before any use of the catalogue.
func register(key int, ops []Info) []Info { return Register(key, ops) }

// Register adds a family's section of operations to the catalogue at key, from the
// family's own package (a package-level declaration, before any use of the
// catalogue), and returns them. The operations are in every program that links the
// family in (families/all); a key must be a section's own.
func Register(key int, ops []Info) []Info {
	if built {
		panic(fmt.Sprintf("ops: a section registered at %d after the catalogue was made", key))
	}
	sections = append(sections, section{key, ops})
	return ops
}

// order joins sections into the catalogue: by increasing key, each section's
// operations in its own order, every operation with its figure panels. Two sections
// with one key (their order would be Go's initialisation order), an empty section or a
// name twice is an error.
func order(secs []section) ([]Info, error) {
	secs = slices.Clone(secs)
	slices.SortStableFunc(secs, func(a, b section) int { return cmp.Compare(a.key, b.key) })
	var all []Info
	seen := map[string]bool{}
	for i, s := range secs {
		if len(s.ops) == 0 {
			return nil, fmt.Errorf("ops: the section at %d has no operation", s.key)
		}
		if i > 0 && secs[i-1].key == s.key {
			return nil, fmt.Errorf("ops: the sections of %s and %s are both at %d", secs[i-1].ops[0].Name, s.ops[0].Name, s.key)
		}
		for _, in := range s.ops {
			if seen[in.Name] {
				return nil, fmt.Errorf("ops: %s is in the catalogue twice", in.Name)
			}
			seen[in.Name] = true
			all = append(all, in)
		}
	}
	return withPanels(all), nil
}

type catalogue struct {
	all    []Info
	byName map[string]Info
}

// theCatalogue is made at its first use; a registration that breaks the order rules
// stops every program and test that reads it.
var theCatalogue = sync.OnceValue(func() catalogue {
	built = true
	all, err := order(sections)
	if err != nil {
		panic(err)
	}
	m := make(map[string]Info, len(all))
	for _, in := range all {
		m[in.Name] = in
	}
	return catalogue{all, m}
})

// LatencyProbe is the operation pair = "max-latency" times from rank 0 to every other
// rank to choose the slowest to reach: SKaMPI's probe is a ping-pong.
const LatencyProbe = "Pingpong_Send_Recv"

// Lookup finds an operation by its exact name.
func Lookup(name string) (Info, bool) {
	in, ok := theCatalogue().byName[name]
	return in, ok
}

// All returns every operation in catalogue order.
func All() []Info { return slices.Clone(theCatalogue().all) }

// Names returns the sorted operation names.
func Names() []string {
	all := theCatalogue().all
	names := make([]string, 0, len(all))
	for _, in := range all {
		names = append(names, in.Name)
	}
	sort.Strings(names)
	return names
}
