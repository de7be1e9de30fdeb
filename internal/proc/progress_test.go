package proc

import (
	"context"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestLineTail(t *testing.T) {
	long := strings.Repeat("x", ProgressTailLimit+50)
	tests := []struct {
		name   string
		chunks []string
		want   string
	}{
		{"nothing yet", nil, ""},
		{"partial line", []string{"compiling"}, "compiling"},
		{"complete line", []string{"ok pkg\n"}, "ok pkg"},
		{"latest of several", []string{"a\nb\nc\n"}, "c"},
		{"partial beats complete", []string{"done\nnext"}, "next"},
		{"blank lines keep the last text", []string{"text\n\n\n"}, "text"},
		{"carriage return ends a line", []string{"10%\r20%\r"}, "20%"},
		{"CRLF", []string{"one\r\ntwo\r\n"}, "two"},
		{"line split across chunks", []string{"hel", "lo wor", "ld\n"}, "hello world"},
		{"long line keeps its start", []string{long + "\n"}, long[:ProgressTailLimit]},
		{"escape sequences lose ESC", []string{"\x1b[31mred\x1b[0m\n"}, "[31mred[0m"},
		{"tab becomes space, other controls vanish", []string{"a\tb\x00c\x07d\n"}, "a bcd"},
		{"invalid UTF-8 replaced", []string{"a\xffb\n"}, "a\uFFFDb"},
		{"multi-byte character cut by the limit is dropped", []string{strings.Repeat("x", ProgressTailLimit-1) + "✓"}, strings.Repeat("x", ProgressTailLimit-1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var l lineTail
			for _, c := range tc.chunks {
				l.write([]byte(c))
			}
			if got := l.text(); got != tc.want {
				t.Errorf("text = %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzLineTail: whatever the output, the tail is short, valid UTF-8, free of control
// characters and line ends, and splitting the output into chunks does not change it.
func FuzzLineTail(f *testing.F) {
	f.Add([]byte("ok\n"), 1)
	f.Add([]byte("\x1b[2K\r50%\r"), 3)
	f.Add([]byte(strings.Repeat("✓", 100)), 7)
	f.Add([]byte("\xe2\x9c"), 1)
	f.Fuzz(func(t *testing.T, b []byte, split int) {
		var whole, parts lineTail
		whole.write(b)
		if split <= 0 {
			split = 1
		}
		for i := 0; i < len(b); i += split {
			parts.write(b[i:min(i+split, len(b))])
		}
		got := whole.text()
		if got != parts.text() {
			t.Fatalf("chunking changed the tail: %q vs %q", got, parts.text())
		}
		if len(got) > ProgressTailLimit || !utf8.ValidString(got) {
			t.Fatalf("tail %q: %d bytes, valid %v", got, len(got), utf8.ValidString(got))
		}
		for _, r := range got {
			if unicode.IsControl(r) {
				t.Fatalf("control character %U in %q", r, got)
			}
		}
	})
}

// fakeClock is a settable clock for tm.now.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// progressHarness drives a run's progress reports without real time: ticks are sent by
// the test and the clock only moves when the test sets it.
type progressHarness struct {
	tm       timing
	clock    *fakeClock
	ticks    chan time.Time
	interval chan time.Duration // the interval the runner asked the ticker for
	reports  chan Progress
	returned atomic.Bool // set once Run has returned
	late     atomic.Int32
}

func newProgressHarness() *progressHarness {
	h := &progressHarness{
		clock:    &fakeClock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		ticks:    make(chan time.Time),
		interval: make(chan time.Duration, 1),
		reports:  make(chan Progress, 1),
	}
	h.tm = defaultTiming
	h.tm.now = h.clock.Now
	h.tm.ticker = func(d time.Duration) (<-chan time.Time, func()) {
		h.interval <- d
		return h.ticks, func() {}
	}
	return h
}

func (h *progressHarness) onProgress(p Progress) {
	if h.returned.Load() {
		h.late.Add(1)
	}
	select {
	case h.reports <- p:
	default: // the test only looks at reports it asked for
	}
}

// await ticks until a report satisfies ok, within a bounded number of ticks.
func (h *progressHarness) await(t *testing.T, what string, ok func(Progress) bool) Progress {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last Progress
	for time.Now().Before(deadline) {
		h.ticks <- time.Time{}
		last = <-h.reports
		if ok(last) {
			return last
		}
	}
	t.Fatalf("no report with %s; last %+v", what, last)
	return last
}

func TestRunReportsProgress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	defer ln.Close()
	h := newProgressHarness()
	req := helperRequest(t, "progress", ln.Addr().String())
	req.OnProgress = h.onProgress
	done := make(chan Receipt, 1)
	go func() {
		r := run(context.Background(), req, h.tm)
		h.returned.Store(true)
		done <- r
	}()
	if d := <-h.interval; d != DefaultProgressInterval {
		t.Errorf("ticker interval %v, want the default %v", d, DefaultProgressInterval)
	}
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := h.clock.Now()

	h.clock.Set(start.Add(90 * time.Second))
	errLen := int64(len("warning: \x1b[33mcareful\x1b[0m\n"))
	got := h.await(t, "the stderr line", func(p Progress) bool { return p.StderrBytes == errLen })
	want := Progress{Elapsed: 90 * time.Second, StderrBytes: errLen, Tail: "warning: [33mcareful[0m"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("first report (-want +got):\n%s", d)
	}

	c.Write([]byte("go\n"))
	h.clock.Set(start.Add(95 * time.Second))
	outLen := int64(len("line one\nline two\rpartial\tthree"))
	got = h.await(t, "the stdout lines", func(p Progress) bool { return p.StdoutBytes == outLen })
	want = Progress{Elapsed: 95 * time.Second, StdoutBytes: outLen, StderrBytes: errLen, Tail: "partial three"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("second report (-want +got):\n%s", d)
	}

	c.Write([]byte("go\n"))
	// Keep ticking until Run returns: a tick racing with the end must not produce a
	// call after it.
	var r Receipt
	for r.Argv == nil {
		select {
		case r = <-done:
		case h.ticks <- time.Time{}:
		case <-h.reports:
		}
	}
	if !r.Succeeded {
		t.Fatalf("receipt %+v", r)
	}
	if n := h.late.Load(); n != 0 {
		t.Errorf("OnProgress called %d times after Run returned", n)
	}
}

func TestProgressIntervalBounds(t *testing.T) {
	tests := []struct{ in, want time.Duration }{
		{0, DefaultProgressInterval},
		{time.Millisecond, MinProgressInterval},
		{5 * time.Second, 5 * time.Second},
	}
	for _, tc := range tests {
		h := newProgressHarness()
		req := helperRequest(t, "exit", "0")
		req.OnProgress, req.ProgressInterval = h.onProgress, tc.in
		if r := run(context.Background(), req, h.tm); !r.Succeeded {
			t.Fatalf("receipt %+v", r)
		}
		if got := <-h.interval; got != tc.want {
			t.Errorf("ProgressInterval %v: ticker got %v, want %v", tc.in, got, tc.want)
		}
	}
	r := Run(context.Background(), Request{Argv: []string{helperPath(t)}, Dir: t.TempDir(), ProgressInterval: -1})
	if r.ExecutionStarted || !strings.Contains(r.Error, "ProgressInterval must not be negative") {
		t.Errorf("negative interval: %+v", r)
	}
}

// TestRunWithoutProgressStartsNoReporter: a nil callback asks for no ticker at all.
func TestRunWithoutProgressStartsNoReporter(t *testing.T) {
	tm := defaultTiming
	tm.ticker = func(time.Duration) (<-chan time.Time, func()) {
		t.Error("ticker started for a run without OnProgress")
		return nil, func() {}
	}
	if r := run(context.Background(), helperRequest(t, "exit", "0"), tm); !r.Succeeded {
		t.Fatalf("receipt %+v", r)
	}
}
