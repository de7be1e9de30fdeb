package audit

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// ErrNotYetWritten is the error of an append whose record is not in the log yet but is
// kept: it waits in this process's queue and is written as soon as the log can be
// written (the lock is obtained, the failure clears). The record is lost only if the
// process exits first (docs/audit.md, "Writers: locking and the no-loss guarantee").
var ErrNotYetWritten = errors.New("audit: record not written yet; it is kept in memory and written as soon as the log allows, unless this process exits first")

const (
	// maxBatch bounds the records one lock hold writes, so another process waiting for
	// the lock waits for at most this many appends (a few milliseconds).
	maxBatch = 256
	// maxPending bounds the bytes of records waiting in one process's queue: about
	// 50,000 ordinary records, hours of calls with the log locked or failing. Past it a
	// record is refused with an error saying it was not kept.
	maxPending = 16 << 20
	// lockWaitForever is the writer's wait for the lock: it never gives up (callers
	// stop waiting for their record instead; see writer.append). One blocking wait, so
	// no abandoned waits pile up while another process holds the lock.
	lockWaitForever = time.Duration(1 << 62)
)

// writers are this process's log writers, one per data directory.
var writers sync.Map // cleaned absolute dir -> *writer

// writerFor is the process's writer of dir's log.
func writerFor(dir string) *writer {
	key := filepath.Clean(dir)
	if abs, err := filepath.Abs(key); err == nil {
		key = abs
	}
	if w, ok := writers.Load(key); ok {
		return w.(*writer)
	}
	w, _ := writers.LoadOrStore(key, newWriter(logFile{dir: dir, limit: SegmentLimit, timeout: lockWaitForever}))
	return w.(*writer)
}

// Flush waits until every record this process has queued (in any data directory) is
// written, or until timeout. A process that is about to exit calls it so that records
// still waiting for the lock are not lost with it; the error says how many remain.
func Flush(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var errs []error
	writers.Range(func(_, v any) bool {
		if err := v.(*writer).flush(ctx); err != nil {
			errs = append(errs, err)
		}
		return true
	})
	return errors.Join(errs...)
}

// writer is the one writer of a data directory's log in this process. Every append goes
// through its queue and one goroutine writes the queue out, taking the cross-process
// lock once per batch. So the appends of one process never contend for the lock among
// themselves (1,500 goroutines each waiting on its own lock handle gave up after
// LockTimeout, and their records were lost), and a record that cannot be written yet
// stays queued and is retried until it is.
type writer struct {
	log        logFile
	maxPending int
	// retryAfter is how long the writer waits after a failed write before it tries
	// again (tests replace it).
	retryAfter func(attempt int) <-chan time.Time

	mu           sync.Mutex
	queue        []*pending // in order of arrival
	pendingBytes int
	running      bool          // the write loop is running
	idle         chan struct{} // closed when the loop ends with the queue empty
	lastErr      error         // why the last write failed; nil after a success
	waitingSince time.Time     // when the loop began waiting for the lock; zero when not waiting
	holds        int           // lock holds taken (tests)
	count        int           // records written (tests)
}

// pending is one queued record.
type pending struct {
	line []byte
	// done receives the outcome once: nil when written, or an ErrNotYetWritten when a
	// write failed and the record stays queued. told records that it was sent (or that
	// the caller stopped waiting), so nothing is sent twice.
	done chan error
	told bool
}

func newWriter(l logFile) *writer {
	idle := make(chan struct{})
	close(idle)
	return &writer{log: l, maxPending: maxPending, retryAfter: backoff, idle: idle}
}

// backoff waits 100 ms after a first failure, doubling up to 30 s.
func backoff(attempt int) <-chan time.Time {
	d := 100 * time.Millisecond << min(attempt-1, 9)
	return time.After(min(d, 30*time.Second))
}

