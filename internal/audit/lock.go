package audit

import (
	"fmt"
	"os"
	"time"
)

// acquire takes the cross-process lock on path, exclusive for writers and shared for a
// reader's rare fallback (see snapshot), waiting at most timeout, and returns its
// release. The wait is a blocking OS
// lock call in a goroutine, not a poll, so waiters queue in the kernel and a busy writer
// cannot starve them; if the timeout wins, the goroutine releases the lock as soon as
// it gets it.
func acquire(path string, exclusive bool, timeout time.Duration) (func(), error) {
	// Only writers create the lock file: a reader (logs_query is read-only) leaves the
	// data dir untouched, and with no lock file there is no writer to exclude yet.
	flag := os.O_RDONLY
	if exclusive {
		flag = os.O_RDWR | os.O_CREATE
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit: opening lock file: %w", err)
	}
	release := func() {
		_ = unlockFile(f)
		f.Close()
	}
	ok, err := tryLockFile(f, exclusive)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("audit: locking: %w", err)
	}
	if ok {
		return release, nil
	}
	done := make(chan error, 1)
	go func() { done <- lockFile(f, exclusive) }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("audit: locking: %w", err)
		}
		return release, nil
	case <-timer.C:
		go func() {
			if <-done == nil {
				_ = unlockFile(f)
			}
			f.Close()
		}()
		return nil, ErrLockTimeout
	}
}
