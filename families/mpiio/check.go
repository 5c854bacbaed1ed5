package mpiio

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"syscall"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// What the family checks before any process starts: io_dir's paths fit the library
// (when a suite or flag sets it), the directory under test takes a file (the machine's
// question, skampi run and tune before launching), and a window of writes fits a file
// offset (the plan's) and the space free there (the machine's).

// ioNameBytes is the most skampi adds to io_dir for a file (runner.go):
// /skampi-io-<16 hex digits>/point-<index>.dat, and .rank<rank> for a private one, with
// up to 7 digits each.
const ioNameBytes = len("/skampi-io-") + 16 + len("/point-") + 7 + len(".dat") + len(".rank") + 7

// checkDir says why MPI-IO files cannot be made in dir ("": the temporary
// directory), before any process starts: it must be a directory this process can
// create, write and remove a file in.
func checkDir(dir string) error {
	what := dir
	if dir == "" {
		dir, what = os.TempDir(), "the temporary directory "+os.TempDir()+" (io_dir unset)"
	}
	if err := pathFits(dir); err != nil {
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

// pathFits says why the library cannot open the files skampi makes under dir: their
// paths would be longer than it takes (ops.IOPathLimit).
func pathFits(dir string) error {
	abs, err := ioBase(dir)
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

// ioBase is the directory a run's MPI-IO files go in, under io_dir (or the temporary
// directory): absolute, so every process names the same place.
func ioBase(dir string) (string, error) {
	if dir == "" {
		return os.TempDir(), nil
	}
	return filepath.Abs(dir)
}

// fileBytes is the most a point's files hold in its io_dir: msg_bytes of every
// process, times the writes a step makes (a window under method imb, IMB-IO's
// aggregate mode: a row of every process's blocks per write); 0 for an operation that
// moves no data. Saturating (ops.MulSat): a product past any file system stays past it.
func fileBytes(pt *inputs.Point) int64 {
	op := pt.Op()
	if !op.IO || op.NoData {
		return 0
	}
	rows := int64(max(1, pt.Settings().WindowFor(op, pt.Method)))
	return ops.MulSat(ops.MulSat(pt.Size, rows), int64(max(1, pt.NProcs)))
}

// aggregated: a point of IMB-IO's aggregate mode, more than one write a step.
func aggregated(pt *inputs.Point) bool {
	op := pt.Op()
	return op.IO && !op.Windowed && pt.Settings().WindowFor(op, pt.Method) > 1
}

// maxFileBytes bounds a point's files (an exbibyte, where ops.MulSat saturates): past
// it, a file offset (MPI_Offset, 64 bits) of a step's last row nears wrapping, and no
// file system holds it anyway.
const maxFileBytes = math.MaxInt64 / 8

// windowTooBig says why a point's window of writes cannot be written ("": it can):
// its rows of blocks would end past maxFileBytes. A question of the plan alone
// (inputs.RegisterPointCheck); whether the directory has room is checkSpace's, before
// start.
func windowTooBig(pt *inputs.Point) string {
	if !aggregated(pt) {
		return ""
	}
	if need := fileBytes(pt); need >= maxFileBytes {
		w := pt.Settings().WindowFor(pt.Op(), pt.Method)
		return fmt.Sprintf("%s [%s] at %s with window %d on %d processes writes window x msg_bytes x processes bytes per point, an exbibyte (2^60 bytes) or more: past what a file offset safely reaches; lower the window or the sizes",
			pt.Op().Name, pt.Method, inputs.FormatSize(pt.Size), w, pt.NProcs)
	}
	return ""
}

// checkSpace refuses, before any process starts, a point of IMB-IO's aggregate mode
// (a window of writes under method imb) whose files would not fit the space free in
// its io_dir: the window multiplies the file by itself. Each point's files are removed
// after it, so the largest point of each directory is the one asked about. A point of
// one write a step that does not fit fails at run time with the file system's own
// words, as on any full file system.
func checkSpace(points []inputs.Point) []inputs.PointProblem {
	largest := map[string]*inputs.Point{}
	var dirs []string
	for i := range points {
		pt := &points[i]
		if !aggregated(pt) {
			continue
		}
		dir := dirSetting(pt.Settings())
		if cur, ok := largest[dir]; !ok || fileBytes(pt) > fileBytes(cur) {
			if !ok {
				dirs = append(dirs, dir)
			}
			largest[dir] = pt
		}
	}
	var out []inputs.PointProblem
	for _, dir := range dirs {
		pt := largest[dir]
		base, err := ioBase(dir)
		if err != nil {
			continue // checkDir has said it
		}
		free, err := freeBytes(base)
		if err != nil { // checkDir has said whether the directory is usable
			continue
		}
		if need := fileBytes(pt); need > free {
			out = append(out, inputs.PointProblem{Point: pt, Msg: fmt.Sprintf("%s [%s] at %s with window %d on %d processes writes %s per point in %s, which has %s free: lower the window or the sizes, or choose another io_dir",
				pt.Op().Name, pt.Method, inputs.FormatSize(pt.Size), pt.Settings().WindowFor(pt.Op(), pt.Method), pt.NProcs,
				inputs.ApproxSize(need), base, inputs.ApproxSize(free))})
		}
	}
	return out
}

// freeBytes is the space an unprivileged process may still write in dir's file system.
func freeBytes(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return ops.MulSat(int64(st.Bavail), int64(st.Bsize)), nil
}
