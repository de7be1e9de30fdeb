package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/all"
)

// TestInvalidInputFoundInsideToolsIsAnError: invalid input a tool finds itself (after
// the schema passed) is answered exactly like a pipeline refusal: isError true, the
// message as the first text block, status invalid_input in the structured result
// (docs/architecture.md, "The call pipeline"). One case per shipped tool that has
// validation of its own; no case starts a process.
func TestInvalidInputFoundInsideToolsIsAnError(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	exe := func(name string) string {
		if filepath.Separator == '\\' {
			name += ".exe" // found through the default PATHEXT
		}
		return filepath.Join(bin, name)
	}
	for _, name := range []string{"go", "winget", "npm"} {
		// Resolvable and fingerprintable; never started: every case is refused before.
		if err := os.WriteFile(exe(name), []byte("#!/bin/sh\nexit 99\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string {
		if k == "PATH" {
			return bin
		}
		return ""
	}
	// No DataDir: logs_query has no log to read, which it reports as invalid input.
	project := testkit.TempDir(t)
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"scripts":{"test":"node --test"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := runtime.NewServer(all.New(all.Config{}), runtime.Options{ProjectDir: project, Getenv: getenv})
	cs := mcptest.Connect(t, srv)
	cases := []struct {
		tool string
		args map[string]any
		msg  string
	}{
		{"capability_run", map[string]any{"capability": "test-go", "execute": true},
			"expected_executable is required when execute is true: pass the reviewed plan's execute_arguments"},
		{"capability_run", map[string]any{"capability": "test-go", "extra_args": []any{""}}, "extra_args[0] must be a non-empty string"},
		{"package_install", map[string]any{"package_id": "Git.Git", "execute": true},
			"expected_executable is required when execute is true: pass the reviewed execute:false plan's execute_arguments back unchanged"},
		// Rules the input schema leaves to the tool (docs/architecture.md, "What a host is
		// sent"): still refused before anything runs.
		{"capability_run", map[string]any{"capability": "test-go", "execute": true, "expected_executable": exe("go"),
			"expected_executable_identity_kind": "bogus", "expected_executable_identity_sha256": strings.Repeat("0", 64)},
			"expected_executable_identity_kind and expected_executable_identity_sha256 are required when execute is true: pass the reviewed plan's execute_arguments (kind file, app_execution_alias or powershell_script; sha256 of 64 hexadecimal characters)"},
		{"capability_run", map[string]any{"capability": "npm:test", "execute": true, "expected_definition_sha256": "xyz"},
			"expected_definition_sha256 must be 64 hexadecimal characters: pass the reviewed plan's execute_arguments"},
		{"package_install", map[string]any{"package_id": "Git.Git", "execute": true, "expected_executable": exe("winget"),
			"expected_executable_identity_kind": "file", "expected_executable_identity_sha256": "short"},
			"expected_executable_identity_kind must be file, app_execution_alias or powershell_script and expected_executable_identity_sha256 must be 64 hexadecimal characters, as the reviewed plan's execute_arguments carry them"},
		{"package_install", map[string]any{"package_id": "Git.Git", "version": "1.0;rm"},
			"version must be 1-128 characters: letters, digits, '.', '_', '+', '-', starting with a letter or digit"},
		{"package_search", map[string]any{"query": "-x"}, ""},
		{"sandbox_run", map[string]any{"command": "echo", "isolation_requirement": "untrusted_windows", "environment": "wsl"},
			"environment wsl does not satisfy isolation_requirement untrusted_windows; the required backend is windows_sandbox"},
		{"ecosystem_scan", map[string]any{"include_packages": true}, "include_packages requires include_host=true"},
		{"logs_query", map[string]any{}, "no data directory is configured"},
	}
	for _, c := range cases {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Errorf("%s %v: JSON-RPC error %v", c.tool, c.args, err)
			continue
		}
		var out struct {
			Status           string `json:"status"`
			Error            string `json:"error"`
			ExecutionStarted bool   `json:"execution_started"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		if out.Status != "invalid_input" || out.ExecutionStarted || (c.msg != "" && out.Error != c.msg) || out.Error == "" {
			t.Errorf("%s %v: result %s, want invalid_input with %q", c.tool, c.args, b, c.msg)
			continue
		}
		if !res.IsError {
			t.Errorf("%s %v: isError false for invalid input", c.tool, c.args)
		}
		if len(res.Content) == 0 {
			t.Errorf("%s %v: no content", c.tool, c.args)
			continue
		}
		if text, _ := res.Content[0].(*mcp.TextContent); text == nil || text.Text != out.Error {
			t.Errorf("%s %v: first content %+v, want the message %q", c.tool, c.args, res.Content[0], out.Error)
		}
		// What the result says beyond the message (the plan, the route) follows as JSON,
		// for clients that read only text.
		var members map[string]any
		_ = json.Unmarshal(b, &members)
		wantBlocks := 1
		if len(members) > 3 {
			wantBlocks = 2
		}
		if len(res.Content) != wantBlocks {
			t.Errorf("%s %v: %d content blocks, want %d", c.tool, c.args, len(res.Content), wantBlocks)
			continue
		}
		if wantBlocks == 2 {
			var second map[string]any
			if text, _ := res.Content[1].(*mcp.TextContent); text == nil || json.Unmarshal([]byte(text.Text), &second) != nil {
				t.Errorf("%s %v: second content %+v is not JSON", c.tool, c.args, res.Content[1])
			} else if d := cmp.Diff(members, second); d != "" {
				t.Errorf("%s %v: second content is not the structured result (-structured +text):\n%s", c.tool, c.args, d)
			}
		}
	}
}

// noticeHost is the generic host with a notice for every call, like Codex's one-time
// notice that its hooks are not running.
type noticeHost struct{ host.Host }

func (noticeHost) Notice(tools.Tool, host.Call) string { return "notice" }

// TestNoticeKeepsTheMessageFirst: a host's notice leads a result, except an error's,
// whose first block stays the message the model must read.
func TestNoticeKeepsTheMessageFirst(t *testing.T) {
	t.Parallel()
	project := testkit.TempDir(t)
	for _, c := range []struct {
		status string
		first  string
	}{{"ok", "notice"}, {"invalid_input", "invalid_input"}} {
		rec := &recorder{status: c.status}
		cs := serve(t, rec, runtime.Options{ProjectDir: project, Host: noticeHost{host.NewGeneric(project, nil)}})
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{"name": "n"}})
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, b := range res.Content {
			texts = append(texts, b.(*mcp.TextContent).Text)
		}
		if res.IsError != (c.status == "invalid_input") || len(texts) < 2 || texts[0] != c.first || !slices.Contains(texts, "notice") {
			t.Errorf("%s: isError %v, content %q; want %q first and the notice", c.status, res.IsError, texts, c.first)
		}
	}
}
