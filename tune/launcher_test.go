package tune

import (
	"slices"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// A launch runs skampi itself on its process count, or under the user's launch
// command with {np} replaced (or -np N appended), skampi after it.
func TestLaunchArgs(t *testing.T) {
	l := inputs.Launch{Combination: inputs.Combination{NP: 4}}
	for _, c := range []struct {
		prefix []string
		want   []string
	}{
		{nil, []string{"/b/skampi", "--np", "4", "-i", "s.toml", "-o", "d", "--resume"}},
		{[]string{"srun", "--mpi=pmix", "-n", "{np}"}, []string{"srun", "--mpi=pmix", "-n", "4", "/b/skampi", "-i", "s.toml", "-o", "d", "--resume"}},
		{[]string{"mpirun", "--hostfile", "h"}, []string{"mpirun", "--hostfile", "h", "-np", "4", "/b/skampi", "-i", "s.toml", "-o", "d", "--resume"}},
	} {
		if got := launchArgs(c.prefix, "/b/skampi", l, "s.toml", "d", true); !slices.Equal(got, c.want) {
			t.Errorf("%v: %v, want %v", c.prefix, got, c.want)
		}
	}
	if _, err := launcherPrefix("no-such-launcher-here -n {np}"); err == nil {
		t.Error("a launcher not on PATH was accepted")
	}
	if p, err := launcherPrefix(""); err != nil || len(p) != 0 {
		t.Errorf("no launcher: %v, %v", p, err)
	}
}
