package mpiio

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// ioRunDir is the name of a run's directory for MPI-IO files (ioFile): nothing else in
// an io_dir is ever removed.
var ioRunDir = regexp.MustCompile(`^skampi-io-[0-9a-f]{16}$`)

// ownerFile is the file in a run's directory that its processes hold locked.
const ownerFile = ".owner"

// unclaimedAge is how old a run directory without an owner file must be before it is
// taken for a dead run's: younger, it may be a live run's between its mkdir and its lock.
const unclaimedAge = 10 * time.Minute

// claimIODir opens dir's owner file and holds a shared lock on it: the run is alive as
// long as one of its processes holds it.
func claimIODir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, ownerFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// RemoveStaleIODirs removes from base the run directories of runs no process holds any
// more (killed outright: SIGKILL, a lost node), with the files they left. Only
// directories named as skampi names them, holding only what skampi puts there (point
// files, their private and library side files, the owner file), are removed; anything
// else, and every directory a live run holds, is left alone. Errors are ignored: a
// directory that cannot be read or locked is not known to be dead.
func RemoveStaleIODirs(base string) []string {
	entries, err := os.ReadDir(base)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !ioRunDir.MatchString(e.Name()) || e.Type()&fs.ModeType != fs.ModeDir {
			continue // also a symbolic link of that name: never followed
		}
		dir := filepath.Join(base, e.Name())
		if removeIfDead(dir) {
			removed = append(removed, dir)
		}
	}
	return removed
}

// removeIfDead removes dir when no process holds it and it holds only skampi's files.
func removeIfDead(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if name := e.Name(); name != ownerFile && (!strings.HasPrefix(name, "point-") || e.IsDir()) {
			return false
		}
	}
	f, err := os.Open(filepath.Join(dir, ownerFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fi, err := os.Lstat(dir)
		if err != nil || time.Since(fi.ModTime()) < unclaimedAge {
			return false
		}
	case err != nil:
		return false
	default:
		defer f.Close()
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			return false // held: a live run's (or a lock this file system cannot give)
		}
	}
	return os.RemoveAll(dir) == nil
}
