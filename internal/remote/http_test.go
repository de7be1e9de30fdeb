package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
)

type probeIn struct {
	Cwd string `json:"cwd,omitempty"`
}

type probeOut struct {
	tools.Status
	Cwd string `json:"cwd"`
}

// calls counts the probe's runs: a refused request must leave it at zero.
type calls struct {
	mu sync.Mutex
	n  int
}

func (c *calls) get() int { c.mu.Lock(); defer c.mu.Unlock(); return c.n }

func probe(c *calls) tools.Tool {
	return tools.Define(tools.Def[probeIn, probeOut]{
		Name: "probe", Order: 1, Title: "Probe", Description: "test tool", ProjectArg: "cwd",
		Classes:  tools.Classification{Base: tools.ReadOnly},
		Statuses: []string{"ok"},
		Handle: func(_ context.Context, env *tools.Env, in probeIn) (probeOut, error) {
			c.mu.Lock()
			c.n++
			c.mu.Unlock()
			return probeOut{Status: tools.Status{Status: "ok"}, Cwd: in.Cwd}, nil
		},
	})
}

type fixture struct {
	url     string
	h       *Handler
	calls   *calls
	clock   *testkit.Clock
	dataDir string
	roots   []string
	outside string
}

// serveTest serves the probe tool through the runtime pipeline with the remote host,
// behind NewHandler, on an httptest server; c adjusts the Config before Check.
func serveTest(t *testing.T, adjust func(*Config)) *fixture {
	t.Helper()
	base := testkit.TempDir(t)
	f := &fixture{calls: &calls{}, clock: testkit.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), dataDir: filepath.Join(base, "data")}
	for _, d := range []string{"r1", "r2", "outside"} {
		if err := os.Mkdir(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.roots = []string{filepath.Join(base, "r1"), filepath.Join(base, "r2")}
	f.outside = filepath.Join(base, "outside")
	reg := tools.New()
	reg.Register(probe(f.calls))
	rh := host.NewRemote(f.roots, func(string) string { return "" })
	srv := runtime.NewServer(reg, runtime.Options{Host: rh, Roots: rh.Roots(), DataDir: f.dataDir, ProjectDir: f.roots[0]})
	srv.AddReceivingMiddleware(Inflight(DefaultMaxInFlight, DefaultMaxQueued))
	ts, err := ParseTokens([]byte("ci-agent " + tokA + "\nlaptop " + tokB + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(nil)
	c := Config{Addr: hs.Listener.Addr().String(), TokenFile: "tokens", AuthServers: []string{"https://idp.example"}}
	if adjust != nil {
		adjust(&c)
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	f.h = NewHandler(srv, c, Options{Tokens: ts, Now: f.clock.Now})
	hs.Config.Handler = f.h
	hs.Start()
	t.Cleanup(hs.Close)
	f.url = hs.URL
	return f
}

type bearer struct {
	token string
	extra http.Header
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	for k, v := range b.extra {
		r.Header[k] = v
	}
	return http.DefaultTransport.RoundTrip(r)
}

func (f *fixture) connect(t *testing.T, token string) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: f.url + "/mcp", MaxRetries: -1, DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Transport: bearer{token: token}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// post sends one raw JSON-RPC initialize with the given headers.
func (f *fixture) post(t *testing.T, hdr map[string]string, body string) *http.Response {
	t.Helper()
	if body == "" {
		body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	}
	req, _ := http.NewRequest(http.MethodPost, f.url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestUnauthorized: no token, a wrong token, a token in the wrong scheme all get 401
// with the challenge MCP requires (RFC 9728's resource_metadata), and no tool runs.
func TestUnauthorized(t *testing.T) {
	t.Parallel()
	f := serveTest(t, nil)
	want := `Bearer resource_metadata="` + f.url + `/.well-known/oauth-protected-resource/mcp"`
	for name, hdr := range map[string]map[string]string{
		"none":        nil,
		"wrong":       {"Authorization": "Bearer " + strings.Repeat("z", 40)},
		"basic":       {"Authorization": "Basic " + tokA},
		"token alone": {"Authorization": tokA},
	} {
		resp := f.post(t, hdr, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"probe","arguments":{}}}`)
		if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != want {
			t.Errorf("%s: %d %q, want 401 %q", name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
		}
	}
	if _, err := f.connect(t, strings.Repeat("z", 40)); err == nil {
		t.Error("the SDK client connected with a wrong token")
	}
	if n := f.calls.get(); n != 0 {
		t.Fatalf("the tool ran %d times without a valid token", n)
	}
}

// TestCallerAudited: a call with the right token runs, and its audit record names
// the token's name (never the token).
func TestCallerAudited(t *testing.T) {
	t.Parallel()
	f := serveTest(t, nil)
	cs, err := f.connect(t, tokB)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "hooks of your host do not run here") {
		t.Errorf("instructions do not say hooks do not run: %q", cs.InitializeResult().Instructions)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	if err := audit.Flush(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	recs, err := audit.Read(f.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0]["caller"] != "laptop" || recs[0]["host"] != "remote" {
		t.Fatalf("records = %v, want one with caller laptop", recs)
	}
	raw, _ := os.ReadFile(filepath.Join(f.dataDir, "audit.jsonl"))
	if bytes.Contains(raw, []byte(tokB)) {
		t.Fatal("the audit log holds the token")
	}
}

// TestRoots: a project outside every root is refused before the tool runs; relative
// paths go under the first root, absolute ones may be in any root.
func TestRoots(t *testing.T) {
	t.Parallel()
	f := serveTest(t, nil)
	cs, err := f.connect(t, tokA)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cwd, want string
	}{
		{"", f.roots[0]},
		{f.roots[1], f.roots[1]},
		{f.outside, ""},
		{"../outside", ""},
		{"/", ""},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{"cwd": tc.cwd}})
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &out)
		if tc.want == "" {
			if !res.IsError || out["status"] != "invalid_input" || !strings.Contains(out["error"].(string), "must stay inside") {
				t.Errorf("cwd %q: %v, want refused", tc.cwd, out)
			}
			continue
		}
		if res.IsError || out["cwd"] != tc.want {
			t.Errorf("cwd %q: %v, want bound to %s", tc.cwd, out, tc.want)
		}
	}
	if n := f.calls.get(); n != 2 {
		t.Fatalf("tool ran %d times, want 2", n)
	}
}

// TestMetadata: the protected-resource metadata names the resource and the
// configured authorization server, at both well-known paths, without a token.
func TestMetadata(t *testing.T) {
	t.Parallel()
	f := serveTest(t, nil)
	for _, p := range []string{MetadataPath, MetadataRootPath} {
		resp, err := http.Get(f.url + p)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"resource": f.url + "/mcp", "authorization_servers": []any{"https://idp.example"},
			"bearer_methods_supported": []any{"header"}, "resource_name": "Windows Dev Agent"}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", p, d)
		}
	}
}

// TestOrigin: a browser Origin not on the list is refused with 403 before the token
// is looked at; a listed one and no Origin pass to the token check.
func TestOrigin(t *testing.T) {
	t.Parallel()
	f := serveTest(t, func(c *Config) { c.Origins = []string{"https://ok.example"} })
	auth := "Bearer " + tokA
	for _, tc := range []struct {
		origin string
		want   int
	}{{"https://evil.example", 403}, {"null", 403}, {"http://ok.example", 403}, {"https://ok.example", 200}, {"HTTPS://OK.example", 200}, {"", 200},
		{"http://localhost:3000", 200}, {"http://127.0.0.1", 200}, {"http://[::1]:9", 200}, {"http://localhost.evil.example", 403}, {"file://localhost", 403}} {
		hdr := map[string]string{"Authorization": auth}
		if tc.origin != "" {
			hdr["Origin"] = tc.origin
		}
		if got := f.post(t, hdr, "").StatusCode; got != tc.want {
			t.Errorf("Origin %q: %d, want %d", tc.origin, got, tc.want)
		}
	}
	// A rebinding name reaching the loopback listener: the SDK refuses the Host.
	req, _ := http.NewRequest(http.MethodPost, f.url+"/mcp", strings.NewReader("{}"))
	req.Host = "attacker.example"
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("Host attacker.example: %d, want 403", resp.StatusCode)
	}
}

// TestBodyLimit: a body over the bound is refused with 413 and never handled.
func TestBodyLimit(t *testing.T) {
	t.Parallel()
	f := serveTest(t, func(c *Config) { c.MaxBodyBytes = 1024 })
	big := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"` +
		strings.Repeat("x", 2048) + `","version":"1"}}}`
	resp := f.post(t, map[string]string{"Authorization": "Bearer " + tokA}, big)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
	if got := f.post(t, map[string]string{"Authorization": "Bearer " + tokA}, "").StatusCode; got != 200 {
		t.Fatalf("a small initialize: %d", got)
	}
}

// TestSessionBound: at the bound of two, a third session closes the one used longest
// ago (its next call fails: the client must start a new session); sessions idle past
// the bound are closed by Sweep (an injected clock), not a moment before.
func TestSessionBound(t *testing.T) {
	t.Parallel()
	f := serveTest(t, func(c *Config) { c.MaxSessions = 2; c.IdleTimeout = time.Minute })
	a, err := f.connect(t, tokA)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(time.Second)
	b, err := f.connect(t, tokA)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(time.Second)
	if _, err := f.connect(t, tokA); err != nil {
		t.Fatalf("third session: %v", err)
	}
	if n := f.h.sessions.Open(); n != 2 {
		t.Fatalf("%d sessions open, want 2", n)
	}
	call := func(cs *mcp.ClientSession) error {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{}})
		return err
	}
	if err := call(a); err == nil {
		t.Fatal("the evicted session still works")
	}
	if err := call(b); err != nil {
		t.Fatalf("the newer session was closed: %v", err)
	}
	f.clock.Advance(59 * time.Second)
	f.h.Sweep()
	if n := f.h.sessions.Open(); n != 2 {
		t.Fatalf("after 59s: %d sessions open, want 2", n)
	}
	f.clock.Advance(time.Minute)
	f.h.Sweep()
	if n := f.h.sessions.Open(); n != 0 {
		t.Fatalf("after the idle bound: %d sessions open, want 0", n)
	}
	if err := call(b); err == nil {
		t.Fatal("a call on a session closed as idle succeeded")
	}
}

// TestSessionBoundBusy: when every session has a request in flight, a new session is
// refused with 503 and -32005, and none is closed; once the request ends, the new
// session closes the idle one.
func TestSessionBoundBusy(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	var closed []string
	var mu sync.Mutex
	s := newSessions(1, time.Hour, func() time.Time { return time.Unix(0, 0) }, func(id string) {
		mu.Lock()
		closed = append(closed, id)
		mu.Unlock()
	})
	n := 0
	h := s.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(sessionHeader) == "" {
			n++
			w.Header().Set(sessionHeader, fmt.Sprintf("s%d", n))
			w.WriteHeader(200)
			return
		}
		close(started)
		<-release
	}))
	do := func(id string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("{}"))
		if id != "" {
			r.Header.Set(sessionHeader, id)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := do(""); w.Code != 200 {
		t.Fatal(w.Code)
	}
	done := make(chan struct{})
	go func() { do("s1"); close(done) }()
	<-started
	if w := do(""); w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), `"code":-32005`) {
		t.Fatalf("new session while s1 is busy: %d %s", w.Code, w.Body)
	}
	close(release)
	<-done
	if w := do(""); w.Code != 200 || w.Header().Get(sessionHeader) != "s2" {
		t.Fatalf("new session once s1 is idle: %d", w.Code)
	}
	mu.Lock()
	defer mu.Unlock()
	if d := cmp.Diff([]string{"s1"}, closed); d != "" {
		t.Fatalf("closed (-want +got):\n%s", d)
	}
}

