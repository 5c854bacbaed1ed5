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
	removeIOFile(ops.Request{Strings: map[string]string{ioPath: path}})
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

// A private file is named in Go only: the point's file with its process's rank in the
// point's communicator after it, which removeIOFile, called with one process's own
// file, finds with every other process's on the host; a process outside the
// communicator has no rank.
func TestPrivateFiles(t *testing.T) {
	if got := commRank(5, []int{4, 5, 6}); got != 1 {
		t.Errorf("world rank 5 of [4 5 6]: %d", got)
	}
	if commRank(3, nil) != 3 || commRank(2, []int{0, 1}) != -1 {
		t.Error("commRank of the whole job or of a rank outside")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "point-7.dat")
	mine := []string{privatePath(path, 0), privatePath(path, 1), privatePath(path, 2)}
	other := privatePath(filepath.Join(dir, "point-70.dat"), 0)
	for _, p := range append(mine, other) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removeIOFile(ops.Request{Info: ops.Info{IO: true, PrivateFile: true}, Strings: map[string]string{ioPath: mine[1]}})
	for _, p := range mine {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s left", p)
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("%s removed: %v", other, err)
	}
}
