// Package stdio is the newline-delimited JSON-RPC transport `wda mcp` serves on. Its
// contract is docs/transport.md.
//
// It owns the wire between the client and the go-sdk server:
//   - every line is answered or forwarded: a line that is not a usable message is
//     answered here with a JSON-RPC error and the session keeps serving;
//   - request ids reach the SDK as private integers and the reply carries the client's
//     id byte for byte (the SDK would coerce 1.5 to 1 and 2^63 to -2^63);
//   - a request whose id is still in flight is refused, never dropped;
//   - at most MaxInFlight requests are handed to the SDK at once; the others wait in a
//     bounded queue and start in order of arrival, and a request read while that queue
//     is full is refused as busy (CodeServerBusy), so the work and the memory a flood
//     of pipelined requests can claim are bounded;
//   - a request the client cancelled gets no reply (MCP: a receiver SHOULD NOT answer
//     it); one still waiting for a slot is never started;
//   - no reply carries error code 0;
//   - end of input (or Shutdown) cancels the calls in flight through Middleware, and the
//     SDK is told the input ended only once every request read has been answered.
//
// It owns the writer: nothing else may write to it, so stdout stays JSON-RPC only. It
// never interprets a request beyond its envelope (jsonrpc, id, method) and the
// requestId of notifications/cancelled.
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine is the size bound of one message line in bytes (docs/transport.md).
const MaxLine = 256 * 1024

// Error codes this transport answers with besides the JSON-RPC standard ones
// (docs/transport.md, "Error codes").
const (
	// CodeRequestCancelled answers a request cancelled by the client's
	// notifications/cancelled or by shutdown before it finished. MCP defines no code
	// for it; this is the one LSP uses.
	CodeRequestCancelled = -32800
	// CodeShuttingDown answers a request read after shutdown began; it was not
	// started. It is the code the go-sdk's jsonrpc2 layer uses for the same case.
	CodeShuttingDown = -32004
	// CodeServerBusy answers a request read while the queue of requests waiting for
	// a slot is full; it was not started (docs/transport.md, "Concurrency").
	CodeServerBusy = -32005
)

// Bounds of the work in flight (docs/transport.md, "Concurrency").
const (
	DefaultMaxInFlight    = 8
	DefaultMaxQueued      = 4096
	DefaultMaxQueuedBytes = 16 << 20
)

// ErrShuttingDown is the cause of every handler context cancelled by shutdown.
var ErrShuttingDown = errors.New("server is shutting down")

// ErrInputClosed is the shutdown cause when the client closed stdin.
var ErrInputClosed = errors.New("the client closed stdin")

// Transport serves JSON-RPC over a reader and a writer, one message per line. It is
// connected at most once.
type Transport struct {
	In  io.Reader
	Out io.Writer
	// MaxLine overrides the per-line bound (for tests); zero means MaxLine.
	MaxLine int
	// MaxInFlight bounds the requests handed to the server and not yet answered; zero
	// means DefaultMaxInFlight.
	MaxInFlight int
	// MaxQueued and MaxQueuedBytes bound the requests read and waiting for a slot,
	// by number and by the bytes of their lines; zero means DefaultMaxQueued and
	// DefaultMaxQueuedBytes.
	MaxQueued, MaxQueuedBytes int

	once sync.Once
	s    *session
}

func (t *Transport) sess() *session {
	t.once.Do(func() { t.s = newSession() })
	return t.s
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	s := t.sess()
	if !s.connected.CompareAndSwap(false, true) {
		return nil, errors.New("stdio: transport already connected")
	}
	limit := t.MaxLine
	if limit <= 0 {
		limit = MaxLine
	}
	s.out = t.Out
	if cl, ok := t.In.(io.Closer); ok {
		s.inCloser = cl
	}
	s.maxRun = positive(t.MaxInFlight, DefaultMaxInFlight)
	s.maxWaiting = positive(t.MaxQueued, DefaultMaxQueued)
	s.maxWaitingBytes = positive(t.MaxQueuedBytes, DefaultMaxQueuedBytes)
	go s.pump()
	go s.readLoop(bufio.NewReaderSize(t.In, 64*1024), limit)
	return s, nil
}

