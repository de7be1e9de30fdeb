package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/config"
)

// TestServeRefusals: `wda serve` refuses, with exit 2 and a message naming the flag,
// every configuration docs/remote.md forbids, before it listens.
func TestServeRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	open := filepath.Join(dir, "open-tokens")
	if err := os.WriteFile(open, []byte("ci "+strings.Repeat("a", 40)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--root", dir}, "--http: required"},
		{[]string{"--http", "0.0.0.0:8443", "--root", dir, "--token-file", open}, "--tls-cert, --tls-key: required on 0.0.0.0:8443"},
		{[]string{"--http", "10.1.2.3:8443", "--root", dir, "--no-auth", "--tls-cert", "c", "--tls-key", "k"}, "--no-auth: refused on 10.1.2.3:8443"},
		{[]string{"--http", "127.0.0.1:0", "--root", dir}, "--token-file: required"},
		{[]string{"--http", "127.0.0.1:0", "--no-auth"}, "--root: required"},
		{[]string{"--http", "127.0.0.1:0", "--no-auth", "--root", filepath.Join(dir, "none")}, "--root: every root must be an existing folder"},
	}
	if os.PathSeparator == '/' {
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"--http", "127.0.0.1:0", "--root", dir, "--token-file", open}, "lets others read it"})
	}
	for _, tc := range cases {
		var stderr bytes.Buffer
		listened := false
		code := runServe(context.Background(), tc.args, &stderr, func(string) string { return "" }, func(string) (net.Listener, error) {
			listened = true
			return nil, nil
		})
		if code != exitUsage || !strings.Contains(stderr.String(), tc.want) || listened {
			t.Errorf("%v: exit %d, listened %v, stderr %q; want 2 and %q", tc.args, code, listened, stderr.String(), tc.want)
		}
	}
}

// TestServeHTTP: `wda serve --http 127.0.0.1:0 --no-auth` serves the ten tools with
// the remote instructions, and ends with exit 0 when its context ends.
func TestServeHTTP(t *testing.T) {
	t.Parallel()
	root, data := t.TempDir(), t.TempDir()
	getenv := func(k string) string {
		if k == config.DataDirVar {
			return data
		}
		return ""
	}
	lnc := make(chan net.Listener, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		done <- runServe(ctx, []string{"--http", "127.0.0.1:0", "--no-auth", "--root", root}, &stderr, getenv,
			func(addr string) (net.Listener, error) {
				ln, err := net.Listen("tcp", addr)
				lnc <- ln
				return ln, err
			})
	}()
	ln := <-lnc
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp", MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := cs.ListTools(ctx, nil)
	if err != nil || len(tl.Tools) != 10 {
		t.Fatalf("tools/list: %v, %d tools", err, len(tl.Tools))
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "hooks of your host do not run here") {
		t.Errorf("instructions: %q", cs.InitializeResult().Instructions)
	}
	cs.Close()
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d; stderr %s", code, stderr.String())
	}
}
