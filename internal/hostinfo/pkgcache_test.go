package hostinfo

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The package manager is asked once per library file; a changed file (an upgrade) is
// asked again, and a run without a cache directory still gets its answer.
func TestPackageVersionCached(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	asked := 0
	answer := "1.17.0-3"
	lookupPackage = func(string) string { asked++; return answer }
	t.Cleanup(func() { lookupPackage = askPackageManager })
	lib := filepath.Join(t.TempDir(), "libfabric.so.1")
	if err := os.WriteFile(lib, []byte("v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if v := packageVersion(lib); v != answer {
			t.Fatalf("call %d: %q, want %q", i, v, answer)
		}
	}
	if asked != 1 {
		t.Errorf("asked %d times for an unchanged file, want 1", asked)
	}
	// An upgrade rewrites the file: another size and time.
	answer = "1.18.0-1"
	later := time.Now().Add(time.Minute)
	if err := os.WriteFile(lib, []byte("v2 longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(lib, later, later)
	if v := packageVersion(lib); v != answer || asked != 2 {
		t.Errorf("after an upgrade: %q after %d questions, want %q after 2", v, asked, answer)
	}
	// No package owns it: that answer is kept too.
	other := filepath.Join(t.TempDir(), "libucp.so.0")
	os.WriteFile(other, []byte("x"), 0o644)
	answer = ""
	packageVersion(other)
	packageVersion(other)
	if asked != 3 {
		t.Errorf("a file no package owns was asked %d times in all, want 3", asked)
	}
	// Without HOME or XDG_CACHE_HOME there is no cache: every call asks.
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	answer = "x"
	packageVersion(lib)
	packageVersion(lib)
	if asked != 5 {
		t.Errorf("without a cache directory: %d questions in all, want 5", asked)
	}
}