func positive(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// Shutdown begins an orderly shutdown with the given cause: requests read from now on
// are refused with CodeShuttingDown, the contexts Middleware gave to the requests in
// flight are cancelled, and the session ends as soon as the last of them is answered.
// End of input does the same by itself. Shutdown may be called more than once, and
// before Connect.
func (t *Transport) Shutdown(cause error) { t.sess().shutdown(cause) }

// ShuttingDown is closed when shutdown began, for whatever cause (Shutdown, end of
// input, a failed read or write).
func (t *Transport) ShuttingDown() <-chan struct{} { return t.sess().stopCtx.Done() }

// Abort answers every request still in flight or waiting with CodeRequestCancelled
// (except those the client cancelled, which get no reply) and ends the session now;
// replies the server writes for them later are dropped. It is the last resort of a
// shutdown whose calls ignored their cancelled context.
func (t *Transport) Abort() { t.sess().abort() }

// Middleware ties every request's context to the shutdown and turns an error caused
// by cancellation into a CodeRequestCancelled reply (the reply to a request the client
// cancelled is dropped anyway; one cancelled by shutdown is answered with it). Install
// it on the server served over t.
func (t *Transport) Middleware() mcp.Middleware {
	s := t.sess()
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			ctx, cancel := context.WithCancelCause(ctx)
			defer cancel(nil)
			stop := context.AfterFunc(s.stopCtx, func() { cancel(context.Cause(s.stopCtx)) })
			defer stop()
			res, err := next(ctx, method, req)
			if err != nil && ctx.Err() != nil && causedByCancel(err) {
				why := "request cancelled by the client"
				if c := context.Cause(ctx); errors.Is(c, ErrShuttingDown) {
					why = "request cancelled: " + c.Error()
				}
				return nil, &jsonrpc.Error{Code: CodeRequestCancelled, Message: why}
			}
			return res, err
		}
	}
}

// causedByCancel reports whether err, returned from a cancelled context, is the
// cancellation itself rather than an unrelated coded error (invalid params, say).
func causedByCancel(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var we *jsonrpc.Error
	return !errors.As(err, &we) || we.Code == 0
}

// entry is one request in flight under its private id: waiting for a slot, admitted
// (holding one), or handed to the SDK.
type entry struct {
	raw       []byte // the id exactly as the client wrote it
	key       string // idKey(raw)
	private   int64
	method    string
	preInit   bool // read before any initialize was answered successfully
	cancelled bool // the client sent notifications/cancelled for it: no reply
	admitted  bool // it holds one of the maxRun slots
	delivered bool // the SDK has it (or is about to: the pump took it)
	size      int  // its line's length, counted against the queue's byte bound
	// progress is the request's _meta.progressToken exactly as the client wrote it,
	// nil when it sent none; the SDK sees a private string token instead.
	progress []byte
}

// item is one message read and not yet handed to the SDK: a request (e set) or a
// notification.
type item struct {
	msg  jsonrpc.Message
	e    *entry
	size int // a notification's line length (a request's is e.size)
}

