package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// File names inside the data dir (discovery.md §3.1).
const (
	LogName      = "agent.log"
	PrevName     = "agent.log.1"
	LockName     = "agent.log.lock"
	SegmentLimit = 2 * 1024 * 1024 // 2 MiB: rotate before appending to a file this large
	// MaxRecordBytes bounds one JSON line, so the current segment never exceeds
	// SegmentLimit-1+MaxRecordBytes bytes. Real records are a few hundred bytes.
	MaxRecordBytes = 64 * 1024
	// LockTimeout is how long an append waits for the log lock before dropping the
	// record (§4.5).
	LockTimeout = 2 * time.Second
)

// ErrLockTimeout is returned by Append when the log lock was not obtained in time; the
// record was not written.
var ErrLockTimeout = errors.New("audit: timed out waiting for the audit log lock")

// Append writes r as one line to <dataDir>/agent.log. It creates the directory, fills
// schema_version, ts and the lifecycle/legacy mirrors, validates the enums, and under
// the cross-process lock rotates agent.log to agent.log.1 when it has reached
// SegmentLimit, then writes the whole line with one write (undone on a short write).
// An error means the record was not written; callers warn and carry on.
func Append(dataDir string, r Record) error {
	return logFile{dir: dataDir, limit: SegmentLimit, timeout: LockTimeout}.append(r)
}

// logFile is Append with its bounds as parameters, so tests can lower the cap.
type logFile struct {
	dir     string
	limit   int64
	timeout time.Duration
}

func (l logFile) append(r Record) error {
	if l.dir == "" {
		return errors.New("audit: empty data dir")
	}
	r = r.normalize(time.Now())
	if err := r.validate(); err != nil {
		return err
	}
	line, err := r.line()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return fmt.Errorf("audit: creating data dir: %w", err)
	}
	unlock, err := acquire(filepath.Join(l.dir, LockName), true, l.timeout)
	if err != nil {
		return err
	}
	defer unlock()
	if err := l.rotate(); err != nil {
		return err
	}
	return writeWhole(filepath.Join(l.dir, LogName), line)
}

// rotate moves a full agent.log over agent.log.1. It runs under the lock, before the
// append, so the current file exceeds the limit by at most one record. A failed
// rotation fails the append rather than letting the log grow without bound.
func (l logFile) rotate() error {
	cur := filepath.Join(l.dir, LogName)
	fi, err := os.Stat(cur)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	if fi.Size() < l.limit {
		return nil
	}
	prev := filepath.Join(l.dir, PrevName)
	if err := os.Rename(cur, prev); err == nil {
		return nil
	}
	// Some Windows file systems refuse to replace an existing target; remove it first.
	if err := os.Remove(prev); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("audit: rotating: %w", err)
	}
	if err := os.Rename(cur, prev); err != nil {
		return fmt.Errorf("audit: rotating: %w", err)
	}
	return nil
}

// writeWhole appends line with a single Write call. On a short or failed write the file
// is truncated back to its previous length, so a record is whole or absent.
func writeWhole(path string, line []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	n, werr := f.Write(line)
	if werr == nil && n != len(line) {
		werr = fmt.Errorf("short write: %d of %d bytes", n, len(line))
	}
	if werr != nil {
		if n > 0 {
			_ = f.Truncate(fi.Size())
		}
		f.Close()
		return fmt.Errorf("audit: writing record: %w", werr)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}
