// Package filelock is the one cross-process file lock (docs/platform.md, "File
// locks"): flock on Unix, a one-byte LockFileEx range lock at offset 0 on Windows,
// shared or exclusive, with a bounded wait that queues in the kernel instead of
// polling.
//
// Both kinds of lock belong to the open file (Unix: the open file description;
// Windows: the handle), so two Acquire calls in one process exclude each other just as
// two processes do.
//
// It must never write to a lock file's contents: the lock is the only thing a lock
// file carries.
package filelock

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// Mode is the kind of lock.
type Mode uint8

const (
	// Shared locks coexist with each other and exclude Exclusive ones.
	Shared Mode = iota
	// Exclusive excludes every other lock.
	Exclusive
)

// ErrTimeout is returned by Acquire when the lock was not granted in time.
var ErrTimeout = errors.New("timed out waiting for the file lock")

// Lock is a held lock. Unlock releases it.
type Lock struct{ f *os.File }

// Acquire takes a lock of mode on the file at path and waits at most timeout for it
// (a timeout of zero or less tries once).
//
// An Exclusive lock opens the file read-write and creates it (0600) when absent. A
// Shared lock opens it read-only and never creates it: a shared holder only reads, so
// with no lock file there is no writer to exclude yet, and the caller gets an error
// satisfying errors.Is(err, fs.ErrNotExist).
//
// The wait is one blocking lock call, not a poll: waiters queue in the kernel and a
// holder that releases and re-takes the lock in a loop cannot starve them. If the
// timeout wins, the call returns ErrTimeout at once and the abandoned wait gives the
// lock back as soon as it is granted. Neither flock nor LockFileEx puts an Exclusive
// waiter ahead of later Shared requests, so Shared holds must stay brief for an
// Exclusive waiter to get through.
func Acquire(path string, mode Mode, timeout time.Duration) (*Lock, error) {
	return acquire(path, mode, timeout, nil)
}

// acquire is Acquire; waiting, when not nil, is called once the non-blocking attempt
// has failed and the blocking wait begins (tests use it to order events without
// sleeping).
func acquire(path string, mode Mode, timeout time.Duration, waiting func()) (*Lock, error) {
	exclusive := mode == Exclusive
	flag := os.O_RDONLY
	if exclusive {
		flag = os.O_RDWR | os.O_CREATE
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return nil, err
	}
	ok, err := tryLock(f, exclusive)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if ok {
		return &Lock{f: f}, nil
	}
	if timeout <= 0 {
		f.Close()
		return nil, ErrTimeout
	}
	done := make(chan error, 1)
	go func() { done <- lock(f, exclusive) }()
	if waiting != nil {
		waiting()
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return &Lock{f: f}, nil
	case <-timer.C:
		go func() {
			if <-done == nil {
				_ = unlock(f)
			}
			f.Close()
		}()
		return nil, ErrTimeout
	}
}

// Unlock releases the lock and closes its file. It may be called on a nil Lock and
// more than once.
func (l *Lock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	_ = unlock(l.f)
	l.f.Close()
	l.f = nil
}
