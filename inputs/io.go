package inputs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skampi/skampi/ops"
)

// ioNameBytes is the most skampi adds to io_dir for a file (runner/io.go):
// /skampi-io-<16 hex digits>/point-<index>.dat, and .rank<rank> for a private one, with
// up to 7 digits each.
const ioNameBytes = len("/skampi-io-") + 16 + len("/point-") + 7 + len(".dat") + len(".rank") + 7

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
			}
			if err := ioPathFits(str); err != nil {
				return err
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
	if err := ioPathFits(dir); err != nil {
		return fmt.Errorf("io_dir %s: %w", what, err)
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

// ioPathFits says why the library cannot open the files skampi makes under dir: their
// paths would be longer than it takes (ops.IOPathLimit).
func ioPathFits(dir string) error {
	abs, err := IOBase(dir)
	if err != nil {
		return err
	}
	lim := ops.IOPathLimit
	if max := lim.Bytes - ioNameBytes; len(abs) > max {
		return fmt.Errorf("%d bytes as an absolute path, at most %d: with the %d bytes of skampi's file names the library would get paths longer than the %d bytes %s; choose a shorter directory",
			len(abs), max, ioNameBytes, lim.Bytes, lim.Why)
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