// session is the connection handed to the SDK plus the state shared with the
// Transport's control methods.
//
// Requests and notifications reach the SDK through one queue, in order of arrival,
// delivered by pump. A request is admitted when it arrives if a slot is free and
// nothing waits ahead of it, otherwise when a reply frees a slot; the pump never
// delivers a request that is not admitted, so the requests the SDK has and has not
// answered never exceed maxRun. Cancellations and the client's replies bypass the
// queue: a cancellation must reach a call while others wait, and a handler may be
// waiting for a reply to free its slot.
type session struct {
	connected atomic.Bool
	next      atomic.Int64 // private ids; never reused within a session

	maxRun, maxWaiting, maxWaitingBytes int

	mu          sync.Mutex
	byPrivate   map[int64]*entry
	byProgress  map[string]*entry // private progress token -> its request
	byKey       map[string]int64
	initialized bool
	stopping    bool
	endErr      error         // what Read reports once drained: io.EOF or the read error
	drained     chan struct{} // closed once stopping and nothing is in flight or being written
	isDrained   bool
	inWrite     int // replies taken out of byPrivate and not yet written

	queue        []item     // read, not yet handed to the SDK, in order of arrival
	running      int        // admitted requests not yet answered
	waiting      int        // requests in queue not yet admitted
	waitingBytes int        // bytes of the lines in queue not yet admitted
	moved        *sync.Cond // on mu: the queue or the slots changed, or the session closed
	ended        bool       // Close ran: the pump stops

	stopCtx context.Context
	stop    context.CancelCauseFunc

	out       io.Writer
	inCloser  io.Closer
	wmu       sync.Mutex
	msgs      chan jsonrpc.Message
	closed    chan struct{}
	closeOnce sync.Once
}

func newSession() *session {
	s := &session{
		byPrivate:  map[int64]*entry{},
		byProgress: map[string]*entry{},
		byKey:      map[string]int64{},
		endErr:     io.EOF,
		drained:    make(chan struct{}),
		msgs:       make(chan jsonrpc.Message),
		closed:     make(chan struct{}),
	}
	s.moved = sync.NewCond(&s.mu)
	s.stopCtx, s.stop = context.WithCancelCause(context.Background())
	return s
}

func (s *session) SessionID() string { return "" }

// Read implements mcp.Connection. Messages already read are handed over before the
// end of input is reported, and the end is reported only once nothing is in flight:
// the SDK stops writing replies as soon as it sees it.
func (s *session) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-s.msgs:
		return m, nil
	default:
	}
	select {
	case m := <-s.msgs:
		return m, nil
	case <-s.drained:
		s.mu.Lock()
		defer s.mu.Unlock()
		return nil, s.endErr
	case <-s.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write implements mcp.Connection. A reply gets its client's id back; a reply to a
// request this transport no longer tracks (answered by Abort) is dropped.
func (s *session) Write(_ context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		if req, isReq := msg.(*jsonrpc.Request); isReq && req.Method == "notifications/progress" {
			if !s.restoreProgress(req) {
				return nil // its request is no longer in flight: nobody awaits it
			}
		}
		data, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return err
		}
		return s.writeLine(data)
	}
	e := s.take(resp)
	if e == nil {
		return nil
	}
	defer s.settle()
	line, err := replyLine(e, resp)
	if err != nil {
		line = errorLine(e.raw, jsonrpc.CodeInternalError, err.Error())
	}
	return s.writeLine(line)
}

// take removes the request a reply answers from the requests in flight and frees its
// slot; the caller writes the reply and then calls settle. It returns nil when the
// reply is to be dropped: its request is no longer tracked (Abort answered it) or the
// client cancelled it.
func (s *session) take(resp *jsonrpc.Response) *entry {
	p, ok := resp.ID.Raw().(int64)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.byPrivate[p]
	if e == nil {
		return nil
	}
	s.forgetLocked(e)
	if e.cancelled {
		s.checkDrainedLocked()
		return nil
	}
	if e.method == "initialize" && resp.Error == nil {
		s.initialized = true
	}
	s.inWrite++
	return e
}

// forgetLocked stops tracking e: its id is free again (a client may reuse it as soon
// as it reads the reply, which can be before settle runs; a cancelled request's id was
// freed at the cancellation), and the slot it held goes to the next request waiting.
func (s *session) forgetLocked(e *entry) {
	delete(s.byPrivate, e.private)
	if e.progress != nil {
		delete(s.byProgress, progressToken(e.private))
	}
	if p, ok := s.byKey[e.key]; ok && p == e.private {
		delete(s.byKey, e.key)
	}
	if e.admitted {
		e.admitted = false
		s.running--
		s.admitLocked()
	}
}

