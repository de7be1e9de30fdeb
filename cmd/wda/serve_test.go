package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/stdio"
)

// serveStubborn runs serve over pipes with one tool that ignores its context until
// release is closed, with no grace at all, and returns the pipes and serve's exit code.
func serveStubborn(t *testing.T) (io.WriteCloser, *bufio.Scanner, chan struct{}, <-chan int, *bytes.Buffer) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	release, started := make(chan struct{}), make(chan struct{}, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "stubborn", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			started <- struct{}{}
			<-release
			return &mcp.CallToolResult{}, nil
		})
	tr := &stdio.Transport{In: inR, Out: outW}
	srv.AddReceivingMiddleware(tr.Middleware())
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() { code <- serve(srv, tr, &stderr, 0) }()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	sc := bufio.NewScanner(outR)
	io.WriteString(inW, e2eInit+"\n"+e2eInitialized+"\n")
	sc.Scan()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"stubborn","arguments":{}}}`+"\n")
	<-started
	return inW, sc, release, code, &stderr
}

// A call that ignores its cancelled context is answered as cancelled once the grace
// is over, and the process exits 1.
func TestServeAbortsStubbornCalls(t *testing.T) {
	in, out, release, code, stderr := serveStubborn(t)
	defer close(release)
	in.Close()
	if !out.Scan() {
		t.Fatal("no reply")
	}
	var m map[string]json.RawMessage
	json.Unmarshal(out.Bytes(), &m)
	if string(m["id"]) != `"s"` || !strings.Contains(string(m["error"]), "-32800") {
		t.Fatalf("reply %s", out.Bytes())
	}
	if c := <-code; c != 1 {
		t.Fatalf("exit code %d", c)
	}
	if !strings.Contains(stderr.String(), "answered as cancelled") {
		t.Fatalf("stderr %q", stderr.String())
	}
}

// A client that closed stdin and reads nothing more does not keep the process alive.
func TestServeExitsWhenStdoutIsNotRead(t *testing.T) {
	in, _, release, code, stderr := serveStubborn(t)
	defer close(release)
	in.Close()
	if c := <-code; c != 1 {
		t.Fatalf("exit code %d", c)
	}
	if !strings.Contains(stderr.String(), "not being read") {
		t.Fatalf("stderr %q", stderr.String())
	}
}
