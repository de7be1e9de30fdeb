package discovery

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Lock parameters (docs/discovery.md, "Locking"): an exclusive lock on environment.lock
// (a 1-byte range lock on Windows, flock elsewhere), tried non-blocking and polled every
// 10 ms for up to 5 s.
const (
	lockFileName = "environment.lock"
	lockTimeout  = 5 * time.Second
	lockPoll     = 10 * time.Millisecond
)

var errLockBusy = errors.New("lock is held by another process")

// fileLock is the cross-process cache lock.
type fileLock struct{ f *os.File }

// acquireLock takes the data dir's cache lock, creating the lock file (one byte) if
// needed. It gives up after the timeout.
func acquireLock(dir string, timeout time.Duration) (*fileLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, lockFileName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
		// A zero-length file cannot carry a byte-range lock on every platform.
		_, _ = f.Write([]byte{0})
	}
	deadline := time.Now().Add(timeout)
	for {
		err := tryLock(f)
		if err == nil {
			return &fileLock{f: f}, nil
		}
		if !errors.Is(err, errLockBusy) || !time.Now().Before(deadline) {
			f.Close()
			return nil, fmt.Errorf("environment cache lock: %w", err)
		}
		time.Sleep(lockPoll)
	}
}

func (l *fileLock) release() {
	if l == nil || l.f == nil {
		return
	}
	_ = unlock(l.f)
	_ = l.f.Close()
	l.f = nil
}
