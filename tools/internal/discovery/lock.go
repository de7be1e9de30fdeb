package discovery

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/windows-dev-agent/wda/internal/platform/filelock"
)

// The cache lock (docs/discovery.md, "Locking"): an exclusive lock on
// <data dir>/environment.lock (internal/platform/filelock), waited for at most
// lockTimeout.
const (
	lockFileName = "environment.lock"
	lockTimeout  = 5 * time.Second
)

// acquireLock takes the data dir's cache lock, creating the directory and the lock
// file if needed. It gives up after the timeout.
func acquireLock(dir string, timeout time.Duration) (*filelock.Lock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	l, err := filelock.Acquire(filepath.Join(dir, lockFileName), filelock.Exclusive, timeout)
	if err != nil {
		return nil, fmt.Errorf("environment cache lock: %w", err)
	}
	return l, nil
}
