package hostcheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func post(t *testing.T, h http.Handler, path string, body any) *httptest.ResponseRecorder {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, bytes.NewReader(b)))
	return rec
}

func TestOpenAIModelCallsOnceThenAnswers(t *testing.T) {
	t.Parallel()
	c := newToolCaller("^windows-dev-agent-env_inspect$", map[string]any{"force_refresh": true})
	h := openAIModel(c)
	tools := []any{map[string]any{"type": "function", "function": map[string]any{"name": "bash"}},
		map[string]any{"type": "function", "function": map[string]any{"name": "windows-dev-agent-env_inspect"}}}
	rec := post(t, h, "/v1/chat/completions", map[string]any{"model": "m", "tools": tools,
		"messages": []any{map[string]any{"role": "user", "content": "go"}}})
	var first struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &first); err != nil {
		t.Fatal(err)
	}
	call := first.Choices[0].Message.ToolCalls[0].Function
	if call.Name != "windows-dev-agent-env_inspect" || call.Arguments != `{"force_refresh":true}` || first.Choices[0].FinishReason != "tool_calls" {
		t.Fatalf("first turn %+v", first)
	}
	if !c.Offered("bash") || c.Offered("nope") || c.Called() != "windows-dev-agent-env_inspect" {
		t.Fatal("offered tools not recorded")
	}
	// Streamed second turn with the tool's result: a text answer carrying it.
	rec = post(t, h, "/v1/chat/completions", map[string]any{"model": "m", "stream": true, "tools": tools,
		"messages": []any{map[string]any{"role": "user", "content": "go"},
			map[string]any{"role": "tool", "content": []any{map[string]any{"type": "text", "text": `{"status":"ok"}`}}}}})
	if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/event-stream") {
		t.Fatalf("content type %q", rec.Header().Get("Content-Type"))
	}
	var text string
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || line == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Delta struct{ Content string }
			}
		}
		if err := json.Unmarshal([]byte(line), &chunk); err != nil {
			t.Fatalf("chunk %q: %v", line, err)
		}
		text += chunk.Choices[0].Delta.Content
	}
	if text != `FAKE-DONE result={"status":"ok"}` || c.Result() != `{"status":"ok"}` {
		t.Fatalf("answer %q, result %q", text, c.Result())
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/models", nil))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "gpt-4.1") {
		t.Fatalf("models: %d %s", rec.Code, rec.Body)
	}
}

func TestGeminiModel(t *testing.T) {
	t.Parallel()
	c := newToolCaller("^mcp_windows-dev-agent_env_inspect$", map[string]any{})
	h := geminiModel(c)
	decls := []any{map[string]any{"functionDeclarations": []any{map[string]any{"name": "read_file"}, map[string]any{"name": "mcp_windows-dev-agent_env_inspect"}}}}
	type resp struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					Text         string
					FunctionCall *struct{ Name string } `json:"functionCall"`
				}
			}
		}
	}
	decodeResp := func(t *testing.T, rec *httptest.ResponseRecorder, stream bool) resp {
		t.Helper()
		body := rec.Body.String()
		if stream {
			body = strings.TrimSpace(strings.TrimPrefix(body, "data: "))
		}
		var r resp
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		return r
	}
	r := decodeResp(t, post(t, h, "/v1beta/models/m:streamGenerateContent", map[string]any{"tools": decls,
		"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "go"}}}}}), true)
	if fc := r.Candidates[0].Content.Parts[0].FunctionCall; fc == nil || fc.Name != "mcp_windows-dev-agent_env_inspect" {
		t.Fatalf("first turn %+v", r)
	}
	r = decodeResp(t, post(t, h, "/v1beta/models/m:generateContent", map[string]any{"tools": decls,
		"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{
			"name": "x", "response": map[string]any{"output": "done"}}}}}}}), false)
	if got := r.Candidates[0].Content.Parts[0].Text; got != `FAKE-DONE result={"output":"done"}` {
		t.Fatalf("second turn %q", got)
	}
	// The client's own JSON questions get JSON, not a tool call.
	r = decodeResp(t, post(t, h, "/v1beta/models/m:generateContent", map[string]any{"tools": decls,
		"generationConfig": map[string]any{"responseMimeType": "application/json"}}), false)
	if !json.Valid([]byte(r.Candidates[0].Content.Parts[0].Text)) {
		t.Fatalf("JSON answer %+v", r)
	}
	if rec := post(t, h, "/v1beta/models/m:countTokens", map[string]any{}); !strings.Contains(rec.Body.String(), "totalTokens") {
		t.Fatalf("countTokens %s", rec.Body)
	}
	if rec := post(t, h, "/v1beta/models/m:embed", map[string]any{}); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown method answered %d", rec.Code)
	}
}

