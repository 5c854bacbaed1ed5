//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package tune

import (
	"errors"
	"os"
	"syscall"
)

// lockFile opens path and takes its exclusive flock without waiting; held says
// another open file holds it (f then reads who).
func lockFile(path string) (f *os.File, held bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return f, true, nil
		}
		f.Close()
		return nil, false, err
	}
	return f, false, nil
}

// unlockFile closes the file, which releases its lock; the file stays (removing it
// would let a third run lock a new file while a second holds the old one).
func unlockFile(f *os.File, _ string) { f.Close() }
