package launch

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// The session directories of a killed launcher go, with Open MPI 4's parent when it is
// left empty; another launcher's, and a link of the right name, stay.
func TestRemoveSession(t *testing.T) {
	tmp := t.TempDir()
	env := []string{"TMPDIR=" + tmp}
	host, _ := os.Hostname()
	dirs, parents := SessionDirs(4242, os.Getuid(), host, env)
	if want := filepath.Join(tmp, "prterun."+host+".4242."+itoa(os.Getuid())); !slices.Contains(dirs, want) {
		t.Fatalf("SessionDirs = %q, want %s among them", dirs, want)
	}
	ompi := filepath.Join(parents[0], "pid.4242")
	other := filepath.Join(parents[0], "pid.4343")
	prte := filepath.Join(tmp, "prterun."+host+".4242."+itoa(os.Getuid()))
	for _, d := range []string{filepath.Join(ompi, "0", "0"), other, filepath.Join(prte, "1")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	RemoveSession(4242, env)
	for _, gone := range []string{ompi, prte} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("%s stayed", gone)
		}
	}
	if _, err := os.Lstat(other); err != nil {
		t.Errorf("another launcher's session: %v", err)
	}
	os.RemoveAll(other)
	target := t.TempDir()
	if err := os.Symlink(target, ompi); err != nil {
		t.Fatal(err)
	}
	RemoveSession(4242, env)
	if _, err := os.Lstat(ompi); err != nil {
		t.Errorf("a link of the session's name: %v", err)
	}
	os.Remove(ompi)
	RemoveSession(4242, env)
	if _, err := os.Lstat(parents[0]); err == nil {
		t.Errorf("the empty parent %s stayed", parents[0])
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
