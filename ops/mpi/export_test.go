//go:build mpi

package mpi

// What the tables say of a kernel, for the tests that check them against the
// catalogue with every family linked in (package mpi_test).

type Flags struct{ Collective, NodeAware, OwnResult, PerProcessStep, Nonblocking, Window, Typed bool }

func FlagsOf(name string) (Flags, bool) {
	f, ok := flagsOf(name)
	return Flags{f.collective, f.nodeAware, f.ownResult, f.perProcessStep, f.nonblocking, f.window, f.typed}, ok
}

var (
	KernelMode   = kernelMode
	TakesLayouts = takesLayouts
	DatatypeSize = datatypeSize
)
