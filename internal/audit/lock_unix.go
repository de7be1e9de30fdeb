//go:build unix

package audit

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// flock locks are per open file description, so two opens in one process exclude each
// other as well as other processes.

func how(exclusive bool) int {
	if exclusive {
		return unix.LOCK_EX
	}
	return unix.LOCK_SH
}

func tryLockFile(f *os.File, exclusive bool) (bool, error) {
	err := unix.Flock(int(f.Fd()), how(exclusive)|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func lockFile(f *os.File, exclusive bool) error {
	for {
		err := unix.Flock(int(f.Fd()), how(exclusive))
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func unlockFile(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_UN) }