// TestSessionOfAnotherToken: a session opened with one token cannot be used with
// another (the SDK compares the token's name, which Verify puts in UserID).
func TestSessionOfAnotherToken(t *testing.T) {
	t.Parallel()
	f := serveTest(t, nil)
	resp := f.post(t, map[string]string{"Authorization": "Bearer " + tokA}, "")
	id := resp.Header.Get(sessionHeader)
	if id == "" {
		t.Fatal("no session id")
	}
	r2 := f.post(t, map[string]string{"Authorization": "Bearer " + tokB, sessionHeader: id, "Mcp-Protocol-Version": "2025-06-18"},
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"probe","arguments":{}}}`)
	if r2.StatusCode < 400 {
		t.Fatalf("another token's session: %d", r2.StatusCode)
	}
	if n := f.calls.get(); n != 0 {
		t.Fatalf("tool ran %d times", n)
	}
}

// TestInflight: with one slot and one waiting place, a third request is answered at
// once with -32005 and never started; the waiting one runs when the slot frees.
func TestInflight(t *testing.T) {
	t.Parallel()
	queued := make(chan struct{}, 3)
	started := make(chan struct{}, 3)
	release := make(chan struct{})
	var ran sync.WaitGroup
	h := inflight(1, 1, func() { queued <- struct{}{} })(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return nil, nil
		}
		started <- struct{}{}
		<-release
		return &mcp.CallToolResult{}, nil
	})
	req := &mcp.CallToolRequest{}
	errs := make(chan error, 2)
	for range 2 {
		ran.Add(1)
		go func() { defer ran.Done(); _, err := h(context.Background(), "tools/call", req); errs <- err }()
		<-queued
	}
	<-started // the first holds the slot; the second waits
	_, err := h(context.Background(), "tools/call", req)
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != CodeBusy {
		t.Fatalf("third request: %v, want -32005", err)
	}
	if _, err := h(context.Background(), "notifications/cancelled", req); err != nil {
		t.Fatalf("a notification was held back: %v", err)
	}
	close(release)
	ran.Wait()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
