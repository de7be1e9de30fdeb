package proc

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeWait is one scripted answer of fakeProcess.wait.
type fakeWait struct {
	rc  int
	o   waitOutcome
	err error
}

// fakeProcess replays scripted waits and polls and records what the supervisor did.
type fakeProcess struct {
	waits []fakeWait
	polls []*int // nil entry = unknown
	calls []string
}

func (f *fakeProcess) wait(_ <-chan struct{}, _ time.Duration) (int, waitOutcome, error) {
	f.calls = append(f.calls, "wait")
	w := f.waits[0]
	f.waits = f.waits[1:]
	return w.rc, w.o, w.err
}

func (f *fakeProcess) poll() (int, bool) {
	f.calls = append(f.calls, "poll")
	if len(f.polls) == 0 {
		return 0, false
	}
	p := f.polls[0]
	f.polls = f.polls[1:]
	if p == nil {
		return 0, false
	}
	return *p, true
}

func (f *fakeProcess) killTree() { f.calls = append(f.calls, "kill") }

func intp(n int) *int { return &n }

var fastTiming = func() timing {
	tm := defaultTiming
	tm.postKill, tm.settle, tm.cancelSettle = time.Millisecond, 20*time.Millisecond, 20*time.Millisecond
	tm.cancelGrace, tm.cancelJoin = 20*time.Millisecond, 20*time.Millisecond
	return tm
}()

func TestSupervise(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name      string
		p         *fakeProcess
		want      lifecycle
		wantCalls []string
	}{
		{
			name:      "normal exit",
			p:         &fakeProcess{waits: []fakeWait{{rc: 0, o: waitExited}}},
			want:      lifecycle{rc: intp(0)},
			wantCalls: []string{"wait"},
		},
		{
			name:      "wait error recovered by poll is a normal result",
			p:         &fakeProcess{waits: []fakeWait{{o: waitFailed, err: boom}}, polls: []*int{intp(0)}},
			want:      lifecycle{rc: intp(0)},
			wantCalls: []string{"wait", "poll"},
		},
		{
			name: "unrecovered wait error: cleanup, lifecycle error, code from follow-up wait",
			p: &fakeProcess{
				waits: []fakeWait{{o: waitFailed, err: boom}, {rc: 137, o: waitExited}},
				polls: []*int{nil},
			},
			want:      lifecycle{rc: intp(137), lifeErr: "Process lifecycle observation failed after launch: boom"},
			wantCalls: []string{"wait", "poll", "kill", "wait"},
		},
		{
			name: "wait and cleanup observation errors: returncode null",
			p: &fakeProcess{
				waits: []fakeWait{{o: waitFailed, err: boom}, {o: waitFailed, err: boom}},
				polls: []*int{nil, nil},
			},
			want:      lifecycle{lifeErr: "Process lifecycle observation failed after launch: boom"},
			wantCalls: []string{"wait", "poll", "kill", "wait", "poll"},
		},
		{
			name:      "timeout kills the tree and takes the code from the follow-up wait",
			p:         &fakeProcess{waits: []fakeWait{{o: waitTimedOut}, {rc: -9, o: waitExited}}},
			want:      lifecycle{rc: intp(-9), timedOut: true, err: "Process timed out after 3 seconds"},
			wantCalls: []string{"wait", "kill", "wait"},
		},
		{
			name:      "timeout, follow-up wait times out, poll knows",
			p:         &fakeProcess{waits: []fakeWait{{o: waitTimedOut}, {o: waitTimedOut}}, polls: []*int{intp(1)}},
			want:      lifecycle{rc: intp(1), timedOut: true, err: "Process timed out after 3 seconds"},
			wantCalls: []string{"wait", "kill", "wait", "poll"},
		},
		{
			name: "timeout plus post-cleanup wait error",
			p:    &fakeProcess{waits: []fakeWait{{o: waitTimedOut}, {o: waitFailed, err: boom}}, polls: []*int{nil}},
			want: lifecycle{timedOut: true, err: "Process timed out after 3 seconds",
				lifeErr: "Process lifecycle observation failed after timeout cleanup: boom"},
			wantCalls: []string{"wait", "kill", "wait", "poll"},
		},
		{
			name:      "cancellation kills the tree",
			p:         &fakeProcess{waits: []fakeWait{{o: waitCancelled}, {rc: -9, o: waitExited}}},
			want:      lifecycle{rc: intp(-9), cancelled: true, err: "Process run was cancelled (context canceled); the process tree was terminated"},
			wantCalls: []string{"wait", "kill", "wait"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			got := supervise(ctx, tc.p, 3*time.Second, fastTiming)
			if got.cancelled == got.cancelledAt.IsZero() {
				t.Errorf("cancelled %v but cancelledAt %v", got.cancelled, got.cancelledAt)
			}
			got.cancelledAt = time.Time{}
			if d := cmp.Diff(tc.want, got, cmp.AllowUnexported(lifecycle{})); d != "" {
				t.Errorf("lifecycle (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantCalls, tc.p.calls); d != "" {
				t.Errorf("calls (-want +got):\n%s", d)
			}
		})
	}
}

func TestEffectiveTimeout(t *testing.T) {
	tests := []struct {
		in, want time.Duration
		msg      string
	}{
		{0, DefaultTimeout, "Process timed out after 30 seconds"},
		{10 * time.Millisecond, time.Second, "Process timed out after 1 seconds"},
		{1500 * time.Millisecond, 1500 * time.Millisecond, "Process timed out after 1.5 seconds"},
		{600 * time.Second, 600 * time.Second, "Process timed out after 600 seconds"},
	}
	for _, tc := range tests {
		got := effectiveTimeout(tc.in, defaultTiming)
		if got != tc.want || timeoutMessage(got) != tc.msg {
			t.Errorf("effectiveTimeout(%v) = %v %q, want %v %q", tc.in, got, timeoutMessage(got), tc.want, tc.msg)
		}
	}
}

