//go:build mpi

package mpi

/*
#include "skampi.h"
const char *sk_io_message(void);
const char *sk_io_hints(const sk_ctx *c);
*/
import "C"

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// IOHints are the hints the library reported for an MPI-IO operation's file
// (MPI_File_get_info after the open: cb_buffer_size, romio_cb_write, striping_unit,
// ...), as this rank saw them; nil for the other operations.
func (o *Op) IOHints() map[string]string {
	if o == nil || o.ctx == nil || o.io == "" {
		return nil
	}
	h := map[string]string{}
	for _, line := range strings.Split(C.GoString(C.sk_io_hints(o.ctx)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			h[k] = v
		}
	}
	return h
}

// ioError is an MPI-IO failure every rank agreed on: the first failing rank's call,
// file and the library's words, and what the directory itself says when written to
// (the operating system's errno text: a full or read-only file system). The probe is
// written beside the point's file, in the run's own directory, which a run killed
// mid-probe leaves to the next run's clean-up (families/mpiio RemoveStaleIODirs).
func ioError(dir, path string) error {
	msg := strings.Join(strings.Fields(C.GoString(C.sk_io_message())), " ") // MPICH's error stack is several lines
	at := dir
	if run := filepath.Dir(path); path != "" {
		if fi, err := os.Stat(run); err == nil && fi.IsDir() {
			at = run
		}
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
