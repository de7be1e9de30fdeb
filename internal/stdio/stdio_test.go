package stdio_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/stdio"
)

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}`
const initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// harness is a bare go-sdk server on the transport, with the transport's middleware and
// three tools:
//   - block: reports start on started, then waits for release or its context, and
//     returns ctx.Err() when cancelled;
//   - stubborn: reports start, then waits for release only, ignoring its context;
//   - fail: returns a plain Go error (no JSON-RPC code).
type harness struct {
	t       *testing.T
	tr      *stdio.Transport
	in      *io.PipeWriter
	lines   chan []byte
	done    chan error
	started chan string // the name of each tool call that started
	release chan struct{}
	// holdInit, when set before the first request, keeps initialize running until it
	// is closed: requests read meanwhile wait in the SDK's queue.
	holdInit chan struct{}
	causes   chan error // context.Cause seen by block when cancelled
	// order receives the argument n of each wait call that started, in the order they
	// started.
	order chan int
	// calls counts the tools/call handlers running now; most is the most that ever
	// ran at once.
	calls, most atomic.Int64
}

// newHarness starts the server; configure, if given, sets the transport's bounds
// before it connects.
func newHarness(t *testing.T, limit int, out io.Writer, configure ...func(*stdio.Transport)) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{t: t, in: inW, lines: make(chan []byte, 1024), done: make(chan error, 1),
		started: make(chan string, 64), release: make(chan struct{}), causes: make(chan error, 64), order: make(chan int, 64)}
	var w io.Writer = outW
	if out != nil {
		w = out
	}
	h.tr = &stdio.Transport{In: inR, Out: w, MaxLine: limit}
	for _, c := range configure {
		c(h.tr)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{}})
	obj := &jsonschemaObject
	srv.AddTool(&mcp.Tool{Name: "block", InputSchema: obj}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		h.started <- "block"
		select {
		case <-ctx.Done():
			h.causes <- context.Cause(ctx)
			return nil, ctx.Err()
		case <-h.release:
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil
		}
	})
	srv.AddTool(&mcp.Tool{Name: "stubborn", InputSchema: obj}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		h.started <- "stubborn"
		<-h.release
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "progress", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if tok := req.Params.GetProgressToken(); tok != nil {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Message: "half"})
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args struct{ N int }
		json.Unmarshal(req.Params.Arguments, &args)
		h.order <- args.N
		select {
		case <-ctx.Done():
			h.causes <- context.Cause(ctx)
			return nil, ctx.Err()
		case <-h.release:
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil
		}
	})
	srv.AddTool(&mcp.Tool{Name: "fail", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("plain failure")
	})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				raise(&h.most, h.calls.Add(1))
				defer h.calls.Add(-1)
			}
			if method == "initialize" && h.holdInit != nil {
				h.started <- "initialize"
				<-h.holdInit
			}
			return next(ctx, method, req)
		}
	})
	srv.AddReceivingMiddleware(h.tr.Middleware())
	go func() {
		h.done <- srv.Run(context.Background(), h.tr)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			h.lines <- bytes.Clone(sc.Bytes())
		}
		close(h.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
	})
	return h
}

// raise makes most at least n.
func raise(most *atomic.Int64, n int64) {
	for {
		m := most.Load()
		if n <= m || most.CompareAndSwap(m, n) {
			return
		}
	}
}

// rest closes the input and returns every line the server writes until its session
// ends, summarised.
func (h *harness) rest() []summary {
	h.t.Helper()
	h.in.Close()
	var got []summary
	for line := range h.lines {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			h.t.Fatalf("bad line %q", line)
		}
		got = append(got, summarize(m))
	}
	if err := <-h.done; err != nil {
		h.t.Fatalf("Run: %v", err)
	}
	return got
}

// replyBound only turns a lost reply into a failure instead of a hung test; nothing
// waits for it to pass.
const replyBound = 30 * time.Second

var jsonschemaObject = json.RawMessage(`{"type":"object"}`)

func (h *harness) send(lines ...string) {
	h.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(h.in, l+"\n"); err != nil {
			h.t.Fatalf("write: %v", err)
		}
	}
}

// recv returns the next output line as its raw members.
func (h *harness) recv() map[string]json.RawMessage {
	h.t.Helper()
	var line []byte
	var ok bool
	select {
	case line, ok = <-h.lines:
	case <-time.After(replyBound):
		h.t.Fatalf("no reply within %v", replyBound)
	}
	if !ok {
		h.t.Fatal("the server wrote nothing more")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		h.t.Fatalf("output line is not a JSON object: %q", line)
	}
	return m
}

func (h *harness) initialize() {
	h.t.Helper()
	h.send(initLine)
	if m := h.recv(); string(m["id"]) != "0" || m["result"] == nil {
		h.t.Fatalf("initialize: %v", m)
	}
	h.send(initializedLine)
}

// summary is a reply reduced to what the tests compare: the raw id and the error code
// (0 for a result).
type summary struct {
	ID   string
	Code int64
}

func summarize(m map[string]json.RawMessage) summary {
	s := summary{ID: string(m["id"])}
	if e := m["error"]; e != nil {
		var we jsonrpc.Error
		json.Unmarshal(e, &we)
		s.Code = we.Code
	}
	return s
}

func call(id, tool string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, id, tool)
}

// waitCall is a call of the wait tool with argument n.
func waitCall(id string, n int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"wait","arguments":{"n":%d}}}`, id, n)
}