// scriptedReader returns its chunks, then err (io.EOF for a clean end).
type scriptedReader struct {
	chunks []string
	err    error
	closed chan struct{}
}

func (r *scriptedReader) Read(p []byte) (int, error) {
	if len(r.chunks) > 0 {
		n := copy(p, r.chunks[0])
		r.chunks = r.chunks[1:]
		return n, nil
	}
	return 0, r.err
}

func (r *scriptedReader) Close() error {
	if r.closed != nil {
		close(r.closed)
	}
	return nil
}

// blockingReader blocks until closed (like a pipe whose writer a descendant holds),
// or, when ignoreClose is set, until release closes.
type blockingReader struct {
	closed      chan struct{}
	release     chan struct{}
	ignoreClose bool
}

func newBlockingReader(ignoreClose bool) *blockingReader {
	return &blockingReader{closed: make(chan struct{}), release: make(chan struct{}), ignoreClose: ignoreClose}
}

func (r *blockingReader) Read([]byte) (int, error) {
	if r.ignoreClose {
		<-r.release
		return 0, io.EOF
	}
	<-r.closed
	return 0, errors.New("read on closed pipe")
}

func (r *blockingReader) Close() error {
	select {
	case <-r.closed:
	default:
		close(r.closed)
	}
	return nil
}

func TestSettle(t *testing.T) {
	type result struct {
		Settled, Complete bool
		Out               string
	}
	tests := []struct {
		name  string
		other func() io.ReadCloser
		out   func() io.ReadCloser
		want  result
	}{
		{
			name:  "clean EOF on both: complete and settled",
			out:   func() io.ReadCloser { return &scriptedReader{chunks: []string{"a", "b"}, err: io.EOF} },
			other: func() io.ReadCloser { return &scriptedReader{err: io.EOF} },
			want:  result{true, true, "ab"},
		},
		{
			name:  "read error after partial data: settled, incomplete, data kept",
			out:   func() io.ReadCloser { return &scriptedReader{chunks: []string{"partial"}, err: errors.New("broken")} },
			other: func() io.ReadCloser { return &scriptedReader{err: io.EOF} },
			want:  result{true, false, "partial"},
		},
		{
			name:  "the other stream failing makes the joint capture incomplete",
			out:   func() io.ReadCloser { return &scriptedReader{chunks: []string{"fine"}, err: io.EOF} },
			other: func() io.ReadCloser { return &scriptedReader{err: errors.New("broken")} },
			want:  result{true, false, "fine"},
		},
		{
			name:  "a held pipe is cancelled: settled, incomplete",
			out:   func() io.ReadCloser { return newBlockingReader(false) },
			other: func() io.ReadCloser { return &scriptedReader{err: io.EOF} },
			want:  result{true, false, ""},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, other := startStream(tc.out(), 100, nil), startStream(tc.other(), 100, nil)
			settled, complete := settle(fastTiming, out, other)
			got := result{settled, complete, string(out.tail.Bytes())}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("settle (-want +got):\n%s", d)
			}
		})
	}
}

func TestSettleReaderThatCannotBeCancelled(t *testing.T) {
	r := newBlockingReader(true)
	t.Cleanup(func() { close(r.release) })
	s := startStream(r, 10, nil)
	settled, complete := settle(fastTiming, s, startStream(&scriptedReader{err: io.EOF}, 10, nil))
	if settled || complete {
		t.Errorf("settle = %v, %v; want false, false while a reader is still alive", settled, complete)
	}
	select {
	case <-r.closed:
	default:
		t.Error("the stuck reader's pipe was not closed")
	}
}

func TestReceiptAssembly(t *testing.T) {
	done := func(data string, limit int) *stream {
		s := startStream(&scriptedReader{chunks: []string{data}, err: io.EOF}, limit, nil)
		<-s.done
		return s
	}
	tests := []struct {
		name string
		lc   lifecycle
		want Receipt
	}{
		{"success", lifecycle{rc: intp(0)}, Receipt{Succeeded: true, ReturnCode: intp(0)}},
		{"non-zero exit", lifecycle{rc: intp(2)}, Receipt{ReturnCode: intp(2)}},
		{"timed out", lifecycle{rc: intp(0), timedOut: true, err: "Process timed out after 1 seconds"},
			Receipt{ReturnCode: intp(0), TimedOut: true, Error: "Process timed out after 1 seconds"}},
		{"lifecycle error is also the error", lifecycle{rc: intp(0), lifeErr: "lost"},
			Receipt{ReturnCode: intp(0), Error: "lost", LifecycleError: "lost"}},
		{"timeout keeps its error beside a lifecycle error", lifecycle{timedOut: true, err: "t", lifeErr: "l"},
			Receipt{TimedOut: true, Error: "t", LifecycleError: "l"}},
		{"cancelled never succeeds", lifecycle{rc: intp(0), cancelled: true, err: "c"}, Receipt{ReturnCode: intp(0), Cancelled: true, Error: "c"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := receipt([]string{"/x"}, tc.lc, done("out", 2), done("e", 2), true, true)
			want := tc.want
			want.Argv, want.ExecutionStarted = []string{"/x"}, true
			want.Stdout, want.StdoutTruncated, want.Stderr = "ut", true, "e"
			want.OutputCaptureComplete, want.OutputCaptureSettled = true, true
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("receipt (-want +got):\n%s", d)
			}
			if !strings.Contains(got.Stdout, "ut") || got.StdoutWhole() || !got.StderrWhole() {
				t.Errorf("whole flags: stdout %v stderr %v", got.StdoutWhole(), got.StderrWhole())
			}
		})
	}
}