// admitLocked gives free slots to the requests waiting longest.
func (s *session) admitLocked() {
	for i := 0; i < len(s.queue) && s.waiting > 0 && s.running < s.maxRun; i++ {
		e := s.queue[i].e
		if e == nil || e.admitted {
			continue
		}
		e.admitted = true
		s.running++
		s.waiting--
		s.waitingBytes -= e.size
		s.moved.Signal()
	}
}

// enqueueLocked appends a message to the queue. A request is admitted at once when a
// slot is free and no request waits ahead of it; otherwise it waits, if the queue has
// room. It reports false when the request was refused as busy.
func (s *session) enqueueLocked(it item, size int) bool {
	if e := it.e; e != nil {
		e.size = size
		if s.waiting == 0 && s.running < s.maxRun {
			e.admitted = true
			s.running++
		} else {
			if s.waiting+1 > s.maxWaiting || s.waitingBytes+size > s.maxWaitingBytes {
				return false
			}
			s.waiting++
			s.waitingBytes += size
		}
	} else {
		it.size = size
		s.waitingBytes += size
	}
	s.queue = append(s.queue, it)
	s.moved.Signal()
	return true
}

// pump hands the queue to the SDK in order, each request once it is admitted.
func (s *session) pump() {
	for {
		s.mu.Lock()
		for !s.ended && (len(s.queue) == 0 || (s.queue[0].e != nil && !s.queue[0].e.admitted)) {
			s.moved.Wait()
		}
		if s.ended {
			s.mu.Unlock()
			return
		}
		it := s.queue[0]
		s.queue[0] = item{}
		s.queue = s.queue[1:]
		if it.e != nil {
			it.e.delivered = true
		} else {
			s.waitingBytes -= it.size
		}
		s.checkDrainedLocked()
		s.mu.Unlock()
		s.deliver(it.msg)
	}
}

// settle marks a taken reply written and ends the session if it was the last one.
func (s *session) settle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inWrite--
	s.checkDrainedLocked()
}

func (s *session) checkDrainedLocked() {
	if s.stopping && len(s.byPrivate) == 0 && s.inWrite == 0 && len(s.queue) == 0 && !s.isDrained {
		s.isDrained = true
		close(s.drained)
	}
}

// replyLine encodes the reply to e with e's own id, giving a code-0 error its proper
// code.
func replyLine(e *entry, resp *jsonrpc.Response) ([]byte, error) {
	if resp.Error == nil {
		if len(resp.Result) == 0 {
			return nil, errors.New("the server produced neither a result nor an error")
		}
		line := make([]byte, 0, len(resp.Result)+len(e.raw)+32)
		line = append(line, `{"jsonrpc":"2.0","id":`...)
		line = append(line, e.raw...)
		line = append(line, `,"result":`...)
		line = append(line, resp.Result...)
		return append(line, '}'), nil
	}
	we := wireError(resp.Error)
	if we.Code == 0 {
		switch {
		case e.preInit:
			we.Code = jsonrpc.CodeInvalidRequest
		default:
			we.Code = jsonrpc.CodeInternalError
		}
	}
	return encodeError(e.raw, we)
}

// wireError is the error object the SDK would have put on the wire for err.
func wireError(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		if err == error(we) {
			c := *we
			return &c
		}
		return &jsonrpc.Error{Code: we.Code, Message: err.Error(), Data: we.Data}
	}
	return &jsonrpc.Error{Message: err.Error()}
}

func encodeError(id []byte, we *jsonrpc.Error) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(we); err != nil {
		return nil, err
	}
	if id == nil {
		id = []byte("null")
	}
	line := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	line = append(line, `,"error":`...)
	line = append(line, bytes.TrimRight(buf.Bytes(), "\n")...)
	return append(line, '}'), nil
}

// errorLine is an error reply with the given id (nil: null).
func errorLine(id []byte, code int64, msg string) []byte {
	line, err := encodeError(id, &jsonrpc.Error{Code: code, Message: msg})
	if err != nil { // a string and an integer always encode
		panic(err)
	}
	return line
}

