package hostcheck

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func post(t *testing.T, url string, body any) string {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestAnthropicModelPlaysTheScriptToTheMainAgentOnly(t *testing.T) {
	t.Parallel()
	sc := newScript(step{Tool: "mcp__x__env_inspect", Input: map[string]any{}}, step{Tool: "Bash", Input: map[string]any{"command": "format C:"}})
	m, err := serve(anthropicModel(sc))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	main := map[string]any{"model": "m", "stream": true, "tools": []any{map[string]any{"name": "Bash"}, map[string]any{"name": "mcp__x__env_inspect"}}}
	side := map[string]any{"model": "m", "stream": false, "tools": []any{}}
	if got := post(t, m.URL+"/v1/messages?beta=true", side); !strings.Contains(got, `"text":"ok"`) {
		t.Errorf("a side request got %s", got)
	}
	first := post(t, m.URL+"/v1/messages?beta=true", main)
	if !strings.Contains(first, "event: content_block_start") || !strings.Contains(first, `"name":"mcp__x__env_inspect"`) {
		t.Errorf("first turn: %s", first)
	}
	second := post(t, m.URL+"/v1/messages", main)
	if !strings.Contains(second, `"name":"Bash"`) || !strings.Contains(second, `format C:`) || !strings.Contains(second, `"stop_reason":"tool_use"`) {
		t.Errorf("second turn: %s", second)
	}
	if done := post(t, m.URL+"/v1/messages", main); !strings.Contains(done, "SCRIPT DONE") || !strings.Contains(done, `"stop_reason":"end_turn"`) {
		t.Errorf("after the script: %s", done)
	}
	if got := post(t, m.URL+"/v1/messages/count_tokens", main); !strings.Contains(got, "input_tokens") {
		t.Errorf("count_tokens: %s", got)
	}
	if sc.Played() != 2 || !sc.Offered("Bash") {
		t.Errorf("played %d, offered Bash %v", sc.Played(), sc.Offered("Bash"))
	}
}

func TestResponsesModelCallsNamespacedTools(t *testing.T) {
	t.Parallel()
	sc := newScript(step{Tool: "env_inspect", Namespace: codexNamespace, Input: map[string]any{"a": 1}})
	m, err := serve(responsesModel(sc))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	req := map[string]any{"tools": []any{map[string]any{"type": "function", "name": "exec_command"},
		map[string]any{"type": "namespace", "name": codexNamespace, "tools": []any{map[string]any{"name": "env_inspect"}}}}}
	got := post(t, m.URL+"/v1/responses", req)
	for _, want := range []string{"event: response.output_item.done", `"type":"function_call"`, `"namespace":"mcp__windows_dev_agent"`, `"arguments":"{\"a\":1}"`, "response.completed"} {
		if !strings.Contains(got, want) {
			t.Errorf("first turn lacks %s: %s", want, got)
		}
	}
	if !sc.Offered(codexNamespace+"__env_inspect") || !sc.Offered("exec_command") {
		t.Error("offered tools not recorded")
	}
	if done := post(t, m.URL+"/v1/responses", req); !strings.Contains(done, "SCRIPT DONE") {
		t.Errorf("after the script: %s", done)
	}
}

const claudeStream = `{"type":"system","subtype":"init","mcp_servers":[{"name":"plugin:windows-dev-agent:windows-dev-agent","status":"connected"}]}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"format C:"}}]}}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"PreToolUse:Bash hook error: Windows Dev Agent blocked a forbidden action (safety_class=forbidden).","is_error":true}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"mcp__x__env_inspect","input":{}}]}}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"{\"status\":\"degraded\",\"snapshot\":{\"system\":{\"os_name\":\"Microsoft Windows 10\"}}}"}]}]}}
{"type":"system","subtype":"informational","content":"Stop says: Windows Dev Agent Session Audit"}
not json
{"type":"result","permission_denials":[{"tool_name":"Bash"}]}
`

func TestParseClaude(t *testing.T) {
	t.Parallel()
	tr, err := parseClaude(claudeStream)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.deniedWith("Bash", forbiddenText); err != nil {
		t.Error(err)
	}
	if err := tr.deniedWith("mcp__x__env_inspect", forbiddenText); err == nil {
		t.Error("a successful call counted as denied")
	}
	if err := envInspectAnswered(tr.result("mcp__x__env_inspect"), "Windows"); err != nil {
		t.Error(err)
	}
	if err := envInspectAnswered(tr.result("mcp__x__env_inspect"), "Linux"); err == nil {
		t.Error("the OS name was not compared")
	}
	if err := tr.noticed(stopText); err != nil {
		t.Error(err)
	}
	if d := cmp.Diff(map[string]string{"plugin:windows-dev-agent:windows-dev-agent": "connected"}, tr.servers); d != "" {
		t.Error(d)
	}
	if _, err := parseClaude(strings.Split(claudeStream, "not json")[0]); err == nil {
		t.Error("a stream without its result line was accepted")
	}
}

func TestParseCodex(t *testing.T) {
	t.Parallel()
	stdout := `{"type":"item.completed","item":{"type":"mcp_tool_call","tool":"env_inspect","result":{"content":[{"type":"text","text":"{\"status\":\"ok\",\"snapshot\":{}}"}]}}}
{"type":"item.completed","item":{"type":"mcp_tool_call","tool":"capability_run","result":null,"error":{"message":"MCP tool call requires approval, but approval policy is never"}}}
{"type":"item.started","item":{"type":"command_execution","command":"/bin/bash -lc 'format C:'"}}
`
	tr := parseCodex(stdout, "ERROR codex_core::tools::router: error=Command blocked by PreToolUse hook: "+forbiddenText+" (safety_class=forbidden)")
	if err := envInspectAnswered(tr.envInspectResult(), ""); err != nil {
		t.Error(err)
	}
	if !strings.Contains(tr.failure("capability_run"), "requires approval") {
		t.Error("the approval failure was not found")
	}
	if err := tr.blocked(); err != nil {
		t.Error(err)
	}
	ran := parseCodex(stdout+`{"type":"item.completed","item":{"type":"command_execution","command":"/bin/bash -lc 'format C:'","exit_code":127}}`+"\n", tr.stderr)
	if err := ran.blocked(); err == nil {
		t.Error("a command that ran counted as blocked")
	}
	if err := parseCodex(stdout, "").blocked(); err == nil {
		t.Error("no hook message, yet blocked")
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(name, "bin/") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSameTree(t *testing.T) {
	t.Parallel()
	files := map[string]string{"bin/wda": "#!/bin/sh\n", "hooks/hooks.json": "{}", ".claude-plugin/plugin.json": "{}"}
	src, dst := t.TempDir(), t.TempDir()
	writeFiles(t, src, files)
	writeFiles(t, dst, files)
	if err := sameTree(dst, src, true); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dst, map[string]string{"agent.log": "x", "hooks/hooks.json": "{ }"})
	if err := os.Remove(filepath.Join(dst, ".claude-plugin", "plugin.json")); err != nil {
		t.Fatal(err)
	}
	err := sameTree(dst, src, true)
	for _, want := range []string{"extra agent.log", "differs hooks/hooks.json", "missing .claude-plugin/plugin.json"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want it to say %q", err, want)
		}
	}
	if filepath.Separator == '/' {
		a, b := t.TempDir(), t.TempDir()
		writeFiles(t, a, files)
		writeFiles(t, b, files)
		if err := os.Chmod(filepath.Join(b, "bin", "wda"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := sameTree(b, a, true); err == nil || !strings.Contains(err.Error(), "differs bin/wda") {
			t.Errorf("a lost executable bit: %v", err)
		}
		if err := sameTree(b, a, false); err != nil {
			t.Errorf("executable bits not compared, yet: %v", err)
		}
	}
}

func TestUntgzRefusesEntriesOutsideTheFolder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		entries []string
		ok      bool
	}{
		{"package", []string{"package/package.json", "package/bin/claude.exe"}, true},
		{"parent", []string{"package/../../escape"}, false},
		{"absolute", []string{"/etc/escape"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			tw := tar.NewWriter(zw)
			for _, e := range c.entries {
				if err := tw.WriteHeader(&tar.Header{Name: e, Mode: 0o755, Size: 1, Typeflag: tar.TypeReg}); err != nil {
					t.Fatal(err)
				}
				if _, err := tw.Write([]byte("x")); err != nil {
					t.Fatal(err)
				}
			}
			tw.Close()
			zw.Close()
			dir := t.TempDir()
			tgz := filepath.Join(dir, "p.tgz")
			if err := os.WriteFile(tgz, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			err := untgz(tgz, out)
			if (err == nil) != c.ok {
				t.Fatalf("err = %v, want ok %v", err, c.ok)
			}
			if c.ok {
				if _, err := os.Stat(filepath.Join(out, "package", "bin", "claude.exe")); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestWinePaths(t *testing.T) {
	t.Parallel()
	if got := winPath("/tmp/a b/c"); got != `Z:\tmp\a b\c` {
		t.Errorf("winPath = %q", got)
	}
	got, err := linuxPath(`Z:\tmp\a b\c\.`)
	if err != nil || got != filepath.Clean("/tmp/a b/c") {
		t.Errorf("linuxPath = %q, %v", got, err)
	}
	if _, err := linuxPath(`C:\users\root`); err == nil {
		t.Error("a C: path was mapped to Linux")
	}
}

// record serves one POST in process and returns the recorded answer.
func record(t *testing.T, h http.Handler, path string, body any) *httptest.ResponseRecorder {
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
	rec := record(t, h, "/v1/chat/completions", map[string]any{"model": "m", "tools": tools,
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
	rec = record(t, h, "/v1/chat/completions", map[string]any{"model": "m", "stream": true, "tools": tools,
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
	r := decodeResp(t, record(t, h, "/v1beta/models/m:streamGenerateContent", map[string]any{"tools": decls,
		"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "go"}}}}}), true)
	if fc := r.Candidates[0].Content.Parts[0].FunctionCall; fc == nil || fc.Name != "mcp_windows-dev-agent_env_inspect" {
		t.Fatalf("first turn %+v", r)
	}
	r = decodeResp(t, record(t, h, "/v1beta/models/m:generateContent", map[string]any{"tools": decls,
		"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{
			"name": "x", "response": map[string]any{"output": "done"}}}}}}}), false)
	if got := r.Candidates[0].Content.Parts[0].Text; got != `FAKE-DONE result={"output":"done"}` {
		t.Fatalf("second turn %q", got)
	}
	// The client's own JSON questions get JSON, not a tool call.
	r = decodeResp(t, record(t, h, "/v1beta/models/m:generateContent", map[string]any{"tools": decls,
		"generationConfig": map[string]any{"responseMimeType": "application/json"}}), false)
	if !json.Valid([]byte(r.Candidates[0].Content.Parts[0].Text)) {
		t.Fatalf("JSON answer %+v", r)
	}
	if rec := record(t, h, "/v1beta/models/m:countTokens", map[string]any{}); !strings.Contains(rec.Body.String(), "totalTokens") {
		t.Fatalf("countTokens %s", rec.Body)
	}
	if rec := record(t, h, "/v1beta/models/m:embed", map[string]any{}); rec.Code != http.StatusNotFound {
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
	if err := sharedAuditLog(write(server, hooked), "copilot"); err != nil {
		t.Errorf("both present: %v", err)
	}
	// Claude's hook records carry no host (the folder is the plugin's own).
	if err := sharedAuditLog(write(`{"event":"tools/call","host":"claude"}`, `{"event":"PostToolUse"}`), "claude"); err != nil {
		t.Errorf("claude: %v", err)
	}
	for name, root := range map[string]string{"server only": write(server), "hook only": write(hooked),
		"other host": write(`{"event":"tools/call","host":"claude"}`, hooked), "no log": t.TempDir(),
		"two logs": func() string {
			r := write(server, hooked)
			_ = writeFile(filepath.Join(r, "x", "agent.log"), nil, 0o600)
			return r
		}()} {
		if sharedAuditLog(root, "copilot") == nil {
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

// A failed independent check first stops nothing; a failed dependency stops the rest
// of its group only.
func TestRunGroupsIndependentFirst(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	e := &Env{cfg: Config{Out: &out}}
	ran := 0
	res := e.RunGroups(context.Background(), []Group{{Name: "g", Checks: []Check{
		{Name: "independent", Independent: true, Run: func(context.Context) error { return errors.New("minor") }},
		{Name: "base", Run: func(context.Context) error { return errors.New("broken") }},
		{Name: "dependent", Run: func(context.Context) error { ran++; return nil }},
	}}, {Name: "h", Checks: []Check{{Name: "other", Run: func(context.Context) error { ran++; return nil }}}}})
	want := "FAIL g: independent: minor\nFAIL g: base: broken\nFAIL g: dependent: not run: \"base\" failed\nPASS h: other\nhostcheck: 1 passed, 3 failed\n"
	if d := cmp.Diff(want, out.String()); d != "" {
		t.Errorf("output (-want +got):\n%s", d)
	}
	if ran != 1 || len(res) != 4 {
		t.Errorf("ran %d checks, %d results", ran, len(res))
	}
}

func TestSetEnvReplacesByName(t *testing.T) {
	t.Parallel()
	got := setEnv([]string{"HOME=/a", "PATH=/bin", "CI=0"}, "CI=1", "NEW=x", "HOME=/b", "NEW=y")
	want := []string{"HOME=/b", "PATH=/bin", "CI=1", "NEW=y"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func writeZip(t *testing.T, name string, method uint16, files map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for n, body := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: n, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Bundles compare by entry names and contents, not by how they were zipped.
func TestSameBundle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{"manifest.json": "{}", "bin/wda.exe": "MZ"}
	p := func(n string) string { return filepath.Join(dir, n) }
	writeZip(t, p("stored.mcpb"), zip.Store, files)
	writeZip(t, p("deflated.mcpb"), zip.Deflate, files)
	writeZip(t, p("other.mcpb"), zip.Deflate, map[string]string{"manifest.json": "{ }", "README.md": "r"})
	if err := sameBundle(p("deflated.mcpb"), p("stored.mcpb")); err != nil {
		t.Errorf("the same files: %v", err)
	}
	err := sameBundle(p("other.mcpb"), p("stored.mcpb"))
	for _, want := range []string{"missing bin/wda.exe", "differs manifest.json", "extra README.md"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want it to say %q", err, want)
		}
	}
}

func FuzzParseClaude(f *testing.F) {
	f.Add(claudeStream)
	f.Add(`{"type":"result"}`)
	f.Add(`{"type":"user","message":{"content":[{"type":"tool_result","content":[1,2]}]}}`)
	f.Fuzz(func(t *testing.T, s string) {
		tr, _ := parseClaude(s)
		_ = tr.deniedWith("Bash", forbiddenText)
		_ = tr.noticed(stopText)
	})
}

func FuzzParseCodex(f *testing.F) {
	f.Add(`{"type":"item.completed","item":{"type":"mcp_tool_call","tool":"env_inspect","result":{"content":[{"text":"x"}]}}}`, "")
	f.Add(`{"type":"item.completed","item":{"type":"command_execution","command":"format C:","exit_code":1}}`, "blocked by PreToolUse hook")
	f.Fuzz(func(t *testing.T, stdout, stderr string) {
		tr := parseCodex(stdout, stderr)
		_ = tr.blocked()
		_ = tr.envInspectResult()
		_ = tr.failure("capability_run")
	})
}

func TestResultStatus(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`{"status":"planned","x":1}`, "planned"},
		{"Output too large to read at once (41 KB). Saved to: /tmp/x.txt\n\nPreview (first 500 chars):\n{\n  \"status\": \"planned\",\n  \"execution_started\": false,", "planned"},
		{`{"output":"{\"status\":\"invalid_input\"}"}`, "invalid_input"},
		{`Denied by preToolUse hook: "status": "ok"`, ""},
		{``, ""},
	} {
		if got := resultStatus(c.in); got != c.want {
			t.Errorf("resultStatus(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
