package inputs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// maxIODir bounds io_dir: the point's file name is added to it, and MPI-IO hands the
// whole path to the library.
const maxIODir = 900

func init() {
	settingList = append(settingList, setting{"io_dir",
		`MPI-IO operations: the directory under test, where each point's file is made and deleted after it (default "": a temporary directory made for the run, under TMPDIR; on a cluster, a directory of the shared file system)`,
		func(s *Settings, v any) error {
			str, ok := v.(string)
			switch {
			case !ok:
				return fmt.Errorf("must be a directory name, a string, got %s", typeName(v))
			case strings.ContainsRune(str, 0):
				return fmt.Errorf("must not contain a NUL byte")
			case len(str) > maxIODir:
				return fmt.Errorf("at most %d bytes, got %d", maxIODir, len(str))
			}
			s.IODir = str
			return nil
		}})
}

// IODirs are the directories the plan's MPI-IO measurements write in ("" for the
// default temporary one), each once, in the plan's order.
func (p *Plan) IODirs() []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range p.Measurements {
		if m.Op.IO && !seen[m.Settings.IODir] {
			seen[m.Settings.IODir] = true
			out = append(out, m.Settings.IODir)
		}
	}
	return out
}

// CheckIODir says why MPI-IO files cannot be made in dir ("": the temporary
// directory), before any process starts: it must be a directory this process can
// create, write and remove a file in.
func CheckIODir(dir string) error {
	what := dir
	if dir == "" {
		dir, what = os.TempDir(), "the temporary directory "+os.TempDir()+" (io_dir unset)"
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("io_dir %s: %w", what, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("io_dir %s: not a directory", what)
	}
	f, err := os.CreateTemp(dir, ".skampi-io-check-")
	if err != nil {
		return fmt.Errorf("io_dir %s is not writable: %w", what, err)
	}
	name := f.Name()
	_, err = f.Write([]byte("skampi"))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("io_dir %s is not writable: %w", what, err)
	}
	return nil
}

// IOBase is the directory a run's MPI-IO files go in, under io_dir (or the temporary
// directory): absolute, so every process names the same place.
func IOBase(dir string) (string, error) {
	if dir == "" {
		return os.TempDir(), nil
	}
	return filepath.Abs(dir)
}
