//go:build mpi

package kernels

import (
	"fmt"
	"os"
	"path/filepath"
)

// explain says an MPI-IO failure every rank agreed on: the first failing rank's call,
// file and the library's words (msg), and what the directory itself says when written
// to (the operating system's errno text: a full or read-only file system). The probe
// is written beside the point's file, in the run's own directory, which a run killed
// mid-probe leaves to the next run's clean-up (families/mpiio RemoveStaleIODirs).
func explain(words map[string]string, msg string) error {
	path := words["io_path"]
	run := filepath.Dir(path)
	dir := filepath.Dir(run) // the directory under test: families/mpiio puts a run's files in a directory of its own there
	at := dir
	if fi, err := os.Stat(run); path != "" && err == nil && fi.IsDir() {
		at = run
	}
	if probe := probeDir(at); probe != nil {
		return fmt.Errorf("io_dir %s: %s; writing to the directory: %v", dir, msg, probe)
	}
	return fmt.Errorf("io_dir %s: %s", dir, msg)
}

// probeDir writes a few bytes to a new file in dir and removes it: the error, if any.
func probeDir(dir string) error {
	f, err := os.CreateTemp(dir, "point-probe-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(make([]byte, 4096))
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
