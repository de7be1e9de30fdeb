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
	// LockTimeout is how long an append waits for the log lock before it gives up and
	// returns ErrLockTimeout. Readers never take the lock (bar a rare fallback of a few
	// microseconds), so an append waits only for the appends queued before it, each well
	// under a millisecond: reaching this bound means a writer is stuck, not busy.
	LockTimeout = 10 * time.Second
)

// ErrLockTimeout is returned by Append when the log lock was not obtained in time; the
// record was not written.
var ErrLockTimeout = errors.New("audit: timed out waiting for the audit log lock")

// Append writes r as one line to <dataDir>/agent.log. It creates the directory, fills
// schema_version, ts and the lifecycle/legacy mirrors, validates the enums, and under
// the cross-process lock rotates agent.log to agent.log.1 when it has reached
// SegmentLimit, then writes the whole line with one write (undone on a short write).
// An error means the record was not written; callers must report it (hooks warn on
// stderr, the server's Sink logs it) and carry on: a record is never dropped silently.
func Append(dataDir string, r Record) error {
	return logFile{dir: dataDir, limit: SegmentLimit, timeout: LockTimeout}.append(r)
}

// logFile is Append with its bounds as parameters, so tests can lower the cap, and its
// rename as a parameter, so Linux tests can refuse renames the way Windows does.
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