func cancel(id string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s,"reason":"test"}}`, id)
}

// Lines that are not usable requests are answered (with the id whenever it can be
// read) and the session keeps serving.
func TestBadLinesKeepServing(t *testing.T) {
	h := newHarness(t, 1024, nil)
	h.initialize()
	cases := []struct {
		name, line string
		want       summary
	}{
		{"not json", `{not json`, summary{"null", -32700}},
		{"broken after the id", `{"jsonrpc":"2.0","id":6,"method":"ping",}`, summary{"6", -32700}},
		{"trailing data", `{"jsonrpc":"2.0","id":17,"method":"ping"} x`, summary{"17", -32700}},
		{"not an object", `42`, summary{"null", -32600}},
		{"batch", `[` + initLine + `]`, summary{"null", -32600}},
		{"invalid utf8", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"x\":\"\xff\"}", summary{"2", -32700}},
		{"method not string", `{"jsonrpc":"2.0","id":3,"method":7}`, summary{"3", -32600}},
		{"no method", `{"jsonrpc":"2.0","id":7}`, summary{"7", -32600}},
		{"wrong version", `{"jsonrpc":"1.0","id":8,"method":"ping"}`, summary{"8", -32600}},
		{"no version", `{"id":"nine","method":"ping"}`, summary{`"nine"`, -32600}},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, summary{"null", -32600}},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, summary{"null", -32600}},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, summary{"null", -32600}},
		{"duplicate id member", `{"jsonrpc":"2.0","id":10,"id":11,"method":"ping"}`, summary{"null", -32600}},
		{"duplicate method member", `{"jsonrpc":"2.0","id":12,"method":"ping","method":"x"}`, summary{"12", -32600}},
		{"oversize", `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"` + strings.Repeat("a", 2000) + `"}}`, summary{"4", -32600}},
		{"oversize, id late", `{"jsonrpc":"2.0","method":"ping","params":{"x":"` + strings.Repeat("a", 2000) + `"},"id":5}`, summary{"null", -32600}},
		{"params not structured", `{"jsonrpc":"2.0","id":14,"method":"ping","params":5}`, summary{"14", -32602}},
		{"unknown method", `{"jsonrpc":"2.0","id":15,"method":"no/such"}`, summary{"15", -32601}},
		{"uncoded handler error", call("16", "fail"), summary{"16", -32603}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h.t = t
			h.send(c.line)
			if diff := cmp.Diff(c.want, summarize(h.recv())); diff != "" {
				t.Fatalf("reply (-want +got):\n%s", diff)
			}
		})
	}
	h.t = t
	// Blank lines, an unknown notification and a client reply nobody asked for get no
	// reply; a good request after all of that is still answered.
	h.send("", "   \t\r", `{"jsonrpc":"2.0","method":"notifications/no-such"}`, `{"jsonrpc":"2.0","id":99,"result":{}}`,
		`{"jsonrpc":"2.0","id":1.5,"result":{}}`, `{"jsonrpc":"2.0","id":"last","method":"ping"}`)
	if got := summarize(h.recv()); got != (summary{`"last"`, 0}) {
		t.Fatalf("ping after blank lines: %+v", got)
	}
}

// Ids come back exactly as the client wrote them.
func TestIDsEchoedExactly(t *testing.T) {
	h := newHarness(t, 0, nil)
	h.initialize()
	ids := []string{`1`, `1.5`, `-0`, `1e3`, `1E+3`, `-2.50e-7`, `9223372036854775808`, `-9223372036854775809`,
		`123456789012345678901234567890`, `1e400`, `""`, `"a\u0062"`, `"<>&\u2028\u2029"`, `"\ud800"`, `"\"\\\/\b\f\n\r\t"`,
		`"日本"`, `"\uD83D\uDE00"`}
	for _, id := range ids {
		h.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if got := summarize(h.recv()); got != (summary{id, 0}) {
			t.Errorf("ping with id %s answered as %+v", id, got)
		}
	}
}

// A request the SDK's decoder refuses (it nests deeper than 1000 levels) is still
// answered with its id.
func TestDeepNestingRefusedWithID(t *testing.T) {
	h := newHarness(t, 0, nil)
	h.initialize()
	h.send(`{"jsonrpc":"2.0","id":"deep","method":"ping","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`)
	if got := summarize(h.recv()); got != (summary{`"deep"`, -32600}) {
		t.Fatalf("deep request: %+v", got)
	}
}

