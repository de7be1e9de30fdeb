package filelock

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// short is how long an attempt that must fail waits: the lock is held throughout, so
// the value only bounds the test's duration.
const short = 20 * time.Millisecond

func lockPath(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "x.lock")
}

func mustAcquire(t *testing.T, path string, mode Mode) *Lock {
	t.Helper()
	l, err := Acquire(path, mode, time.Minute)
	if err != nil {
		t.Fatalf("Acquire(%v): %v", mode, err)
	}
	return l
}

func wantTimeout(t *testing.T, path string, mode Mode, timeout time.Duration) {
	t.Helper()
	if l, err := Acquire(path, mode, timeout); !errors.Is(err, ErrTimeout) {
		l.Unlock()
		t.Fatalf("Acquire(%v, %v) = %v; want ErrTimeout", mode, timeout, err)
	}
}

// TestModes is the exclusion table, within one process (the lock belongs to the open
// file, not to the process): exclusive excludes both modes, shared excludes only
// exclusive, and a released lock is free again.
func TestModes(t *testing.T) {
	t.Parallel()
	path := lockPath(t)
	ex := mustAcquire(t, path, Exclusive)
	wantTimeout(t, path, Exclusive, 0)
	wantTimeout(t, path, Shared, short)
	ex.Unlock()

	a := mustAcquire(t, path, Shared)
	b := mustAcquire(t, path, Shared)
	wantTimeout(t, path, Exclusive, short)
	a.Unlock()
	wantTimeout(t, path, Exclusive, 0)
	b.Unlock()
	mustAcquire(t, path, Exclusive).Unlock()
}

// TestExclusiveCreatesSharedDoesNot: only an exclusive lock creates the lock file, and
// it leaves it empty.
func TestExclusiveCreatesSharedDoesNot(t *testing.T) {
	t.Parallel()
	path := lockPath(t)
	if _, err := Acquire(path, Shared, time.Minute); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("shared lock on a missing file: %v, want ErrNotExist", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a shared lock created the file (%v)", err)
	}
	mustAcquire(t, path, Exclusive).Unlock()
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != 0 {
		t.Fatalf("lock file after an exclusive lock: %v, %v; want an empty file", fi, err)
	}
	mustAcquire(t, path, Shared).Unlock()
}

// TestWaiterIsGranted: a waiter blocked in the kernel gets the lock when the holder
// releases it, well inside its timeout.
func TestWaiterIsGranted(t *testing.T) {
	t.Parallel()
	for _, mode := range []Mode{Exclusive, Shared} {
		path := lockPath(t)
		held := mustAcquire(t, path, Exclusive)
		blocked := make(chan struct{})
		got := make(chan error, 1)
		go func() {
			l, err := acquire(path, mode, time.Minute, func() { close(blocked) })
			l.Unlock()
			got <- err
		}()
		<-blocked
		held.Unlock()
		if err := <-got; err != nil {
			t.Fatalf("mode %v: the waiter was not granted the released lock: %v", mode, err)
		}
	}
}

// TestTimeoutGivesBack: a wait that timed out returns ErrTimeout, and the abandoned
// wait hands the lock back once it is granted, so a patient caller gets it.
func TestTimeoutGivesBack(t *testing.T) {
	t.Parallel()
	path := lockPath(t)
	held := mustAcquire(t, path, Exclusive)
	var waited bool
	if _, err := acquire(path, Exclusive, short, func() { waited = true }); !errors.Is(err, ErrTimeout) || !waited {
		t.Fatalf("timed-out wait = %v (waited %v); want ErrTimeout after a blocking wait", err, waited)
	}
	held.Unlock()
	mustAcquire(t, path, Exclusive).Unlock()
}

func TestUnlockTwiceAndNil(t *testing.T) {
	t.Parallel()
	var l *Lock
	l.Unlock()
	path := lockPath(t)
	l = mustAcquire(t, path, Exclusive)
	l.Unlock()
	l.Unlock()
	mustAcquire(t, path, Exclusive).Unlock()
}

func TestOpenFailure(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "missing-dir", "x.lock")
	if _, err := Acquire(path, Exclusive, time.Minute); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("lock in a missing directory: %v, want ErrNotExist", err)
	}
}

// BenchmarkAcquireUnlock is an uncontended exclusive lock: open, lock, unlock, close.
func BenchmarkAcquireUnlock(b *testing.B) {
	path := filepath.Join(b.TempDir(), "x.lock")
	for b.Loop() {
		l, err := Acquire(path, Exclusive, time.Second)
		if err != nil {
			b.Fatal(err)
		}
		l.Unlock()
	}
}
