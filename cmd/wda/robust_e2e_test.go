package main

// Protocol robustness against the real binary over raw stdio: bad lines are answered
// with JSON-RPC errors and the session keeps serving; stdout carries JSON only.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawServer is wda mcp driven line by line.
type rawServer struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startRaw(t *testing.T, env ...string) *rawServer {
	t.Helper()
	s := startBare(t, env...)
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	s.recv()
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// startBare starts wda mcp without initializing the session.
func startBare(t *testing.T, env ...string) *rawServer {
	t.Helper()
	cmd := exec.Command(wdaBin, "mcp")
	cmd.Env = append(os.Environ(), "WINDOWS_DEV_AGENT_DATA_DIR="+t.TempDir(), "WINDOWS_DEV_AGENT_PROJECT_DIR="+repoRoot(t))
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(outPipe)
	sc.Buffer(make([]byte, 4<<20), 4<<20)
	s := &rawServer{t: t, cmd: cmd, in: in, out: sc}
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	return s
}

func (s *rawServer) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("write: %v", err)
	}
}

// recv reads one reply line and insists it is a JSON object.
func (s *rawServer) recv() map[string]any {
	s.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(s.line(), &m); err != nil {
		s.t.Fatalf("stdout carried a non-JSON line: %q", s.out.Text())
	}
	return m
}

// recvRaw is recv keeping each member's bytes as the server wrote them.
func (s *rawServer) recvRaw() map[string]json.RawMessage {
	s.t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(s.line(), &m); err != nil {
		s.t.Fatalf("stdout carried a non-JSON line: %q", s.out.Text())
	}
	return m
}

func (s *rawServer) line() []byte {
	s.t.Helper()
	if !s.out.Scan() {
		s.t.Fatalf("no reply: %v", s.out.Err())
	}
	return s.out.Bytes()
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

func TestE2EProtocolRobustness(t *testing.T) {
	s := startRaw(t)
	args33 := map[string]any{}
	for i := range 33 {
		args33[fmt.Sprintf("a%d", i)] = i
	}
	a33, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": map[string]any{"name": "logs_query", "arguments": args33}})
	long, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": map[string]any{"name": "workflow_plan", "arguments": map[string]any{"task": strings.Repeat("x", 40000)}}})
	cases := []struct {
		name   string
		line   string
		code   float64
		nullID bool
	}{
		{"malformed JSON", `{"jsonrpc":`, -32700, true},
		// Valid JSON that is not a request object is an invalid request, as in the
		// JSON-RPC 2.0 specification's examples for `1` and `[]` (docs/transport.md §2).
		{"non-object", `"hello"`, -32600, true},
		{"batch array", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, true},
		// The id at the start of an oversized line is readable, so it is echoed.
		{"1 MiB line", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("p", 1<<20) + `"}}`, -32600, false},
		{"unknown method", `{"jsonrpc":"2.0","id":4,"method":"no/such"}`, -32601, false},
	}
	// Argument validation failures are tool results (SEP-1303), not JSON-RPC errors.
	for _, line := range []string{string(a33), string(long)} {
		s.send(line)
		m := s.recv()
		res, _ := m["result"].(map[string]any)
		sc, _ := res["structuredContent"].(map[string]any)
		if m["error"] != nil || res["isError"] != true || sc["status"] != "invalid_input" {
			t.Fatalf("validation failure answered as %v", m)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.send(c.line)
			m := s.recv()
			if got := errCode(m); got != c.code {
				t.Fatalf("code = %v, want %v in %v", got, c.code, m)
			}
			if _, has := m["id"]; c.nullID && (!has || m["id"] != nil) {
				t.Fatalf("id = %v, want null", m["id"])
			}
			if !c.nullID && m["id"] == nil {
				t.Fatalf("id = null in %v, want the request's", m)
			}
		})
	}
	// An unknown notification gets no reply: the next answer is the ping's.
	s.send(`{"jsonrpc":"2.0","method":"notifications/no-such"}`)
	s.send(`{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	if m := s.recv(); m["id"] != 9.0 || m["error"] != nil {
		t.Fatalf("ping after an unknown notification: %v", m)
	}
	// EOF ends the server with exit code 0.
	s.in.Close()
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("exit after EOF: %v", err)
	}
}

func TestE2EConcurrentCalls(t *testing.T) {
	cs := startServer(t, "2025-06-18")
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "workflow_plan", Arguments: map[string]any{"task": fmt.Sprintf("run the go tests %d", i)}})
			if err == nil && res.IsError {
				err = fmt.Errorf("tool error: %v", res.Content)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A client that closes stdin while a call runs: the call is still answered (a client
// keeps reading stdout until it ends; a reply bigger than the pipe's buffer would block
// otherwise) and the server exits 0.
func TestE2EStdinClosedMidCall(t *testing.T) {
	s := startRaw(t)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"env_inspect","arguments":{"force_refresh":true}}}`)
	s.in.Close()
	bounded(t, "the reply to the call in flight", func() error {
		for s.out.Scan() {
			var m map[string]json.RawMessage
			if json.Unmarshal(s.out.Bytes(), &m) == nil && string(m["id"]) == "1" {
				return nil
			}
		}
		return fmt.Errorf("stdout ended without the reply: %v", s.out.Err())
	})
	bounded(t, "wda exiting 0 after stdin closed", s.cmd.Wait)
}
