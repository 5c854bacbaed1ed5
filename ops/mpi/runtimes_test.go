package mpi

import (
	"strings"
	"testing"
)

// A runtime no package registered is not available and says so; one registered is
// found by its name, once.
func TestRuntimeNamed(t *testing.T) {
	r := RuntimeNamed("Nothing")
	if r.Available || !strings.Contains(r.Missing(), "without Nothing") || r.Start(nil) == nil {
		t.Errorf("an unregistered runtime: available %v, missing %q", r.Available, r.Missing())
	}
	RegisterRuntime(Runtime{Name: "Test", Available: true, Missing: func() string { return "" }})
	if r := RuntimeNamed("Test"); !r.Available || r.Missing() != "" {
		t.Errorf("the registered runtime: %+v", r)
	}
	defer func() {
		if recover() == nil {
			t.Error("a name registered twice is taken")
		}
	}()
	RegisterRuntime(Runtime{Name: "Test"})
}
