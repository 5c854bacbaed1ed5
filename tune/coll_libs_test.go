package tune

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// One command tunes both libraries: each one's sweep into DIR/<library>, and both
// rules files, each naming that library's own recursive doubling where it wins.
func TestCollSweepBothLibraries(t *testing.T) {
	f := &collFake{speed: twiceAsFastAbove}
	read, mpich := mpich402(t)
	dir := t.TempDir()
	var out bytes.Buffer
	o := RunOptions{Collectives: []string{"Allreduce"}, Libraries: []string{"mpich", "openmpi", "openmpi"}, Dir: dir, Build: "openmpi",
		Stdout: &out, Stderr: io.Discard, Launch: f.launch, MPICHSelection: read,
		Catalogs: func(*inputs.Tune) (Catalog, Catalog) { return ompi414(t), mpich }}
	if err := Run(o); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	rules := rulesOf(t, filepath.Join(dir, "openmpi"))
	if m, ok := rules.Choose(2, 2, 1<<20); !ok || m.Alg != 3 {
		t.Errorf("Open MPI, 1 MiB: algorithm %d, want recursive doubling (3)\n%s", m.Alg, out.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "mpich", MPICHRulesFile))
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(string(b), "MPIR_Allreduce_intra_recursive_doubling") {
		t.Errorf("MPICH's file names no recursive doubling:\n%s", b)
	}
	for _, lib := range []string{"mpich", "openmpi"} {
		if !strings.Contains(out.String(), "tune: the collectives on "+lib+", into "+filepath.Join(dir, lib)) {
			t.Errorf("the output does not say where %s's sweep went:\n%s", lib, out.String())
		}
	}
	o.Libraries, o.Dir = []string{"lam"}, t.TempDir()
	var ue *UsageError
	if err := Run(o); err == nil || !errors.As(err, &ue) {
		t.Errorf("--libraries lam: %v, want a usage error", err)
	}
}
