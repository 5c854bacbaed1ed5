// Package mpiio is the MPI-IO family: its operations (ops.go), its setting io_dir
// (settings.go), what it checks before a run (check.go), its built-in suite io, its C
// (kernels/) and its part in the runner (here): the directory and file of each point,
// what its record says of them, and cleaning up after the run.
//
// MPI-IO points: each gets a file of its own in a directory made for the run inside
// the directory under test (io_dir, or the temporary directory), skampi-io-<id>, the
// id chosen by rank 0 and broadcast so every process names the same one. The kernel
// creates the file in its preparation and deletes it when it closes; the family
// removes it again after the point whatever happened (a preparation that failed half
// way), and the run's directories when the run ends or is interrupted (removeIODirs).
// A run killed outright cannot: every process of a run holds a shared lock on
// skampi-io-<id>/.owner while it lives, and the next run into the same directory (and
// the command that launched the job, once the job is over) removes the skampi-io-*
// directories nobody holds (RemoveStaleIODirs).
package mpiio

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/skampi/skampi/families/mpiio/kernels"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name:     "mpiio",
		Has:      func(op ops.Info) bool { return op.IO },
		Prepare:  ioFile,
		Measured: measured,
		Done:     func(_ *runner.Runner, spec ops.Request) { removeIOFile(spec) },
		Record:   ioFields,
		End:      removeIODirs,
		JobOver:  removeStale,
	})
}

// ioState is what a runner's MPI-IO points share.
type ioState struct {
	mu     sync.Mutex // removeIODirs may run on a signal's goroutine
	id     int64
	dirs   map[string]string // the directory under test -> the run's directory in it
	owners []*os.File        // each run directory's .owner, locked while the run lives
}

// state is the run's MPI-IO state.
func state(r *runner.Runner) *ioState {
	return r.State("mpiio", func() any { return &ioState{dirs: map[string]string{}} }).(*ioState)
}

// ioFile sets the request's directory under test and file for an MPI-IO point. Every
// rank calls it for every MPI-IO point, in the same order (the first one broadcasts).
func ioFile(r *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
	io := state(r)
	if io.id == 0 {
		var id int64
		if r.World.Rank() == 0 {
			for id == 0 {
				id = rand.Int64()
			}
		}
		id, err := r.World.Bcast(id)
		if err != nil {
			return err
		}
		io.id = id
	}
	base, err := ioBase(dirSetting(pt.Settings()))
	if err != nil {
		return fmt.Errorf("io_dir %s: %w", dirSetting(pt.Settings()), err)
	}
	dir := filepath.Join(base, fmt.Sprintf("skampi-io-%016x", uint64(io.id)))
	io.mu.Lock()
	_, made := io.dirs[base]
	io.mu.Unlock()
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
		io.mu.Lock()
		io.dirs[base] = dir
		io.owners = append(io.owners, owner)
		io.mu.Unlock()
	}
	path := filepath.Join(dir, fmt.Sprintf("point-%d.dat", pt.Index))
	if pt.Op().PrivateFile {
		path = privatePath(path, commRank(r.World.Rank(), pt.Comm))
	}
	spec.SetString(ioPath, path) // the kernel's c->kstring[0] (kernels/io.c)
	return nil
}

// ioPath names the point's file among the request's words (ops.Request.Strings).
const ioPath = "io_path"

// ioDir is the directory under test of a request's file: the run's directory, which
// ioFile made in it, holds the file.
func ioDir(spec ops.Request) string {
	if p := spec.Strings[ioPath]; p != "" {
		return filepath.Dir(filepath.Dir(p))
	}
	return ""
}

// privatePath is the file of one process of a point whose processes each work on a
// file of their own (ops.Info.PrivateFile): the point's file with ".rankN" after it, N
// its rank in the point's communicator. removeIOFile finds them by that suffix.
func privatePath(path string, rank int) string { return fmt.Sprintf("%s.rank%d", path, rank) }

// commRank is the rank of the world's rank me in a communicator of the world ranks
// comm (nil: every rank, in order); -1 when me is not in it.
func commRank(me int, comm []int) int {
	if comm == nil {
		return me
	}
	return slices.Index(comm, me)
}

// removeIOFile removes an MPI-IO point's file if the kernel left it, and the private
// files of its processes (privatePath; every rank: a host's own temporary directory).
func removeIOFile(spec ops.Request) {
	path := spec.Strings[ioPath]
	if path == "" {
		return
	}
	paths := []string{path}
	point := path
	if spec.Info.PrivateFile { // this rank's own: the point's file is the name without ".rankN"
		if i := strings.LastIndex(point, ".rank"); i >= 0 {
			point = point[:i]
		}
	}
	dir, base := filepath.Split(point)
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

// removeIODirs removes the directories the run made for its MPI-IO files, with
// whatever is left in them, when the run ends, however it ends (runner.End).
func removeIODirs(r *runner.Runner) {
	io := state(r)
	io.mu.Lock()
	defer io.mu.Unlock()
	for _, dir := range io.dirs {
		os.RemoveAll(dir)
	}
	for _, f := range io.owners {
		f.Close()
	}
	io.owners = nil
}

// note is what an MPI-IO point's measurement tells its record: the directory under
// test and the library's hints for the point's file.
type note struct {
	dir   string
	hints map[string]string
}

// ioHinter is an operation that reports the library's hints for its file itself.
type ioHinter interface{ IOHints() map[string]string }

// measured notes the point's directory and the library's hints for its file: read
// from the prepared kernel (an ops/mpi operation, mpi.Op.Ctx) by the family's
// kernels, or as op says.
func measured(_ *runner.Runner, op runner.Op, spec ops.Request) (any, error) {
	n := &note{dir: ioDir(spec)}
	switch o := op.(type) {
	case ioHinter:
		n.hints = o.IOHints()
	case interface{ Ctx() unsafe.Pointer }:
		n.hints = kernels.Hints(o.Ctx())
	}
	return n, nil
}

// ioFields: what an MPI-IO point's data path was, the directory under test and the
// library's hints for its file, and IMB-IO's convention beside skampi's: the bytes of
// one call over every process, and its MB/s, that total over the slowest process's
// time (in the aggregate mode too: time_s is then one write's share of the sample, as
// IMB's t).
func ioFields(p *record.Point, pt *inputs.Point, n any) {
	if n, ok := n.(*note); ok {
		p.IODir = n.dir
		if len(n.hints) > 0 {
			p.IOHints = n.hints
		}
	}
	if op := pt.Op(); !op.NoData && p.TimeS > 0 {
		total := int64(pt.NProcs) * pt.Size
		agg := float64(total) / p.TimeS
		p.IOTotalBytes, p.AggregateBps = &total, &agg
	}
}

// removeStale removes, once the job is over, what ranks killed outright left in the
// MPI-IO directories (on this host; on the others the next run into the directory
// removes it).
func removeStale(plan *inputs.Plan) {
	for _, dir := range ioDirs(plan) {
		if base, err := ioBase(dir); err == nil {
			RemoveStaleIODirs(base)
		}
	}
}