// Twenty requests with one id in flight: the first runs, the other nineteen are refused
// naming the id, and once the first is answered the id can be used again.
func TestDuplicateInFlightIDRefused(t *testing.T) {
	h := newHarness(t, 0, nil)
	h.initialize()
	h.send(call("7", "block"))
	<-h.started
	// 7.0 and 7e0 are the same JSON value as 7.
	for i := range 19 {
		id := []string{"7", "7.0", "70e-1"}[i%3]
		h.send(call(id, "block"))
		m := h.recv()
		if got := summarize(m); got != (summary{id, -32600}) {
			t.Fatalf("duplicate %d: %+v", i, got)
		}
		if !strings.Contains(string(m["error"]), "already in use") {
			t.Fatalf("duplicate %d: %s", i, m["error"])
		}
	}
	h.release <- struct{}{}
	if got := summarize(h.recv()); got != (summary{"7", 0}) {
		t.Fatalf("the first request: %+v", got)
	}
	h.send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if got := summarize(h.recv()); got != (summary{"7", 0}) {
		t.Fatalf("id 7 reused after its reply: %+v", got)
	}
}

// notifications/cancelled names the request by the client's id (in any spelling of the
// same value); the cancelled call's handler sees the cancellation, and the call gets no
// reply (MCP: a receiver SHOULD NOT answer a cancelled request). Its id is free again
// at once.
func TestClientCancellation(t *testing.T) {
	h := newHarness(t, 0, nil)
	h.initialize()
	h.send(call(`"job\u002d1"`, "block"), call("2.50", "block"))
	<-h.started
	<-h.started
	h.send(cancel(`"job-1"`), cancel("1"), cancel("25e-1"))
	for range 2 {
		if c := <-h.causes; !errors.Is(c, context.Canceled) {
			t.Fatalf("cause %v", c)
		}
	}
	h.send(`{"jsonrpc":"2.0","id":"job-1","method":"ping"}`)
	want := []summary{{`"job-1"`, 0}}
	if diff := cmp.Diff(want, h.rest()); diff != "" {
		t.Fatalf("replies after the cancellations (-want +got):\n%s", diff)
	}
}