func (s *session) writeLine(data []byte) error {
	if bytes.ContainsAny(data, "\r\n") {
		// One message per line: a reply carrying raw line breaks (say, indented error
		// data) is compacted; the tokens, the id among them, stay as they are.
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err != nil {
			return err
		}
		data = buf.Bytes()
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	select {
	case <-s.closed:
		return errors.New("stdio: connection closed")
	default:
	}
	buf := make([]byte, 0, len(data)+1)
	buf = append(append(buf, data...), '\n')
	if _, err := s.out.Write(buf); err != nil {
		// The client cannot hear us any more: stop the calls in flight.
		s.shutdown(fmt.Errorf("writing to stdout: %w", err))
		return err
	}
	return nil
}

// Close implements mcp.Connection.
func (s *session) Close() error {
	s.closeOnce.Do(func() {
		close(s.closed)
		s.mu.Lock()
		s.ended = true
		s.moved.Broadcast()
		s.mu.Unlock()
		if s.inCloser != nil {
			_ = s.inCloser.Close()
		}
	})
	return nil
}

func (s *session) shutdown(cause error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shutdownLocked(cause)
}

func (s *session) shutdownLocked(cause error) {
	if !s.stopping {
		s.stopping = true
		s.stop(fmt.Errorf("%w: %w", ErrShuttingDown, cause))
	}
	s.checkDrainedLocked()
}

func (s *session) abort() {
	s.mu.Lock()
	s.shutdownLocked(errors.New("aborted"))
	pending := make([]*entry, 0, len(s.byPrivate))
	for p, e := range s.byPrivate {
		if !e.cancelled {
			pending = append(pending, e)
		}
		delete(s.byPrivate, p)
		delete(s.byKey, e.key)
	}
	// Nothing waiting is handed over any more.
	clear(s.queue)
	s.queue = s.queue[:0]
	s.waiting, s.waitingBytes = 0, 0
	s.inWrite += len(pending) // the session must not end before these are written
	s.mu.Unlock()
	for _, e := range pending {
		_ = s.writeLine(errorLine(e.raw, CodeRequestCancelled,
			"request cancelled: the server shut down before it finished"))
		s.mu.Lock()
		s.inWrite--
		s.checkDrainedLocked()
		s.mu.Unlock()
	}
	// Replies the SDK took before the abort may still be being written.
	<-s.drained
}

// readLoop turns lines into messages until the input ends, then begins shutdown.
func (s *session) readLoop(r *bufio.Reader, limit int) {
	for {
		line, over, err := readLine(r, limit)
		if over || !blank(line) {
			s.handleLine(line, over, limit)
		}
		if err != nil {
			s.mu.Lock()
			cause := ErrInputClosed
			if !errors.Is(err, io.EOF) {
				s.endErr = err
				cause = fmt.Errorf("reading stdin: %w", err)
			}
			s.shutdownLocked(cause)
			s.mu.Unlock()
			return
		}
	}
}

// deliver hands a message to the SDK's Read.
func (s *session) deliver(m jsonrpc.Message) {
	select {
	case s.msgs <- m:
	case <-s.closed:
	}
}

func (s *session) reject(id []byte, code int64, msg string) {
	_ = s.writeLine(errorLine(id, code, msg))
}

// handleLine answers, forwards or (for replies the SDK cannot use) drops one line.
func (s *session) handleLine(line []byte, over bool, limit int) {
	env := scan(line)
	id := readableID(env)
	if over {
		s.reject(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message exceeds the %d-byte line limit", limit))
		return
	}
	if !utf8.Valid(line) {
		s.reject(id, jsonrpc.CodeParseError, "message is not valid UTF-8")
		return
	}
	if errors.Is(env.syntax, errNotObject) {
		msg := "a message must be a JSON object"
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")) {
			msg = "batch requests are not supported: send one JSON object per line"
		}
		s.reject(nil, jsonrpc.CodeInvalidRequest, msg)
		return
	}
	if env.syntax != nil {
		s.reject(id, jsonrpc.CodeParseError, "invalid JSON: "+env.syntax.Error())
		return
	}
	if env.dup != "" {
		s.reject(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("member %q occurs more than once", env.dup))
		return
	}
	methodM, hasMethod := env.members["method"]
	idM, hasID := env.members["id"]
	if !hasMethod {
		_, hasResult := env.members["result"]
		_, hasError := env.members["error"]
		if hasResult || hasError {
			s.forwardReply(line, idM)
			return
		}
		s.reject(id, jsonrpc.CodeInvalidRequest, `a request needs a "method" member`)
		return
	}
	if v := env.members["jsonrpc"]; string(v.raw) != `"2.0"` {
		s.reject(id, jsonrpc.CodeInvalidRequest, `"jsonrpc" must be "2.0"`)
		return
	}
	var method string
	if kindOf(methodM.raw) != idString || json.Unmarshal(methodM.raw, &method) != nil {
		s.reject(id, jsonrpc.CodeInvalidRequest, `"method" must be a string`)
		return
	}
	if !hasID {
		s.forwardNotification(line, method, env)
		return
	}
	if id == nil {
		s.reject(nil, jsonrpc.CodeInvalidRequest, `"id" must be a string or a number`)
		return
	}
	if method == "notifications/cancelled" {
		// The SDK acts on a cancellation before it checks that it has no id, and its
		// requestId is the client's, not a private id: it would cancel a stranger.
		s.reject(id, jsonrpc.CodeInvalidRequest, "notifications/cancelled is a notification: it must not have an id")
		return
	}
	s.forwardRequest(line, method, idM)
}

// forwardRequest hands a request to the SDK under a fresh private id.
func (s *session) forwardRequest(line []byte, method string, idM member) {
	p := s.next.Add(1)
	line = splice(line, idM.start, idM.end, strconv.AppendInt(nil, p, 10))
	line, progress := swapProgressToken(line, p)
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		s.reject(idM.raw, jsonrpc.CodeInvalidRequest, err.Error())
		return
	}
	e := &entry{raw: bytes.Clone(idM.raw), key: idKey(idM.raw), private: p, method: method, progress: progress}
	s.mu.Lock()
	switch _, dup := s.byKey[e.key]; {
	case s.stopping:
		s.mu.Unlock()
		s.reject(e.raw, CodeShuttingDown, "server is shutting down: request not started")
		return
	case dup:
		s.mu.Unlock()
		s.reject(e.raw, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("request id %s is already in use by a request in flight", e.raw))
		return
	}
	e.preInit = !s.initialized && method != "initialize"
	if !s.enqueueLocked(item{msg: msg, e: e}, len(line)) {
		n := s.waiting
		s.mu.Unlock()
		s.reject(e.raw, CodeServerBusy, fmt.Sprintf(
			"server busy: %d requests are running and %d waiting, the most this server queues; this request was not started: send it again once replies arrive",
			s.maxRun, n))
		return
	}
	s.byPrivate[p] = e
	if progress != nil {
		s.byProgress[progressToken(p)] = e
	}
	s.byKey[e.key] = p
	s.mu.Unlock()
}

