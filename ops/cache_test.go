package ops

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLastLevelCache(t *testing.T) {
	dir := t.TempDir()
	for i, c := range [][2]string{{"1", "48K"}, {"1", "32K"}, {"2", "1024K"}, {"3", "32768K"}} {
		d := filepath.Join(dir, "index"+string(rune('0'+i)))
		os.Mkdir(d, 0o755)
		os.WriteFile(filepath.Join(d, "level"), []byte(c[0]+"\n"), 0o644)
		os.WriteFile(filepath.Join(d, "size"), []byte(c[1]+"\n"), 0o644)
	}
	if n, ok := LastLevelCache(dir); !ok || n != 32<<20 {
		t.Errorf("LastLevelCache = %d, %v; want 32 MiB", n, ok)
	}
	if _, ok := LastLevelCache(filepath.Join(dir, "none")); ok {
		t.Error("a missing directory gave a size")
	}
	for s, want := range map[string]int64{"512K": 512 << 10, "8M": 8 << 20, "1G": 1 << 30, "123": 123, "x": 0, "-1K": 0} {
		if n, _ := parseCacheSize(s); n != want {
			t.Errorf("parseCacheSize(%q) = %d, want %d", s, n, want)
		}
	}
	if a := ColdArea(0); a < 1<<20 || a > 2*ColdCacheCap {
		t.Errorf("ColdArea(auto) = %d: outside [1 MiB, twice the cap]", a)
	}
	if a := ColdArea(256 << 20); a != 512<<20 {
		t.Errorf("ColdArea(256 MiB) = %d: a size the user sets is not capped", a)
	}
}
