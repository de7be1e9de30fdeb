package proc

import (
	"errors"
	"io"
	"sync"
	"time"
)

// readChunk is the size of each read from a child's pipe.
const readChunk = 8 * 1024

// stream drains one pipe into a tail buffer on its own goroutine.
type stream struct {
	r         io.ReadCloser
	tail      *tailBuffer
	seen      *seenOutput   // nil unless progress is reported
	done      chan struct{} // closed when the reader goroutine has returned
	eof       bool          // clean EOF observed; valid once done is closed
	err       error         // the read error that ended it, if not EOF
	closeOnce sync.Once
}

// startStream drains r into a tail of limit bytes; seen, when not nil, also counts the
// bytes and follows the latest line for progress reports.
func startStream(r io.ReadCloser, limit int, seen *seenOutput) *stream {
	s := &stream{r: r, tail: newTailBuffer(limit), seen: seen, done: make(chan struct{})}
	go s.drain()
	return s
}

func (s *stream) drain() {
	defer close(s.done)
	buf := make([]byte, readChunk)
	for {
		n, err := s.r.Read(buf)
		if n > 0 {
			_, _ = s.tail.Write(buf[:n]) // never fails (tail.go)
			if s.seen != nil {
				s.seen.add(buf[:n])
			}
		}
		if errors.Is(err, io.EOF) {
			s.eof = true
			return
		}
		if err != nil {
			s.err = err
			return
		}
	}
}

// close closes the read end once. On Unix this unblocks a pending Read (pipes use the
// runtime poller); on Windows os.File.Close cancels the pending synchronous ReadFile
// with CancelIoEx before it waits for the reader, which is why it runs on its own
// goroutine: if cancellation does not work, only that goroutine is stuck.
func (s *stream) close() {
	s.closeOnce.Do(func() { go s.r.Close() })
}

func (s *stream) finished() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// settle joins the readers within one shared deadline, then cancels the ones still
// blocked (a descendant may hold the pipe's write end) and joins them once more.
// settled means no reader is still alive; complete additionally needs a clean EOF on
// every stream. Read ends are closed in every case.
func settle(tm timing, streams ...*stream) (settled, complete bool) {
	if !joinAll(tm.settle, streams) {
		for _, s := range streams {
			if !s.finished() {
				s.close()
			}
		}
		joinAll(tm.cancelSettle, streams)
	}
	settled, complete = true, true
	for _, s := range streams {
		if !s.finished() {
			settled, complete = false, false
		} else if !s.eof {
			complete = false
		}
		s.close()
	}
	return settled, complete
}

// joinAll waits for every stream's reader until the shared deadline d.
func joinAll(d time.Duration, streams []*stream) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for _, s := range streams {
		select {
		case <-s.done:
		case <-t.C:
			return false
		}
	}
	return true
}
