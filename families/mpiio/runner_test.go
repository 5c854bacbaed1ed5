package mpiio

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skampi/skampi/ops"
)

// A point's file and its processes' private files (path.rankN) are removed; another
// point's files stay.
func TestRemoveIOFilePrivate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "point-3.dat")
	mine := []string{path, path + ".rank0", path + ".rank1"}
	others := []string{filepath.Join(dir, "point-30.dat.rank0"), filepath.Join(dir, "point-3.data")}
	for _, p := range append(mine, others...) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removeIOFile(ops.Request{IOPath: path})
	for _, p := range mine {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s left", p)
		}
	}
	for _, p := range others {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", p, err)
		}
	}
}
