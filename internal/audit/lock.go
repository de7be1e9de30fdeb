package audit

import (
	"errors"
	"fmt"
	"time"

	"github.com/windows-dev-agent/wda/internal/platform/filelock"
)

// acquire takes the cross-process lock on path (internal/platform/filelock), exclusive
// for writers and shared for a reader's rare fallback (see snapshot), waiting at most
// timeout, and returns its release. Only writers create the lock file: a reader
// (logs_query is read-only) leaves the data dir untouched.
func acquire(path string, exclusive bool, timeout time.Duration) (func(), error) {
	mode := filelock.Shared
	if exclusive {
		mode = filelock.Exclusive
	}
	l, err := filelock.Acquire(path, mode, timeout)
	switch {
	case errors.Is(err, filelock.ErrTimeout):
		return nil, ErrLockTimeout
	case err != nil:
		return nil, fmt.Errorf("audit: locking: %w", err)
	}
	return l.Unlock, nil
}
