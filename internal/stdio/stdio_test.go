package stdio_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/stdio"
)

// serve starts a bare server on the transport and returns the client side of the pipes.
func serve(t *testing.T, limit int) (io.WriteCloser, *bufio.Scanner, <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{}})
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(context.Background(), &stdio.Transport{In: inR, Out: outW, MaxLine: limit})
		outW.Close()
	}()
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	t.Cleanup(func() { inW.Close(); inR.Close(); outR.Close() })
	return inW, sc, done
}

func TestBadLinesKeepServing(t *testing.T) {
	in, out, done := serve(t, 1024)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"0"}}}`
	cases := []struct {
		name, line string
		code       float64
	}{
		{"not json", `{not json`, -32700},
		{"not object", `42`, -32700},
		{"batch", `[` + init + `]`, -32700},
		{"invalid utf8", "{\"a\":\"\xff\"}", -32700},
		{"method not string", `{"jsonrpc":"2.0","id":3,"method":7}`, -32600},
		{"oversize", `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"` + strings.Repeat("a", 2000) + `"}}`, -32600},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := io.WriteString(in, c.line+"\n"); err != nil {
				t.Fatal(err)
			}
			if !out.Scan() {
				t.Fatalf("no reply: %v", out.Err())
			}
			var got map[string]any
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("reply is not JSON: %q", out.Text())
			}
			errObj, _ := got["error"].(map[string]any)
			want := map[string]any{"id": nil, "code": c.code}
			gotSum := map[string]any{"id": got["id"], "code": errObj["code"]}
			if diff := cmp.Diff(want, gotSum); diff != "" {
				t.Fatalf("reply %s (-want +got):\n%s", out.Text(), diff)
			}
		})
	}
	// Blank lines get no reply; a good request after all of that is still answered.
	io.WriteString(in, "\n   \n"+init+"\n")
	if !out.Scan() {
		t.Fatal("server stopped serving")
	}
	var got map[string]any
	json.Unmarshal(out.Bytes(), &got)
	if got["id"] != 1.0 || got["result"] == nil {
		t.Fatalf("initialize after bad lines: %s", out.Text())
	}
	in.Close()
	if err := <-done; err != nil && err != io.EOF {
		t.Logf("run ended with %v", err)
	}
}
