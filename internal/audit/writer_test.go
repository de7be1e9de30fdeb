package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/platform/filelock"
)

// seqLine is seqRecord's JSON line.
func seqLine(t testing.TB, w, i, pad int) []byte {
	t.Helper()
	line, err := seqRecord(w, i, pad).normalize(time.Now()).line()
	if err != nil {
		t.Fatal(err)
	}
	return line
}

// flushed waits until w has written everything queued; replyBound-style, it only turns
// a writer that never finishes into a failure.
func flushed(t *testing.T, w *writer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := w.flush(ctx); err != nil {
		t.Fatalf("flush: %v", err)
	}
}

// TestFloodOfAppendsKeepsEveryRecord is issue 22 §3: 1,500 appends at once while
// another process holds the log lock for longer than any of them waits. Before, each
// append waited in the kernel on its own lock handle and gave up (ErrLockTimeout): the
// record was lost. Now every record is kept in this process's queue, each caller is told
// so (ErrNotYetWritten), and once the lock is free all of them are written exactly once,
// in a handful of lock holds: appends of one process never contend among themselves.
func TestFloodOfAppendsKeepsEveryRecord(t *testing.T) {
	t.Parallel()
	const n, pad = 1500, 40
	dir := t.TempDir()
	// Another open file description excludes exactly as another process does.
	other, err := filelock.Acquire(filepath.Join(dir, LockName), filelock.Exclusive, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := newWriter(logFile{dir: dir, limit: SegmentLimit, timeout: lockWaitForever})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { errs[i] = w.append(seqLine(t, i, 0, pad), 0) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && !errors.Is(err, ErrNotYetWritten) {
			t.Fatalf("append %d: %v: a record that is not kept is a lost record", i, err)
		}
	}
	other.Unlock()
	flushed(t, w)
	evs, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, id := range useIDs(evs) {
		seen[id]++
	}
	for i := range n {
		if id := seqRecord(i, 0, pad).ToolUseID; seen[id] != 1 {
			t.Errorf("record %s is in the log %d times, want once", id, seen[id])
		}
	}
	if len(evs) != n {
		t.Errorf("the log holds %d records, want %d", len(evs), n)
	}
	// One lock wait for the first record, then batches: never one hold per record.
	if h, most := w.lockHolds(), 1+(n-1+maxBatch-1)/maxBatch; h > most {
		t.Errorf("%d lock holds for %d records, want at most %d", h, n, most)
	}
}

// TestFailedWriteIsKeptAndRetried: a write that fails (here a rotation the OS refuses,
// as Windows does while another program holds the predecessor open without sharing
// deletion) fails no record: each is kept, its caller is told why, and the next retry
// writes them all, once each, in order.
func TestFailedWriteIsKeptAndRetried(t *testing.T) {
	t.Parallel()
	const pad = 10
	dir := t.TempDir()
	n := lineLen(t, pad)
	var refusing atomic.Bool
	refusing.Store(true)
	rename := func(oldpath, newpath string) error {
		if refusing.Load() {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: errors.New("sharing violation")}
		}
		return os.Rename(oldpath, newpath)
	}
	// agent.log is full: the next append must rotate first.
	writeSeg(t, dir, LogName, string(seqLine(t, 9, 0, pad)))
	w := newWriter(logFile{dir: dir, limit: int64(n), timeout: lockWaitForever, rename: rename})
	retries := make(chan int, 16)
	again := make(chan time.Time)
	w.retryAfter = func(attempt int) <-chan time.Time {
		retries <- attempt
		return again
	}
	const k = 5
	var errs []error
	for i := range k {
		// The first caller waits for the outcome of its write; the others, queued
		// while a failure is being retried, are told at once.
		wait := time.Duration(0)
		if i == 0 {
			wait = time.Minute
		}
		errs = append(errs, w.append(seqLine(t, 0, i, pad), wait))
		if i == 0 {
			select { // the writer failed and waits to retry
			case <-retries:
			case <-time.After(time.Minute):
				t.Fatal("the failed write is not retried")
			}
		}
	}
	for i, err := range errs {
		if !errors.Is(err, ErrNotYetWritten) || !strings.Contains(err.Error(), "sharing violation") {
			t.Errorf("append %d during the failure = %v, want ErrNotYetWritten naming the cause", i, err)
		}
	}
	if got, _ := rawLines(t, filepath.Join(dir, LogName)); len(got) != 1 {
		t.Fatalf("agent.log holds %d records during the failure, want the 1 it had", len(got))
	}
	refusing.Store(false)
	again <- time.Time{}
	flushed(t, w)
	cur, _ := rawLines(t, filepath.Join(dir, LogName))
	prev, _ := rawLines(t, filepath.Join(dir, PrevName))
	want := []string{"w009-0000000", "w000-0000000", "w000-0000001", "w000-0000002", "w000-0000003", "w000-0000004"}
	// Each record of limit bytes rotates the one before it away: only the last two are
	// retained, but every one was written (the rotation discards, not the writer).
	if d := cmp.Diff(want[len(want)-2:], useIDs(append(prev, cur...))); d != "" {
		t.Errorf("retained records (-want +got):\n%s", d)
	}
	if w.written() != k {
		t.Errorf("%d records written, want %d", w.written(), k)
	}
}

// TestAppendRefusesWhatCanNeverBeWritten: a record Append refuses (validation) is
// reported at once and never queued; the writer's queue has a byte bound, past which a
// record is refused with an error saying it was not kept.
func TestAppendRefusesWhatCanNeverBeWritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := Append(dir, Record{Event: EventPostToolUse, ExecutionOutcome: "maybe"}); err == nil || errors.Is(err, ErrNotYetWritten) {
		t.Fatalf("invalid record: %v", err)
	}
	other, err := filelock.Acquire(filepath.Join(dir, LockName), filelock.Exclusive, 0)
	if err != nil {
		t.Fatal(err)
	}
	line := seqLine(t, 0, 0, 10)
	w := newWriter(logFile{dir: dir, limit: SegmentLimit, timeout: lockWaitForever})
	w.maxPending = 2 * len(line)
	for i := range 2 {
		if err := w.append(line, 0); !errors.Is(err, ErrNotYetWritten) {
			t.Fatalf("append %d: %v", i, err)
		}
	}
	err = w.append(line, 0)
	if err == nil || errors.Is(err, ErrNotYetWritten) || !strings.Contains(err.Error(), "not kept") {
		t.Fatalf("append past the bound = %v, want a refusal saying it was not kept", err)
	}
	other.Unlock()
	flushed(t, w)
	if got, _ := rawLines(t, filepath.Join(dir, LogName)); len(got) != 2 {
		t.Fatalf("%d records written, want the 2 kept", len(got))
	}
}
