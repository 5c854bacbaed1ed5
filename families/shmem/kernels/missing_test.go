package kernels

import (
	"strings"
	"testing"
)

// Each build says what it lacks and how to get a binary that has it, naming the
// MPICH build as such (it can never have OpenSHMEM: the library has none).
func TestMissingText(t *testing.T) {
	if got, want := missingText("mpich"), "this skampi was built without OpenSHMEM (an MPICH build): build it against Open MPI with shmem.h, `make build`"; got != want {
		t.Errorf("mpich: %q, want %q", got, want)
	}
	for _, b := range []string{"openmpi", "none"} {
		if got := missingText(b); !strings.HasPrefix(got, "this skampi was built without ") || !strings.Contains(got, "OpenSHMEM") || !strings.Contains(got, "`make build`") || strings.Contains(got, "MPICH") {
			t.Errorf("%s: %q", b, got)
		}
	}
}
