//go:build windows

package audit

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// A one-byte range lock at offset 0, exclusive for writers and shared for readers (locking past end of file is allowed).
// LockFileEx locks belong to the handle, so two opens in one process exclude each other
// as well as other processes. The handle is synchronous, so without
// LOCKFILE_FAIL_IMMEDIATELY the call blocks until the lock is granted.

func flags(exclusive bool) uint32 {
	if exclusive {
		return windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	return 0 // shared
}

func tryLockFile(f *os.File, exclusive bool) (bool, error) {
	ol := new(windows.Overlapped)
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags(exclusive)|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return false, nil
	}
	return err == nil, err
}

func lockFile(f *os.File, exclusive bool) error {
	ol := new(windows.Overlapped)
	return windows.LockFileEx(windows.Handle(f.Fd()), flags(exclusive), 0, 1, 0, ol)
}

func unlockFile(f *os.File) error {
	ol := new(windows.Overlapped)
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
}
