package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// The lock is the byte at offset 0. Locking past the end of the file is allowed, so
// an empty lock file carries it as well as any other. os.OpenFile's handles are
// synchronous, so without LOCKFILE_FAIL_IMMEDIATELY LockFileEx blocks until the lock is
// granted.

func flags(exclusive bool) uint32 {
	if exclusive {
		return windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	return 0 // shared
}

func tryLock(f *os.File, exclusive bool) (bool, error) {
	ol := new(windows.Overlapped)
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags(exclusive)|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return false, nil
	}
	return err == nil, err
}

func lock(f *os.File, exclusive bool) error {
	ol := new(windows.Overlapped)
	return windows.LockFileEx(windows.Handle(f.Fd()), flags(exclusive), 0, 1, 0, ol)
}

func unlock(f *os.File) error {
	ol := new(windows.Overlapped)
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
}