// forwardNotification hands a notification to the SDK, through the queue so that it
// keeps its place after the requests read before it. notifications/cancelled goes
// straight to the SDK with the private id of the request it names; it is dropped when
// that request is not in flight (MCP lets a receiver ignore such a cancellation) or is
// initialize (which MCP says a client must not cancel), and it never reaches the SDK for
// a request the SDK does not have yet: that request is taken out of the queue, never
// started and never answered.
func (s *session) forwardNotification(line []byte, method string, env envelope) {
	if method == "notifications/cancelled" {
		pm, ok := env.members["params"]
		var params map[string]json.RawMessage
		if !ok || json.Unmarshal(pm.raw, &params) != nil {
			return
		}
		rid := params["requestId"]
		if k := kindOf(rid); k != idString && k != idNumber {
			return
		}
		s.mu.Lock()
		p, ok := s.byKey[idKey(rid)]
		e := s.byPrivate[p] // nil: not in flight
		if !ok || e == nil || e.method == "initialize" {
			s.mu.Unlock()
			return
		}
		e.cancelled = true
		delete(s.byKey, e.key) // the client will hear nothing more of this id
		if !e.delivered {
			s.unqueueLocked(e)
			s.forgetLocked(e)
			s.checkDrainedLocked()
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		params["requestId"] = strconv.AppendInt(nil, p, 10)
		b, err := json.Marshal(params)
		if err != nil {
			return
		}
		line = splice(line, pm.start, pm.end, b)
		if msg, err := jsonrpc.DecodeMessage(line); err == nil {
			s.deliver(msg)
		}
		return
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return
	}
	s.mu.Lock()
	if s.waitingBytes+len(line) > s.maxWaitingBytes {
		// The queue is full of waiting lines: this notification overtakes them rather
		// than grow it past its bound.
		s.mu.Unlock()
		s.deliver(msg)
		return
	}
	s.enqueueLocked(item{msg: msg}, len(line))
	s.mu.Unlock()
}

// unqueueLocked takes e, not yet delivered, out of the queue.
func (s *session) unqueueLocked(e *entry) {
	i := slices.IndexFunc(s.queue, func(it item) bool { return it.e == e })
	if i < 0 {
		return
	}
	s.queue = slices.Delete(s.queue, i, i+1)
	if !e.admitted {
		s.waiting--
		s.waitingBytes -= e.size
	}
	s.moved.Signal()
}

// forwardReply hands the client's reply to a server request to the SDK, unless its
// id cannot be one the SDK issued.
func (s *session) forwardReply(line []byte, idM member) {
	if !responseID(idM.raw) {
		return
	}
	if msg, err := jsonrpc.DecodeMessage(line); err == nil {
		s.deliver(msg)
	}
}

// progressToken is the private progress token of the request with private id p.
func progressToken(p int64) string { return "wda-progress-" + strconv.FormatInt(p, 10) }

// swapProgressToken replaces a request's params._meta.progressToken with the private
// token of p, so that the SDK never decodes (and coerces) the client's own: a number
// like 2^63 or 1.5 comes back in notifications/progress byte for byte. It returns the
// line unchanged and nil when the request carries no token of a valid kind.
func swapProgressToken(line []byte, p int64) ([]byte, []byte) {
	env := scan(line)
	pm, ok := env.members["params"]
	if !ok {
		return line, nil
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(pm.raw, &params) != nil {
		return line, nil
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(params["_meta"], &meta) != nil {
		return line, nil
	}
	raw, ok := meta["progressToken"]
	if k := kindOf(raw); !ok || (k != idString && k != idNumber) {
		return line, nil
	}
	tok, _ := json.Marshal(progressToken(p))
	meta["progressToken"] = tok
	mb, err := json.Marshal(meta)
	if err != nil {
		return line, nil
	}
	params["_meta"] = mb
	b, err := json.Marshal(params)
	if err != nil {
		return line, nil
	}
	return splice(line, pm.start, pm.end, b), bytes.Clone(raw)
}

// restoreProgress gives an outgoing progress notification its client's own token back;
// false when the token names no request in flight.
func (s *session) restoreProgress(req *jsonrpc.Request) bool {
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil {
		return true // not ours to judge: pass it on as the SDK made it
	}
	var tok string
	if json.Unmarshal(params["progressToken"], &tok) != nil {
		return true
	}
	s.mu.Lock()
	e := s.byProgress[tok]
	cancelled := e != nil && e.cancelled
	s.mu.Unlock()
	if e == nil {
		return !strings.HasPrefix(tok, "wda-progress-")
	}
	if cancelled {
		return false // nobody awaits the progress of a cancelled request
	}
	params["progressToken"] = e.progress
	b, err := json.Marshal(params)
	if err != nil {
		return false
	}
	req.Params = b
	return true
}