// append queues line and waits at most wait for it to be written. nil means the line
// is in the log; an ErrNotYetWritten means it is kept and will be written; any other
// error means it was refused and not kept.
//
// A caller does not wait when the record cannot be written soon: while a failed write
// is being retried, or when the writer has already waited longer than wait for the lock.
func (w *writer) append(line []byte, wait time.Duration) error {
	p := &pending{line: line, done: make(chan error, 1)}
	w.mu.Lock()
	if w.pendingBytes+len(line) > w.maxPending {
		n := len(w.queue)
		w.mu.Unlock()
		return fmt.Errorf("audit: record not kept: %d records (%d bytes) are already waiting to be written to %s, the most this process keeps", n, w.pendingBytes, w.log.dir)
	}
	w.queue = append(w.queue, p)
	w.pendingBytes += len(line)
	if !w.running {
		w.running = true
		w.idle = make(chan struct{})
		go w.run()
	}
	hopeless := w.lastErr != nil || (!w.waitingSince.IsZero() && time.Since(w.waitingSince) >= wait)
	w.mu.Unlock()
	if !hopeless && wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case err := <-p.done:
			return err
		case <-timer.C:
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if p.told {
		return <-p.done // decided meanwhile: the value is buffered
	}
	p.told = true
	return w.notYetLocked()
}

// notYetLocked is the ErrNotYetWritten of a record still queued, with the reason.
func (w *writer) notYetLocked() error {
	if w.lastErr != nil {
		return fmt.Errorf("%w: %w", ErrNotYetWritten, w.lastErr)
	}
	return fmt.Errorf("%w: waiting for the audit log lock (another process holds it)", ErrNotYetWritten)
}

// run writes the queue out, batch by batch, until it is empty. A failed batch is kept
// and retried after a backoff; nothing is ever dropped from the queue unwritten.
func (w *writer) run() {
	lockPath := filepath.Join(w.log.dir, LockName)
	for attempt := 0; ; {
		w.mu.Lock()
		if len(w.queue) == 0 {
			w.running = false
			close(w.idle)
			w.mu.Unlock()
			return
		}
		w.waitingSince = time.Now()
		w.mu.Unlock()
		err := w.log.mkdir()
		var unlock func()
		if err == nil {
			unlock, err = acquire(lockPath, true, w.log.timeout)
		}
		w.mu.Lock()
		w.waitingSince = time.Time{}
		// The batch is taken once the lock is held: everything queued meanwhile goes
		// into the same hold.
		batch := slices.Clone(w.queue[:min(len(w.queue), maxBatch)])
		if err == nil {
			w.holds++
		}
		w.mu.Unlock()
		written := 0
		if err == nil {
			written, err = w.log.writeLocked(batch)
			unlock()
		}
		w.mu.Lock()
		for _, p := range batch[:written] {
			w.pendingBytes -= len(p.line)
			if !p.told {
				p.told = true
				p.done <- nil
			}
		}
		w.queue = slices.Delete(w.queue, 0, written)
		w.count += written
		w.lastErr = err
		if err != nil {
			// Nobody need wait for the retry: each waiting caller learns now that its
			// record is kept, and why it is not written yet.
			for _, p := range w.queue {
				if !p.told {
					p.told = true
					p.done <- w.notYetLocked()
				}
			}
		}
		retry := w.retryAfter
		w.mu.Unlock()
		if err == nil {
			attempt = 0
			continue
		}
		attempt++
		<-retry(attempt)
	}
}

// flush waits until the queue is empty (every record queued before the call written)
// or ctx ends.
func (w *writer) flush(ctx context.Context) error {
	w.mu.Lock()
	idle := w.idle
	w.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		w.mu.Lock()
		defer w.mu.Unlock()
		if len(w.queue) == 0 {
			return nil
		}
		return fmt.Errorf("audit: %d records not written yet to %s (%w)", len(w.queue), w.log.dir, w.notYetLocked())
	}
}

func (w *writer) lockHolds() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.holds
}

func (w *writer) written() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.count
}
