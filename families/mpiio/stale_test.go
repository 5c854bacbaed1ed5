package mpiio

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Only dead runs' directories go: one nobody holds, or an old one without an owner
// file; a live run's, a young unclaimed one, one holding anything skampi does not put
// there, a symbolic link and other names stay.
func TestRemoveStaleIODirs(t *testing.T) {
	base := t.TempDir()
	mk := func(name string, files ...string) string {
		dir := filepath.Join(base, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	dead := mk("skampi-io-00000000000000a1", ownerFile, "point-20.dat", "point-20.dat.rank1")
	live := mk("skampi-io-00000000000000a2", "point-3.dat")
	owner, err := claimIODir(live)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	young := mk("skampi-io-00000000000000a3", "point-1.dat")
	old := mk("skampi-io-00000000000000a4", "point-1.dat")
	past := time.Now().Add(-2 * unclaimedAge)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	foreign := mk("skampi-io-00000000000000a5", ownerFile, "notes.txt")
	other := mk("skampi-io-results", ownerFile)
	target := mk("elsewhere", ownerFile)
	link := filepath.Join(base, "skampi-io-00000000000000a6")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	removed := RemoveStaleIODirs(base)
	slices.Sort(removed)
	if want := []string{dead, old}; !slices.Equal(removed, want) {
		t.Errorf("removed %q, want %q", removed, want)
	}
	for _, kept := range []string{live, young, foreign, other, target, link} {
		if _, err := os.Lstat(kept); err != nil {
			t.Errorf("%s: %v", kept, err)
		}
	}
	// The live run ends: its directory goes with the next look.
	owner.Close()
	if got := RemoveStaleIODirs(base); !slices.Equal(got, []string{live}) {
		t.Errorf("after the owner closed: removed %q", got)
	}
}
