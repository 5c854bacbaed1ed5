package job

import (
	"testing"

	shmem "github.com/skampi/skampi/families/shmem/kernels"
)

// skampi startup needs a process count, and OpenSHMEM only where the build has it.
func TestStartupOptionsValid(t *testing.T) {
	if err := (StartupOptions{NPs: []int{2}}).Valid(); err != nil {
		t.Error(err)
	}
	if err := (StartupOptions{}).Valid(); err == nil {
		t.Error("no process count taken")
	}
	if err := (StartupOptions{NPs: []int{2}, Shmem: true}).Valid(); (err == nil) != shmem.Available {
		t.Errorf("--shmem in a build with OpenSHMEM %v: %v", shmem.Available, err)
	}
}
