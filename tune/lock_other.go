//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package tune

import (
	"errors"
	"os"
)

// lockFile creates path exclusively where flock is not available: its existence is
// the lock, so a run that was killed leaves it behind (the message names the owner to
// check before removing it).
func lockFile(path string) (f *os.File, held bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		if f, err = os.Open(path); err != nil {
			return nil, false, err
		}
		return f, true, nil
	}
	return f, false, err
}

// unlockFile closes and removes the lock file.
func unlockFile(f *os.File, path string) {
	f.Close()
	os.Remove(path)
}
