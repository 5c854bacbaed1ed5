package inputs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A sweep's MPI-IO directories are checked before anything is launched, each problem
// at the io_dir value that names the directory (or where the suite sets it), with the
// combinations that would have written there.
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
			tu, err := ParseTune("f.toml", []byte(c.tune))
			if err != nil {
				t.Fatal(err)
			}
			err = tu.CheckIODirs()
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