// A request cancelled while it waits in the SDK's queue never reaches a handler and
// gets no reply.
func TestCancelWhileQueued(t *testing.T) {
	h := newHarness(t, 0, nil)
	h.holdInit = make(chan struct{})
	h.send(initLine)
	<-h.started
	h.send(call(`"q"`, "block"), cancel(`"q"`), `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	close(h.holdInit)
	want := map[summary]bool{{"0", 0}: true, {`"after"`, 0}: true}
	got := map[summary]bool{}
	for _, s := range h.rest() {
		got[s] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("replies (-want +got):\n%s", diff)
	}
	select {
	case name := <-h.started:
		t.Fatalf("%s started after its cancellation", name)
	default:
	}
}

// TestCancelledRequestGetsNoReply is issue 22 §4 ("a cancelled request is still
// answered"): with one call in flight and one waiting for its slot, cancelling both
// leaves both unanswered; the waiting one never starts, the running one's handler sees
// the cancellation, and both ids may be used again at once. Only the requests sent
// after them are answered.
func TestCancelledRequestGetsNoReply(t *testing.T) {
	h := newHarness(t, 0, nil, func(tr *stdio.Transport) { tr.MaxInFlight = 1 })
	h.initialize()
	h.send(waitCall("1", 1), waitCall("2", 2))
	if n := <-h.order; n != 1 {
		t.Fatalf("call %d started first", n)
	}
	h.send(cancel("2"), cancel("1"))
	if c := <-h.causes; !errors.Is(c, context.Canceled) {
		t.Fatalf("cause %v", c)
	}
	h.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	want := []summary{{"2", 0}, {"1", 0}}
	if diff := cmp.Diff(want, h.rest()); diff != "" {
		t.Fatalf("replies (-want +got):\n%s", diff)
	}
	select {
	case n := <-h.order:
		t.Fatalf("call %d started after its cancellation", n)
	default:
	}
}

// TestWorkInFlightIsBounded is issue 22 §3: with two requests in flight and two
// waiting, the next ones are refused at once as busy (not started); the waiting ones
// start in order of arrival as slots free, and no more than two calls ever run at once.
func TestWorkInFlightIsBounded(t *testing.T) {
	h := newHarness(t, 0, nil, func(tr *stdio.Transport) { tr.MaxInFlight = 2; tr.MaxQueued = 2 })
	h.initialize()
	for i := 1; i <= 6; i++ {
		h.send(waitCall(strconv.Itoa(i), i))
	}
	for _, id := range []string{"5", "6"} {
		m := h.recv()
		if got := summarize(m); got != (summary{id, stdio.CodeServerBusy}) {
			t.Fatalf("reply %+v, want request %s refused as busy", got, id)
		}
		if !strings.Contains(string(m["error"]), "busy") {
			t.Fatalf("busy reply says %s", m["error"])
		}
	}
	first := map[int]bool{<-h.order: true, <-h.order: true}
	if !first[1] || !first[2] {
		t.Fatalf("calls %v started first, want 1 and 2", first)
	}
	for _, next := range []int{3, 4} {
		h.release <- struct{}{}
		if got := summarize(h.recv()); got.Code != 0 {
			t.Fatalf("released call answered %+v", got)
		}
		if n := <-h.order; n != next {
			t.Fatalf("call %d started, want %d (order of arrival)", n, next)
		}
	}
	for range 2 {
		h.release <- struct{}{}
		if got := summarize(h.recv()); got.Code != 0 {
			t.Fatalf("released call answered %+v", got)
		}
	}
	if m := h.most.Load(); m != 2 {
		t.Fatalf("%d calls ran at once, want at most (and here exactly) 2", m)
	}
}

// The queue's byte bound refuses a request that would take the waiting lines past it.
func TestQueueByteBound(t *testing.T) {
	one := len(waitCall("11", 11))
	h := newHarness(t, 0, nil, func(tr *stdio.Transport) { tr.MaxInFlight = 1; tr.MaxQueuedBytes = one + one/2 })
	h.initialize()
	// 10 is taken off the queue before 11 and 12 arrive (otherwise 11 could find 10 still
	// waiting, which depends on scheduling): 11 then waits alone and 12 would pass the bound.
	h.send(waitCall("10", 10))
	if n := <-h.order; n != 10 {
		t.Fatalf("call %d started, want 10", n)
	}
	h.send(waitCall("11", 11), waitCall("12", 12))
	if got := summarize(h.recv()); got != (summary{"12", stdio.CodeServerBusy}) {
		t.Fatalf("reply %+v, want 12 refused as busy", got)
	}
	for _, want := range []int{10, 11} {
		if want == 11 {
			if n := <-h.order; n != want {
				t.Fatalf("call %d started, want %d", n, want)
			}
		}
		h.release <- struct{}{}
		if got := summarize(h.recv()); got.Code != 0 {
			t.Fatalf("released call answered %+v", got)
		}
	}
}

// A request before initialize gets a proper code, not 0.
func TestBeforeInitialize(t *testing.T) {
	h := newHarness(t, 0, nil)
	h.send(`{"jsonrpc":"2.0","id":"early","method":"tools/list"}`)
	if got := summarize(h.recv()); got != (summary{`"early"`, -32600}) {
		t.Fatalf("tools/list before initialize: %+v", got)
	}
	h.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if got := summarize(h.recv()); got != (summary{`"p"`, 0}) {
		t.Fatalf("ping before initialize: %+v", got)
	}
}

// End of input: the calls in flight are cancelled with ErrShuttingDown as the cause,
// every request read is answered, and only then does Run return.
func TestEOFAnswersEverythingThenEnds(t *testing.T) {
	h := newHarness(t, 0, nil)
	h.send(initLine, initializedLine, call("1", "block"), `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	<-h.started
	h.in.Close()
	got := map[summary]bool{}
	for line := range h.lines {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("bad line %q", line)
		}
		got[summarize(m)] = true
	}
	want := map[summary]bool{{"0", 0}: true, {"1", -32800}: true, {"2", 0}: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("replies (-want +got):\n%s", diff)
	}
	if c := <-h.causes; !errors.Is(c, stdio.ErrShuttingDown) || !errors.Is(c, stdio.ErrInputClosed) {
		t.Fatalf("cause %v", c)
	}
	if err := <-h.done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// Shutdown with stdin still open: requests read from then on are refused with -32004,
// the call in flight is answered, then the session ends.
func TestShutdownRefusesNewRequests(t *testing.T) {
	h := newHarness(t, 0, nil)
	h.initialize()
	h.send(call("1", "stubborn"))
	<-h.started
	h.tr.Shutdown(errors.New("test"))
	<-h.tr.ShuttingDown()
	h.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if got := summarize(h.recv()); got != (summary{"2", stdio.CodeShuttingDown}) {
		t.Fatalf("request after shutdown: %+v", got)
	}
	h.release <- struct{}{}
	if got := summarize(h.recv()); got != (summary{"1", 0}) {
		t.Fatalf("call in flight: %+v", got)
	}
	if err := <-h.done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// Abort answers a call that ignores its cancelled context, and the late reply is
// dropped.
func TestAbortAnswersStubbornCalls(t *testing.T) {
	h := newHarness(t, 0, nil)
	h.initialize()
	h.send(call(`"s"`, "stubborn"))
	<-h.started
	h.tr.Shutdown(errors.New("test"))
	h.tr.Abort()
	if got := summarize(h.recv()); got != (summary{`"s"`, -32800}) {
		t.Fatalf("aborted call: %+v", got)
	}
	h.release <- struct{}{}
	if err := <-h.done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if line, ok := <-h.lines; ok {
		t.Fatalf("late reply written: %s", line)
	}
}

// failWriter fails every write after the first n.
type failWriter struct {
	mu sync.Mutex
	n  int
	w  io.Writer
}

func (f *failWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 {
		return 0, errors.New("pipe closed")
	}
	f.n--
	return f.w.Write(p)
}

// A client that stops reading stdout is gone: the calls in flight are cancelled.
func TestWriteFailureCancelsCalls(t *testing.T) {
	var buf bytes.Buffer
	h := newHarness(t, 0, &failWriter{n: 1, w: &buf})
	h.send(initLine, initializedLine, call("1", "block"))
	<-h.started
	h.send(`{"jsonrpc":"2.0","id":2,"method":"no/such"}`) // its reply fails
	<-h.tr.ShuttingDown()
	<-h.causes // cancelled (by the transport or by the SDK, whichever is first)
	if err := <-h.done; err == nil {
		t.Fatal("Run reported no error after stdout failed")
	}
}

// The client's reply to a server request reaches the SDK; a reply whose id the SDK
// would coerce into that request's id does not.
func TestClientRepliesReachTheServer(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := &stdio.Transport{In: inR, Out: outW}
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	ss, err := srv.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inW.Close(); outR.Close(); ss.Close() })
	sc := bufio.NewScanner(outR)
	send := func(l string) { io.WriteString(inW, l+"\n") }
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{}},"clientInfo":{"name":"c","version":"0"}}}`)
	sc.Scan()
	send(initializedLine)
	res := make(chan *mcp.ListRootsResult, 1) //nolint:staticcheck // SA1019: roots is the one server-to-client request the SDK issues; the test needs one
	go func() {
		r, err := ss.ListRoots(context.Background(), nil) //nolint:staticcheck // SA1019: see above
		if err != nil {
			t.Error(err)
		}
		res <- r
	}()
	if !sc.Scan() {
		t.Fatal("no roots/list request")
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(sc.Bytes(), &req)
	if req.Method != "roots/list" {
		t.Fatalf("server wrote %s", sc.Bytes())
	}
	send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `.5,"result":{"roots":[{"uri":"file:///coerced"}]}}`)
	send(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"roots":[{"uri":"file:///right"}]}}`)
	if r := <-res; r == nil || len(r.Roots) != 1 || r.Roots[0].URI != "file:///right" {
		t.Fatalf("ListRoots = %+v", r)
	}
}

// TestProgressTokenFidelity: a progress token comes back in notifications/progress
// exactly as the client wrote it, as request ids do, whatever JSON number or string it
// is; the notification precedes the reply.
func TestProgressTokenFidelity(t *testing.T) {
	t.Parallel()
	for _, tok := range []string{`9223372036854775808`, `1.5`, `"a\u0062"`, `-0.0e-7`, `7`} {
		h := newHarness(t, 0, nil)
		h.initialize()
		h.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":` + tok + `}}}`)
		note := h.recv()
		if string(note["method"]) != `"notifications/progress"` {
			t.Fatalf("token %s: first line %v, want the progress notification", tok, note)
		}
		var params map[string]json.RawMessage
		if err := json.Unmarshal(note["params"], &params); err != nil {
			t.Fatal(err)
		}
		if got := string(params["progressToken"]); got != tok {
			t.Errorf("progress token %s came back as %s", tok, got)
		}
		if m := h.recv(); string(m["id"]) != "5" || m["result"] == nil {
			t.Fatalf("token %s: reply %v", tok, m)
		}
	}
}
