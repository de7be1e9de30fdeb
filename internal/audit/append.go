package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// File names inside the data dir (docs/audit.md, "Files").
const (
	LogName      = "agent.log"
	PrevName     = "agent.log.1"
	LockName     = "agent.log.lock"
	SegmentLimit = 2 * 1024 * 1024 // 2 MiB: rotate before appending to a file this large
	// MaxRecordBytes bounds one JSON line, so the current segment never exceeds
	// SegmentLimit-1+MaxRecordBytes bytes. Real records are a few hundred bytes.
	MaxRecordBytes = 64 * 1024
	// LockTimeout is how long Append waits for its record to be written. A record
	// that is not written by then is kept and written later (ErrNotYetWritten); the
	// caller goes on. Appends of one process go through one queue (writer), so the
	// wait is for other processes' appends, each well under a millisecond: reaching
	// this bound means another process is stuck holding the lock, not busy.
	LockTimeout = 10 * time.Second
)

// ErrLockTimeout is returned when the log lock was not obtained in time by a caller
// that gives up waiting for it (a reader's fallback; logFile.append).
var ErrLockTimeout = errors.New("audit: timed out waiting for the audit log lock")

// Append writes r as one line to <dataDir>/agent.log. It fills schema_version, ts and
// the lifecycle/legacy mirrors and validates the enums; then the line joins this
// process's queue for dataDir, whose one writer creates the directory and, under the
// cross-process lock, rotates agent.log to agent.log.1 when it has reached SegmentLimit
// and writes each line with one write (undone on a short write).
//
// nil means the record is in the log. ErrNotYetWritten means it is not yet but is kept
// and written as soon as the log allows (the caller waited LockTimeout, or a write
// failed and is being retried): it is lost only if the process exits first (see Flush).
// Any other error means the record was refused (invalid, too large, too many records
// waiting) and not kept. Callers report every error (hooks warn on stderr, the
// server's sink logs it) and carry on: a record is never dropped silently.
func Append(dataDir string, r Record) error {
	if dataDir == "" {
		return errors.New("audit: empty data dir")
	}
	line, err := r.normalize(time.Now()).checkedLine()
	if err != nil {
		return err
	}
	return writerFor(dataDir).append(line, LockTimeout)
}

// logFile is one data directory's log with its bounds as parameters, so tests can lower
// the cap, and its rename as a parameter, so Linux tests can refuse renames the way
// Windows does. Its append is one locked append without the process's queue: the
// concurrency tests use it to exercise the cross-process lock itself.
type logFile struct {
	dir     string
	limit   int64
	timeout time.Duration
	rename  func(oldpath, newpath string) error // nil: os.Rename
}

func (l logFile) append(r Record) error {
	if l.dir == "" {
		return errors.New("audit: empty data dir")
	}
	line, err := r.normalize(time.Now()).checkedLine()
	if err != nil {
		return err
	}
	if err := l.mkdir(); err != nil {
		return err
	}
	unlock, err := acquire(filepath.Join(l.dir, LockName), true, l.timeout)
	if err != nil {
		return err
	}
	defer unlock()
	_, err = l.writeLocked([]*pending{{line: line}})
	return err
}

func (l logFile) mkdir() error {
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return fmt.Errorf("audit: creating data dir: %w", err)
	}
	return nil
}

// writeLocked appends the lines of batch in order, each after the rotation check, and
// returns how many it wrote; the caller holds the lock. It stops at the first failure:
// the lines after it are not written.
func (l logFile) writeLocked(batch []*pending) (int, error) {
	cur := filepath.Join(l.dir, LogName)
	for i, p := range batch {
		if err := l.rotate(); err != nil {
			return i, err
		}
		if err := writeWhole(cur, p.line); err != nil {
			return i, err
		}
	}
	return len(batch), nil
}

// asidePrefix names a predecessor being discarded: agent.log.1.discard-<random>.
const asidePrefix = PrevName + ".discard-"

// rotate moves a full agent.log over agent.log.1. It runs under the lock, before the
// append, so the current file exceeds the limit by at most one record. A failed
// rotation fails the append (with an error the caller reports) rather than letting the
// log grow without bound.
//
// Readers hold segments open while they read (opened with FILE_SHARE_DELETE on
// Windows). Windows lets such a file be renamed but refuses to replace it, so when the
// plain rename fails the old predecessor is first renamed aside under a unique name and
// removed: it disappears once its last reader closes it, and a reader that has it open
// still reads it whole. Should the final rename fail too, the predecessor is put back.
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
	rename := l.rename
	if rename == nil {
		rename = os.Rename
	}
	prev := filepath.Join(l.dir, PrevName)
	first := rename(cur, prev)
	if first == nil {
		return nil
	}
	sweepAsides(l.dir)
	aside := filepath.Join(l.dir, asidePrefix+strconv.FormatUint(rand.Uint64(), 36)) //nolint:gosec // G404: a unique file name, not a secret
	if err := rename(prev, aside); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("audit: rotating: %w (moving the old predecessor aside: %v)", first, err)
	}
	if err := rename(cur, prev); err != nil {
		_ = rename(aside, prev)
		return fmt.Errorf("audit: rotating: %w", err)
	}
	_ = os.Remove(aside)
	return nil
}

// sweepAsides removes discarded predecessors left behind by a rotation that was
// interrupted between moving one aside and removing it. One still open in a reader
// on Windows is only marked for deletion; that is enough.
func sweepAsides(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), asidePrefix) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
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
