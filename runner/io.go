package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// MPI-IO points: each gets a file of its own in a directory made for the run inside
// the directory under test (io_dir, or the temporary directory), skampi-io-<id>, the
// id chosen by rank 0 and broadcast so every process names the same one. The kernel
// creates the file in its preparation and deletes it when it closes; the runner
// removes it again after the point whatever happened (a preparation that failed half
// way), and the run's directories when the run ends or is interrupted (RemoveIODirs).
// A run killed outright cannot: every process of a run holds a shared lock on
// skampi-io-<id>/.owner while it lives, and the next run into the same directory (and
// the command that launched the job, once the job is over) removes the skampi-io-*
// directories nobody holds (RemoveStaleIODirs).

// ioState is what a runner's MPI-IO points share.
type ioState struct {
	mu     sync.Mutex // RemoveIODirs may run on a signal's goroutine
	id     int64
	dirs   map[string]string // the directory under test -> the run's directory in it
	owners []*os.File        // each run directory's .owner, locked while the run lives
}

// ioFile sets the request's directory under test and file for an MPI-IO point. Every
// rank calls it for every MPI-IO point, in the same order (the first one broadcasts).
func (r *Runner) ioFile(pt *inputs.Point, spec *ops.Request) error {
	if r.io == nil {
		var id int64
		if r.World.Rank() == 0 {
			id = rand.Int64()
		}
		id, err := r.World.Bcast(id)
		if err != nil {
			return err
		}
		r.io = &ioState{id: id, dirs: map[string]string{}}
	}
	base, err := inputs.IOBase(pt.Settings().IODir)
	if err != nil {
		return fmt.Errorf("io_dir %s: %w", pt.Settings().IODir, err)
	}
	dir := filepath.Join(base, fmt.Sprintf("skampi-io-%016x", uint64(r.io.id)))
	r.io.mu.Lock()
	_, made := r.io.dirs[base]
	r.io.mu.Unlock()
	if !made {
		// Every rank: a temporary directory may be each host's own.
		RemoveStaleIODirs(base)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("io_dir %s: %w", base, err)
		}
		owner, err := claimIODir(dir)
		if err != nil {
			return fmt.Errorf("io_dir %s: %w", base, err)
		}
		r.io.mu.Lock()
		r.io.dirs[base] = dir
		r.io.owners = append(r.io.owners, owner)
		r.io.mu.Unlock()
	}
	spec.IODir = base
	spec.IOPath = filepath.Join(dir, fmt.Sprintf("point-%d.dat", pt.Index))
	return nil
}

// removeIOFile removes an MPI-IO point's file if the kernel left it, and the private
// files of its processes (the path with ".rankN" after it; every rank: a host's own
// temporary directory).
func removeIOFile(spec ops.Request) {
	if spec.IOPath == "" {
		return
	}
	paths := []string{spec.IOPath}
	dir, base := filepath.Split(spec.IOPath)
	if entries, err := os.ReadDir(filepath.Clean(dir)); err == nil {
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), base+".rank") {
				paths = append(paths, filepath.Join(dir, e.Name()))
			}
		}
	}
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			_ = err // a read-only directory keeps what it never got
		}
	}
}

// RemoveIODirs removes the directories the run made for its MPI-IO files, with
// whatever is left in them. The job calls it when the run ends, however it ends.
func (r *Runner) RemoveIODirs() {
	if r == nil || r.io == nil {
		return
	}
	r.io.mu.Lock()
	defer r.io.mu.Unlock()
	for _, dir := range r.io.dirs {
		os.RemoveAll(dir)
	}
	for _, f := range r.io.owners {
		f.Close()
	}
	r.io.owners = nil
}

// ioFields: what an MPI-IO point's data path was, the directory under test and the
// library's hints for its file.
func ioFields(p *record.Point, o outcome) {
	p.IODir = o.ioDir
	if len(o.ioHints) > 0 {
		p.IOHints = o.ioHints
	}
}

// ioHinter is an operation that reports the library's hints for its file.
type ioHinter interface{ IOHints() map[string]string }
