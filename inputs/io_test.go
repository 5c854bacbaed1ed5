package inputs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
)

// The directories a plan's MPI-IO measurements write in, once each, and the check
// before start: a directory this process can write a file in, or one clear error.
func TestIODirs(t *testing.T) {
	p, err := Parse("s.toml", []byte(`[settings]
io_dir = "/scratch/a"
[[measurement]]
name = "w"
op = "File_Write_At"
sizes = [8]
[[measurement]]
name = "r"
op = "File_Read_At"
sizes = [8]
io_dir = ""
[[measurement]]
name = "again"
op = "File_Write_All"
sizes = [8]
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [8]
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.IODirs(); !slices.Equal(got, []string{"/scratch/a", ""}) {
		t.Errorf("IODirs = %q", got)
	}
	dir := t.TempDir()
	if err := CheckIODir(dir); err != nil {
		t.Errorf("a writable directory: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the check left %v", left)
	}
	if err := CheckIODir(""); err != nil {
		t.Errorf("the temporary directory: %v", err)
	}
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for d, want := range map[string]string{
		filepath.Join(dir, "missing"): "io_dir " + filepath.Join(dir, "missing") + ": stat ",
		file:                          "io_dir " + file + ": not a directory",
	} {
		if err := CheckIODir(d); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q...", d, err, want)
		}
	}
	if b, err := IOBase("rel"); err != nil || !filepath.IsAbs(b) {
		t.Errorf("IOBase(rel) = %q, %v", b, err)
	}
}

// An io_dir whose files' paths the library cannot take is refused where it is written,
// in the suite file (line:col) and through TMPDIR; one that fits is taken.
func TestIODirPathLimit(t *testing.T) {
	saved := ops.IOPathLimit
	t.Cleanup(func() { ops.IOPathLimit = saved })
	ops.IOPathLimit = ops.PathLimit{Bytes: 244, Why: "the test's library takes"}
	fits := "/" + strings.Repeat("d", 244-ioNameBytes-1)
	long := fits + "x"
	suite := func(dir string) []byte {
		return []byte("[settings]\nio_dir = \"" + dir + "\"\n[[measurement]]\nname = \"w\"\nop = \"File_Write_At\"\nsizes = [8]\n")
	}
	if _, err := Parse("s.toml", suite(fits)); err != nil {
		t.Errorf("%d bytes: %v", len(fits), err)
	}
	_, err := Parse("s.toml", suite(long))
	if err == nil || !strings.HasPrefix(err.Error(), "s.toml:2:10: ") || !strings.Contains(err.Error(), "the test's library takes") {
		t.Errorf("%d bytes: %v", len(long), err)
	}
	tmp := t.TempDir()
	deep := filepath.Join(tmp, strings.Repeat("e", 244-ioNameBytes-len(tmp)))
	if err := os.Mkdir(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", deep)
	if err := CheckIODir(""); err == nil || !strings.Contains(err.Error(), "choose a shorter directory") {
		t.Errorf("TMPDIR of %d bytes: %v", len(deep), err)
	}
}

// A window of writes under method imb (IMB-IO's aggregate mode) multiplies a point's
// file: one that would not fit the space free in its io_dir is refused before start,
// at its measurement, with the sizes that make it; one that fits passes.
func TestIOSpaceOfAWindow(t *testing.T) {
	withMemory(t, 64<<30, true)
	dir := t.TempDir()
	suite := func(size string, window int) string {
		return fmt.Sprintf("[settings]\nio_dir = %q\nbuffer = \"1GiB\"\n[[measurement]]\nname = \"m\"\nop = \"File_Write_At\"\nmethod = \"imb\"\nsizes = [%q]\nwindow = %d\n", dir, size, window)
	}
	p := mustParse(t, suite("1GiB", 65536))
	ex, err := p.Expand(Job{NProcs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := ex.Points[0].IOFileBytes(); got != 1<<47 {
		t.Errorf("IOFileBytes = %d, want 2^47", got)
	}
	want := fmt.Sprintf(`t.toml:4:3: measurement "m": File_Write_At [imb] at 1GiB with window 65536 on 2 processes writes 128TiB per point in %s, which has `, dir)
	if err := p.CheckIOSpace(ex.Points); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
	p = mustParse(t, suite("1KiB", 4))
	if ex, err = p.Expand(Job{NProcs: 2}); err != nil {
		t.Fatal(err)
	}
	if err := p.CheckIOSpace(ex.Points); err != nil {
		t.Errorf("8KiB: %v", err)
	}
}