func TestStructuredFindsTheStatusObject(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		want     map[string]any
	}{
		{"plain", `{"status":"ok","x":1}`, map[string]any{"status": "ok", "x": float64(1)}},
		{"gemini output wrapper", `{"output":"<untrusted_context source=\"mcp\">\n{\"status\":\"planned\"}\n</untrusted_context>"}`, map[string]any{"status": "planned"}},
		{"text before", `result: {"status":"invalid_input","error":"e"}`, map[string]any{"status": "invalid_input", "error": "e"}},
		{"nested content list", `{"content":[{"type":"text","text":"{\"status\":\"ok\"}"}]}`, map[string]any{"status": "ok"}},
		{"a hook denial", `Denied by preToolUse hook: Windows Dev Agent blocked {x}`, nil},
		{"an object without status", `{"output":"no"}`, nil},
		{"empty", ``, nil},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, structured(c.in)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestRunGroupsStopsAGroupAfterAFailure(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	e := &Env{cfg: Config{Out: &out}}
	var ran []string
	ok := func(name string) func(context.Context) error {
		return func(context.Context) error { ran = append(ran, name); return nil }
	}
	fail := func(name string) func(context.Context) error {
		return func(context.Context) error { ran = append(ran, name); return errors.New("boom") }
	}
	res := e.RunGroups(context.Background(), []Group{
		{Name: "a", Checks: []Check{{Name: "one", Run: ok("a1")}, {Name: "two", Independent: true, Run: fail("a2")},
			{Name: "three", Run: fail("a3")}, {Name: "four", Run: ok("a4")}}},
		{Name: "b", Checks: []Check{{Name: "one", Run: ok("b1")}}},
	})
	if diff := cmp.Diff([]string{"a1", "a2", "a3", "b1"}, ran); diff != "" {
		t.Errorf("ran (-want +got):\n%s", diff)
	}
	want := "PASS a: one\nFAIL a: two: boom\nFAIL a: three: boom\nFAIL a: four: not run: \"three\" failed\nPASS b: one\nhostcheck: 2 passed, 3 failed\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	if len(res) != 5 || res[3].Err == nil || res[4].Err != nil {
		t.Errorf("results %v", res)
	}
}

func TestBinScript(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	write := func(pkg, manifest string) {
		dir := filepath.Join(cache, "node_modules", filepath.FromSlash(pkg))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("@s/one", `{"version":"1.0.0","bin":"dist/cli.js"}`)
	write("@s/many", `{"version":"2.0.0","bin":{"x":"a.js","y":"./b/y.js"}}`)
	e := &Env{cfg: Config{Cache: cache}}
	cases := []struct {
		c    Client
		want string // "" for an error
	}{
		{Client{"@s/one", "1.0.0", "one"}, filepath.Join(cache, "node_modules", "@s", "one", "dist", "cli.js")},
		{Client{"@s/many", "2.0.0", "y"}, filepath.Join(cache, "node_modules", "@s", "many", "b", "y.js")},
		{Client{"@s/many", "2.0.1", "y"}, ""},
		{Client{"@s/many", "2.0.0", "z"}, ""},
		{Client{"@s/none", "1.0.0", "none"}, ""},
	}
	for _, c := range cases {
		got, err := e.binScript(c.c)
		if c.want == "" {
			if err == nil {
				t.Errorf("%+v: want an error, got %s", c.c, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%+v: %q %v, want %q", c.c, got, err, c.want)
		}
	}
}

func TestSharedAuditLog(t *testing.T) {
	t.Parallel()
	write := func(lines ...string) string {
		root := t.TempDir()
		dir := filepath.Join(root, "_direct", "abc")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "agent.log"), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return root
	}
	server := `{"event":"tools/call","host":"copilot"}`
	hooked := `{"event":"PreToolUse","host":"copilot","permission_decision":"ask"}`
	if err := sharedAuditLog(write(server, hooked)); err != nil {
		t.Errorf("both present: %v", err)
	}
	for name, root := range map[string]string{"server only": write(server), "hook only": write(hooked),
		"other host": write(`{"event":"tools/call","host":"claude"}`, hooked), "no log": t.TempDir()} {
		if sharedAuditLog(root) == nil {
			t.Errorf("%s: passed", name)
		}
	}
}

func TestDefaultCache(t *testing.T) {
	t.Parallel()
	got, err := DefaultCache(func(k string) string {
		if k == "WDA_HOST_CHECK_CACHE" {
			return "rel/cache"
		}
		return ""
	})
	if err != nil || !filepath.IsAbs(got) || !strings.HasSuffix(got, filepath.Join("rel", "cache")) {
		t.Fatalf("%q %v", got, err)
	}
	got, err = DefaultCache(func(string) string { return "" })
	if err != nil || filepath.Base(got) != "wda-host-check" {
		t.Fatalf("%q %v", got, err)
	}
}

// payload copies a dist root without its bin/ and puts this machine's binaries there;
// the source is never written.
func TestPayloadCopy(t *testing.T) {
	t.Parallel()
	dist, work, bin := t.TempDir(), t.TempDir(), t.TempDir()
	for name, body := range map[string]string{"p/manifest.json": "{}", "p/skills/a/SKILL.md": "s", "p/bin/stale": "old",
		"p/sub/bin/kept": "k"} {
		if err := writeFile(filepath.Join(dist, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := &Env{cfg: Config{Dist: dist}, work: work, wda: filepath.Join(bin, "wda"), hook: filepath.Join(bin, "wda-hook")}
	for _, b := range []string{e.wda, e.hook} {
		if err := writeFile(b, []byte("binary"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := e.payload("p", "x", "windows-dev-agent")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	want := []string{"bin/wda", "bin/wda-hook", "manifest.json", "skills/a/SKILL.md", "sub/bin/kept"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("copied files (-want +got):\n%s", diff)
	}
	if fi, err := os.Stat(filepath.Join(dir, "bin", "wda")); err != nil || (goruntime.GOOS != "windows" && fi.Mode().Perm()&0o100 == 0) {
		t.Errorf("bin/wda not executable: %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(dist, "p", "bin", "wda")); err == nil {
		t.Error("the source payload was written")
	}
}
