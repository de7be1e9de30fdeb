// Package stdio is the newline-delimited JSON-RPC transport `wda mcp` serves on.
//
// The go-sdk's stock stdio transport ends the session on the first malformed line. This
// one answers a line that is not UTF-8, not JSON, not an object (a batch array included)
// or longer than 256 KiB with a JSON-RPC error whose id is null, and keeps serving.
// It owns the writer: nothing else may write to it, so stdout stays JSON-RPC only.
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine is the request size bound per line (tools.md §2.1).
const MaxLine = 256 * 1024

// Transport serves JSON-RPC over a reader and a writer, one message per line.
type Transport struct {
	In  io.Reader
	Out io.Writer
	// MaxLine overrides the per-line bound (for tests); zero means MaxLine.
	MaxLine int
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxLine
	if limit <= 0 {
		limit = MaxLine
	}
	c := &conn{out: t.Out, msgs: make(chan readResult), closed: make(chan struct{})}
	if cl, ok := t.In.(io.Closer); ok {
		c.inCloser = cl
	}
	go c.readLoop(bufio.NewReaderSize(t.In, 64*1024), limit)
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

type conn struct {
	out      io.Writer
	inCloser io.Closer
	wmu      sync.Mutex
	msgs     chan readResult
	closed   chan struct{}
	once     sync.Once
}

func (c *conn) SessionID() string { return "" }

func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case r := <-c.msgs:
		return r.msg, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *conn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

func (c *conn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	select {
	case <-c.closed:
		return errors.New("stdio: connection closed")
	default:
	}
	buf := make([]byte, 0, len(data)+1)
	buf = append(append(buf, data...), '\n')
	_, err := c.out.Write(buf)
	return err
}

func (c *conn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		if c.inCloser != nil {
			_ = c.inCloser.Close()
		}
	})
	return nil
}

// readLoop turns lines into messages. Bad lines are answered here and never reach the
// session; only EOF or a read error ends it.
func (c *conn) readLoop(r *bufio.Reader, limit int) {
	for {
		line, over, err := readLine(r, limit)
		if over {
			c.reject(jsonrpc.CodeInvalidRequest, fmt.Sprintf("MCP request exceeds %d byte limit", limit))
		} else if len(bytes.TrimSpace(line)) > 0 {
			if msg, code, why := decode(line); msg != nil {
				if !c.deliver(readResult{msg: msg}) {
					return
				}
			} else {
				c.reject(code, why)
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.EOF
			}
			c.deliver(readResult{err: err})
			return
		}
	}
}

func (c *conn) deliver(r readResult) bool {
	select {
	case c.msgs <- r:
		return true
	case <-c.closed:
		return false
	}
}

func (c *conn) reject(code int64, msg string) {
	b, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	_ = c.writeLine(b)
}

// readLine reads one line of at most limit bytes (without the newline). A longer line
// is drained to its end and reported as over.
func readLine(r *bufio.Reader, limit int) (line []byte, over bool, err error) {
	for {
		chunk, e := r.ReadSlice('\n')
		if !over {
			line = append(line, chunk...)
			if len(bytes.TrimRight(line, "\r\n")) > limit {
				over, line = true, nil
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), over, e
	}
}

// decode validates one line. It returns the message, or the error code and text to
// answer with.
func decode(line []byte) (jsonrpc.Message, int64, string) {
	if !utf8.Valid(line) {
		return nil, jsonrpc.CodeParseError, "invalid UTF-8 in request"
	}
	var v any
	if err := json.Unmarshal(line, &v); err != nil {
		return nil, jsonrpc.CodeParseError, err.Error()
	}
	obj, ok := v.(map[string]any)
	if !ok {
		if _, batch := v.([]any); batch {
			return nil, jsonrpc.CodeParseError, "batch requests are not supported: send one JSON object per line"
		}
		return nil, jsonrpc.CodeParseError, "request must be a JSON object"
	}
	if m, has := obj["method"]; has {
		if _, ok := m.(string); !ok {
			return nil, jsonrpc.CodeInvalidRequest, "request method must be a string"
		}
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, jsonrpc.CodeInvalidRequest, err.Error()
	}
	return msg, 0, ""
}
