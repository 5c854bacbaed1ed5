package mpiio

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

func mustParse(t *testing.T, src string) *inputs.Plan {
	t.Helper()
	p, err := inputs.Parse("t.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The directories a plan's MPI-IO measurements write in, once each, and the check
// before start: a directory this process can write a file in, or one clear error.
func TestIODirs(t *testing.T) {
	p := mustParse(t, `[settings]
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
`)
	if got := ioDirs(p); !slices.Equal(got, []string{"/scratch/a", ""}) {
		t.Errorf("ioDirs = %q", got)
	}
	dir := t.TempDir()
	if err := checkDir(dir); err != nil {
		t.Errorf("a writable directory: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("the check left %v", left)
	}
	if err := checkDir(""); err != nil {
		t.Errorf("the temporary directory: %v", err)
	}
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for d, want := range map[string]string{
		filepath.Join(dir, "missing"): "io_dir " + filepath.Join(dir, "missing") + ": stat ",
		file:                          "io_dir " + file + ": not a directory",
	} {
		if err := checkDir(d); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q...", d, err, want)
		}
	}
	if b, err := ioBase("rel"); err != nil || !filepath.IsAbs(b) {
		t.Errorf("ioBase(rel) = %q, %v", b, err)
	}
	// Before start (inputs.Plan.CheckStart, as skampi run calls it): the first
	// directory that cannot be written in, in the check's words, not the file's.
	p = mustParse(t, "[settings]\nio_dir = "+strconv.Quote(dir)+"\n[[measurement]]\nname = \"w\"\nop = \"File_Write_At\"\nsizes = [8]\n"+
		"[[measurement]]\nname = \"r\"\nop = \"File_Read_At\"\nsizes = [8]\nio_dir = "+strconv.Quote(file)+"\n")
	ex, err := p.Expand(inputs.Job{NProcs: 2})
	if err != nil {
		t.Fatal(err)
	}
	err = p.CheckStart(ex.Points)
	if _, positioned := err.(*inputs.ErrorList); err == nil || positioned || err.Error() != "io_dir "+file+": not a directory" {
		t.Errorf("CheckStart: %T %v", err, err)
	}
}

// A window of writes under method imb (IMB-IO's aggregate mode) multiplies a point's
// file: one that would not fit the space free in its io_dir is refused before start,
// at its measurement, with the sizes that make it; one that fits passes.
func TestIOSpaceOfAWindow(t *testing.T) {
	dir := t.TempDir()
	free, err := freeBytes(dir)
	if err != nil {
		t.Fatal(err)
	}
	// 256MiB x 65536 writes x 2 processes: 32TiB, with 512MiB of buffers a rank, each
	// rank on a host of its own.
	const need = 256 << 20 * 65536 * 2
	if free >= need {
		t.Skipf("%s has %d bytes free: more than the test's window writes", dir, free)
	}
	suite := func(size string, window int) string {
		return fmt.Sprintf("[settings]\nio_dir = %q\nbuffer = \"256MiB\"\n[[measurement]]\nname = \"m\"\nop = \"File_Write_At\"\nmethod = \"imb\"\nsizes = [%q]\nwindow = %d\n", dir, size, window)
	}
	job := inputs.Job{NProcs: 2, Hosts: []string{"a", "b"}}
	p := mustParse(t, suite("256MiB", 65536))
	ex, err := p.Expand(job)
	if err != nil {
		t.Fatal(err)
	}
	if got := fileBytes(&ex.Points[0]); got != need {
		t.Errorf("fileBytes = %d, want 2^45", got)
	}
	want := fmt.Sprintf(`t.toml:4:3: measurement "m": File_Write_At [imb] at 256MiB with window 65536 on 2 processes writes 32TiB per point in %s, which has `, dir)
	err = p.CheckStart(ex.Points)
	if _, positioned := err.(*inputs.ErrorList); !positioned || !strings.Contains(err.Error(), want) {
		t.Errorf("got %T %v\nwant %s", err, err, want)
	}
	p = mustParse(t, suite("1KiB", 4))
	if ex, err = p.Expand(job); err != nil {
		t.Fatal(err)
	}
	if err := p.CheckStart(ex.Points); err != nil {
		t.Errorf("8KiB: %v", err)
	}
}

// A window of writes whose rows would end past what a file offset reaches is refused
// when the plan is expanded (inputs.RegisterPointCheck), at its measurement, never
// wrapped into a small number.
func TestWindowPastAFileOffset(t *testing.T) {
	p := mustParse(t, "[settings]\nbuffer = \"1GiB\"\n[[measurement]]\nname = \"m\"\nop = \"File_Write_At\"\nmethod = \"imb\"\nsizes = [\"1GiB\"]\nwindow = 65536\n")
	hosts := make([]string, 16384)
	for i := range hosts {
		hosts[i] = strconv.Itoa(i)
	}
	_, err := p.Expand(inputs.Job{NProcs: 16384, Hosts: hosts})
	want := `t.toml:3:3: measurement "m": File_Write_At [imb] at 1GiB with window 65536 on 16384 processes writes window x msg_bytes x processes bytes per point, an exbibyte (2^60 bytes) or more`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if got := fileBytes(&inputs.Point{Measurement: &p.Measurements[0], Method: "imb", Size: 1 << 30, NProcs: 16384}); got < maxFileBytes {
		t.Errorf("fileBytes = %d, want at least %d", got, int64(maxFileBytes))
	}
}

// A sweep's MPI-IO directories are checked before anything is launched
// (inputs.Tune.CheckStart), each problem at the io_dir value that names the directory
// (or where the suite sets it), with the combinations that would have written there.
func TestTuneCheckIODirs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	missing := filepath.Join(dir, "missing")
	const io = "[[measurement]]\nname = \"w\"\nop = \"File_Write_At\"\nsizes = [8]\n"
	for _, c := range []struct {
		name, tune string
		tmpdir     string
		want       []string // one per error, each a prefix
	}{
		{"writable", io + "[suite_settings]\nio_dir = [\"" + dir + "\", \"\"]\n", "", nil},
		{"swept, missing", io + "[suite_settings]\nio_dir = [\"" + dir + "\", \"" + missing + "\"]\n", "", []string{
			"f.toml:6:" + col(`io_dir = ["`+dir+`", `) + ": suite_settings: with io_dir = " + missing + " (combination openmpi_np2_io_dir-",
		}},
		{"swept, a file and missing", io + "[suite_settings]\nio_dir = [\"" + file + "\", \"" + missing + "\"]\n", "", []string{
			"f.toml:6:11: suite_settings: with io_dir = " + file + " (combination openmpi_np2_io_dir-",
			"f.toml:6:" + col(`io_dir = ["`+file+`", `) + ": suite_settings: with io_dir = " + missing,
		}},
		{"settings", "[settings]\nio_dir = \"" + missing + "\"\n" + io + "[env]\nX = [\"a\", \"b\", \"c\"]\n", "", []string{
			"f.toml:2:10: suite (combinations openmpi_np2_X-a and 2 more): the MPI-IO measurements cannot run: io_dir " + missing + ": stat ",
		}},
		{"a measurement's", io + "io_dir = \"" + file + "\"\n[env]\nX = [\"a\", \"b\"]\n", "", []string{
			"f.toml:5:10: suite (combinations openmpi_np2_X-a and 1 more): the MPI-IO measurements cannot run: io_dir " + file + ": not a directory",
		}},
		{"the temporary directory", io + "[env]\nX = [\"a\", \"b\"]\n", missing, []string{
			"f.toml:1:3: suite (combinations openmpi_np2_X-a and 1 more): the MPI-IO measurements cannot run: io_dir the temporary directory " + missing + " (io_dir unset): stat ",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.tmpdir != "" {
				t.Setenv("TMPDIR", c.tmpdir)
			}
			tu, err := inputs.ParseTune("f.toml", []byte(c.tune))
			if err != nil {
				t.Fatal(err)
			}
			err = tu.CheckStart()
			var got []string
			if err != nil {
				got = strings.Split(err.Error(), "\n")
			}
			if len(got) != len(c.want) {
				t.Fatalf("%d errors, want %d:\n%v", len(got), len(c.want), err)
			}
			for i, w := range c.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("got  %s\nwant %s...", got[i], w)
				}
			}
		})
	}
}

// col is the column just after prefix: where a value written after it starts.
func col(prefix string) string { return strconv.Itoa(len(prefix) + 1) }
