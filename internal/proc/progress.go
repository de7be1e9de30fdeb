package proc

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// seenOutput is what progress reports need from one stream: how many bytes it carried
// and its latest line. It exists only when the caller asked for progress, so a run
// without OnProgress pays nothing for it.
type seenOutput struct {
	n     atomic.Int64
	clock *atomic.Uint64 // shared by the run's streams: orders their latest writes

	mu   sync.Mutex
	line lineTail
	at   uint64 // clock value of the latest write
}

func newSeenOutput(clock *atomic.Uint64) *seenOutput { return &seenOutput{clock: clock} }

func (s *seenOutput) add(p []byte) {
	s.n.Add(int64(len(p)))
	s.mu.Lock()
	s.line.write(p)
	s.at = s.clock.Add(1)
	s.mu.Unlock()
}

// latest returns the stream's latest line and when it was written.
func (s *seenOutput) latest() (string, uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.line.text(), s.at
}

// lineTail follows the latest line of a byte stream: the line being written if it has
// any bytes yet, else the last complete one. Both \n and \r end a line, so a progress
// bar redrawn with \r shows its latest state. Only the first ProgressTailLimit bytes of
// a line are kept; scanning for line ends is the only per-byte cost.
type lineTail struct {
	cur, last []byte
}

func (l *lineTail) write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			l.keep(p)
			return
		}
		l.keep(p[:i])
		if len(l.cur) > 0 {
			l.last = append(l.last[:0], l.cur...)
			l.cur = l.cur[:0]
		}
		p = p[i+1:]
	}
}

func (l *lineTail) keep(b []byte) {
	if room := ProgressTailLimit - len(l.cur); room > 0 {
		l.cur = append(l.cur, b[:min(room, len(b))]...)
	}
}

func (l *lineTail) text() string {
	b := l.cur
	if len(b) == 0 {
		b = l.last
	}
	return cleanLine(b)
}

// cleanLine makes a line safe to show on a terminal: a multi-byte character cut by the
// byte limit is dropped, other invalid UTF-8 becomes U+FFFD, control characters (escape
// sequences' ESC included) are removed, tabs become spaces, and the result is cut back
// to ProgressTailLimit bytes on a character boundary.
func cleanLine(b []byte) string {
	if len(b) == ProgressTailLimit {
		b = trimCutRune(b)
	}
	s := strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, decodeText(b))
	for len(s) > ProgressTailLimit {
		_, w := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-w]
	}
	return s
}

// trimCutRune drops an incomplete UTF-8 sequence at the end of b.
func trimCutRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// reporter calls a run's OnProgress from one goroutine. stop returns only once that
// goroutine has finished, so no call can happen after Run returns.
type reporter struct {
	quit chan struct{}
	done chan struct{}
}

// startReporter begins reporting on the streams of a child started at start; a nil fn
// starts nothing.
func startReporter(fn func(Progress), every time.Duration, tm timing, start time.Time, out, errs *seenOutput) *reporter {
	if fn == nil {
		return nil
	}
	if every == 0 {
		every = DefaultProgressInterval
	}
	every = max(every, MinProgressInterval)
	r := &reporter{quit: make(chan struct{}), done: make(chan struct{})}
	ticks, stopTicks := tm.ticker(every)
	go func() {
		defer close(r.done)
		defer stopTicks()
		for {
			select {
			case <-r.quit:
				return
			case <-ticks:
			}
			select {
			case <-r.quit: // a tick that raced with the end of the run is not reported
				return
			default:
			}
			fn(snapshot(tm.now().Sub(start), out, errs))
		}
	}()
	return r
}

func (r *reporter) stop() {
	if r == nil {
		return
	}
	close(r.quit)
	<-r.done
}

// snapshot is the Progress of both streams; Tail comes from the one written last.
func snapshot(elapsed time.Duration, out, errs *seenOutput) Progress {
	p := Progress{Elapsed: elapsed, StdoutBytes: out.n.Load(), StderrBytes: errs.n.Load()}
	ot, oat := out.latest()
	et, eat := errs.latest()
	switch {
	case ot == "":
		p.Tail = et
	case et == "":
		p.Tail = ot
	case eat > oat:
		p.Tail = et
	default:
		p.Tail = ot
	}
	return p
}
