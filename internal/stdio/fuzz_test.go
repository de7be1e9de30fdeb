package stdio_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/stdio"
)

const fuzzLimit = 2048

// lockedBuffer is the server's stdout in the fuzz target.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// serveAll runs a server with one tool over data and returns everything it wrote
// before Run returned.
func serveAll(t *testing.T, data []byte) []byte {
	out := &lockedBuffer{}
	// Small bounds, so that inputs with a few requests already queue and get busy
	// refusals.
	tr := &stdio.Transport{In: bytes.NewReader(data), Out: out, MaxLine: fuzzLimit, MaxInFlight: 2, MaxQueued: 3}
	srv := mcp.NewServer(&mcp.Implementation{Name: "f", Version: "0"}, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{}})
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	srv.AddReceivingMiddleware(tr.Middleware())
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background(), tr) }()
	select {
	case <-done:
	case <-time.After(replyBound):
		t.Fatalf("Run did not return after the end of input %q", data)
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	return bytes.Clone(out.buf.Bytes())
}

// FuzzTransport feeds arbitrary bytes to a server and checks the transport's promises
// (docs/transport.md): every output line is one valid JSON-RPC message with a
// non-zero error code, every request the oracle recognises is answered exactly once
// with its id byte for byte unless a cancellation naming its id may have silenced it,
// and no reply carries an id the client never wrote.
func FuzzTransport(f *testing.F) {
	for _, s := range []string{
		initLine + "\n" + initializedLine + "\n" + `{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}` + "\n",
		`{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a\u0062","method":"ping"}` + "\r\n" + `{"jsonrpc":"2.0","id":"ab","method":"ping"}`,
		initLine + "\n" + call("7", "echo") + "\n" + call("7", "echo") + "\n" + cancel("7") + "\n",
		`{"jsonrpc":"2.0","id":3,"method":7}` + "\n" + `[1]` + "\n" + `{"id":4` + "\n\n",
		`{"jsonrpc":"2.0","id":5,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":6,"id":6,"method":"ping"}`,
		initLine + "\n" + initializedLine + "\n" + strings.Repeat(call("1", "echo")+"\n"+call("2", "echo")+"\n"+call("3", "echo")+"\n", 3) +
			call("4", "echo") + "\n" + cancel("3") + "\n" + cancel("4") + "\n" + `{"jsonrpc":"2.0","id":5,"method":"ping"}` + "\n",
		"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\",\"p\":\"\xff\"}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out := serveAll(t, data)
		got := map[string]int{}
		for _, line := range splitLines(out) {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(line, &m); err != nil || !utf8.Valid(line) {
				t.Fatalf("output line is not a JSON object: %q", line)
			}
			if string(m["jsonrpc"]) != `"2.0"` {
				t.Fatalf("output line without jsonrpc 2.0: %s", line)
			}
			if m["method"] != nil { // a server notification or request
				continue
			}
			id, ok := m["id"]
			if !ok || (m["result"] == nil) == (m["error"] == nil) {
				t.Fatalf("reply needs an id and exactly one of result and error: %s", line)
			}
			if e := m["error"]; e != nil {
				var we struct {
					Code    *int64  `json:"code"`
					Message *string `json:"message"`
				}
				if json.Unmarshal(e, &we) != nil || we.Code == nil || *we.Code == 0 || we.Message == nil {
					t.Fatalf("error without a non-zero code and a message: %s", line)
				}
			}
			if string(id) != "null" {
				if !bytes.Contains(data, id) {
					t.Fatalf("reply id %s was never sent", id)
				}
				got[string(id)]++
			}
		}
		want := map[string]int{}
		var unclear [][]byte
		cancels := map[string]int{} // idKey -> well-formed cancellations naming it
		for _, line := range splitLines(data) {
			if len(bytes.Trim(line, " \t\r")) == 0 {
				continue
			}
			if id, ok := cleanRequestID(line); ok {
				want[string(id)]++
			} else if rid, ok := cancelledID(line); ok {
				cancels[stdio.IDKey(rid)]++
			} else {
				unclear = append(unclear, line)
			}
		}
		// A request the client cancelled gets no reply: each cancellation may silence
		// one request with the same id (as a JSON value).
		wantByKey, gotByKey := map[string]int{}, map[string]int{}
		for id, n := range want {
			k := stdio.IDKey([]byte(id))
			wantByKey[k] += n
			gotByKey[k] += got[id]
		}
		for k, n := range wantByKey {
			if gotByKey[k] < n-cancels[k] {
				t.Fatalf("id key %q: %d requests, %d cancellations, %d replies\ninput %q\noutput %s", k, n, cancels[k], gotByKey[k], data, out)
			}
		}
		for id, n := range want {
			mentioned := false
			for _, l := range unclear {
				mentioned = mentioned || bytes.Contains(l, []byte(id))
			}
			if got[id] > n && !mentioned {
				t.Fatalf("id %s: %d requests, %d replies\ninput %q\noutput %s", id, n, got[id], data, out)
			}
		}
	})
}

// splitLines splits like the transport: at '\n', with one '\r' before it dropped.
func splitLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	lines := bytes.Split(b, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return lines
}

// cleanRequestID is the oracle's notion of a request whose id must be echoed: a line
// within the limit, valid UTF-8, one JSON object without repeated members, with a
// "method" member and a string or number "id".
func cleanRequestID(line []byte) (json.RawMessage, bool) {
	if len(line) > fuzzLimit || !utf8.Valid(line) || !json.Valid(line) {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil || m == nil || repeatsMember(line, len(m)) {
		return nil, false
	}
	id, hasID := m["id"]
	if _, hasMethod := m["method"]; !hasMethod || !hasID || len(id) == 0 {
		return nil, false
	}
	if c := id[0]; c != '"' && c != '-' && (c < '0' || c > '9') {
		return nil, false
	}
	return id, true
}

// cancelledID is the requestId of a line the oracle takes for a cancellation: a
// notification (no id) named notifications/cancelled whose params.requestId is a string
// or a number.
func cancelledID(line []byte) ([]byte, bool) {
	if len(line) > fuzzLimit || !utf8.Valid(line) || !json.Valid(line) {
		return nil, false
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil || m.ID != nil || m.Method != "notifications/cancelled" {
		return nil, false
	}
	rid := m.Params.RequestID
	if len(rid) == 0 {
		return nil, false
	}
	if c := rid[0]; c != '"' && c != '-' && (c < '0' || c > '9') {
		return nil, false
	}
	return rid, true
}

// repeatsMember reports whether the object in line has more top-level members than
// the n distinct names a map kept.
func repeatsMember(line []byte, n int) bool {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.Token() // {
	count := 0
	for dec.More() {
		if _, err := dec.Token(); err != nil {
			return true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return true
		}
		count++
	}
	return count != n
}
