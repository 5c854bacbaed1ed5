package shmem

import (
	"testing"

	"github.com/skampi/skampi/ops"
)

// Shmem_Ctx_Create and Shmem_Ctx_Destroy time one call of a step that creates and
// destroys a context: "auto" iterations must be calibrated on the whole step. On the
// timed call alone, a destroy of microseconds behind an untimed create of milliseconds
// asked for hundreds of contexts per repetition, which Open MPI 5.0.7 keeps until
// shmem_finalize (open-mpi/ompi#13060): its finalize outlived hang_timeout.
func TestCtxCreateDestroyCalibrateOnTheStep(t *testing.T) {
	for _, name := range []string{"Shmem_Ctx_Create", "Shmem_Ctx_Destroy"} {
		in, ok := ops.Lookup(name)
		if !ok {
			t.Fatalf("%s: not in the catalogue", name)
		}
		if !in.CallTimed {
			t.Errorf("%s: not CallTimed: auto iterations would be calibrated on the timed call, not the step", name)
		}
	}
}
