package hostcheck

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
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
	if err := envInspectAnswered(tr.result("env_inspect"), ""); err != nil {
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

func TestRunGroupsStopsAfterAFailedDependency(t *testing.T) {
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
		_ = tr.result("env_inspect")
		_ = tr.failure("capability_run")
	})
}
