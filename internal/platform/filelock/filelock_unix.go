//go:build unix

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

func how(exclusive bool) int {
	if exclusive {
		return unix.LOCK_EX
	}
	return unix.LOCK_SH
}

func tryLock(f *os.File, exclusive bool) (bool, error) {
	err := unix.Flock(int(f.Fd()), how(exclusive)|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) || errors.Is(err, unix.EAGAIN) {
		return false, nil
	}
	return err == nil, err
}

// lock blocks in flock until the lock is granted; a signal interrupting the wait
// (EINTR) resumes it.
func lock(f *os.File, exclusive bool) error {
	for {
		err := unix.Flock(int(f.Fd()), how(exclusive))
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func unlock(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_UN) }
