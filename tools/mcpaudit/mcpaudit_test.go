package mcpaudit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/mcpconfig"
)

// call runs the tool through the pipeline (testkit.Call), checks the
// result against the advertised output schema and returns it as generic JSON.
func call(t *testing.T, env *tools.Env, args map[string]any) (map[string]any, string) {
	t.Helper()
	m, b := mcptest.Call(t, New(DefaultDeps()), env, args)
	return m, string(b)
}

func envFor(project, host string, vars map[string]string) *tools.Env {
	return &tools.Env{Host: host, ProjectDir: project, Getenv: func(k string) string { return vars[k] }}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args tools.Args
		want tools.Class
	}{
		{tools.Args{}, tools.ReadOnly},
		{tools.Args{"include_host": false, "cwd": "/x"}, tools.ReadOnly},
		{tools.Args{"config_path": "   "}, tools.ReadOnly},
		{tools.Args{"include_host": true}, tools.ApprovalRequired},
		{tools.Args{"include_host": "true"}, tools.ReadOnly},
		{tools.Args{"config_path": "x.json"}, tools.ApprovalRequired},
	}
	for _, tt := range tests {
		if got := New(DefaultDeps()).Classify(tt.args); got != tt.want {
			t.Errorf("Classify(%v) = %s, want %s", tt.args, got, tt.want)
		}
	}
}

func TestProjectScopeDefault(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	home := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(root, ".mcp.json"), `{"mcpServers":{"a":{"command":"x"},"b":{"url":"u"}}}`)
	testkit.WriteFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"host":{"command":"x"}}}`)
	got, _ := call(t, envFor(root, "claude", map[string]string{"HOME": home}), map[string]any{})
	want := map[string]any{
		"status": "ok", "execution_started": false, "project_dir": root, "server_count": 2.0,
		"configs": []any{map[string]any{"file": filepath.Join(root, ".mcp.json"), "servers": []any{
			map[string]any{"name": "a", "valid": true, "transport": "command", "has_command": true, "has_url": false, "arg_count": 0.0, "has_env": false},
			map[string]any{"name": "b", "valid": true, "transport": "url", "has_command": false, "has_url": true, "arg_count": 0.0, "has_env": false},
		}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestHostAndDuplicates(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	home := testkit.TempDir(t)
	appdata := filepath.Join(home, "AppData", "Roaming")
	codex := filepath.Join(home, "codexhome")
	testkit.WriteFile(t, filepath.Join(root, ".mcp.json"), `{"mcpServers":{"shared":{"command":"x"}}}`)
	testkit.WriteFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"shared":{"command":"y"},"solo":{"url":"u"}}}`)
	testkit.WriteFile(t, filepath.Join(appdata, "Claude", "claude_desktop_config.json"), `{"mcpServers":{"desk":{"command":"z"}}}`)
	testkit.WriteFile(t, filepath.Join(codex, "config.toml"), "[mcp_servers.shared]\ncommand = 'c'\n[mcp_servers.cx]\nurl = 'u'\n")
	vars := map[string]string{"HOME": home, "APPDATA": appdata, "CODEX_HOME": codex}

	files := func(m map[string]any) []string {
		var out []string
		for _, c := range list(m["configs"]) {
			out = append(out, c.(map[string]any)["file"].(string))
		}
		return out
	}
	claude, _ := call(t, envFor(root, "claude", vars), map[string]any{"include_host": true})
	if diff := cmp.Diff([]string{filepath.Join(root, ".mcp.json"), filepath.Join(home, ".claude.json"),
		filepath.Join(appdata, "Claude", "claude_desktop_config.json")}, files(claude)); diff != "" {
		t.Errorf("claude host files (-want +got)\n%s", diff)
	}
	if claude["status"] != "issues_found" || !cmp.Equal(claude["duplicate_names"], []any{"shared"}) ||
		claude["server_count"] != 4.0 || claude["host_inventory_included"] != true {
		t.Errorf("claude host result: %v", claude)
	}
	codexOut, _ := call(t, envFor(root, "codex", vars), map[string]any{"include_host": true, "cwd": root})
	if n := len(files(codexOut)); n != 4 || files(codexOut)[3] != filepath.Join(codex, "config.toml") {
		t.Errorf("codex host files: %v", files(codexOut))
	}
	if codexOut["server_count"] != 6.0 {
		t.Errorf("codex server_count = %v", codexOut["server_count"])
	}
}

func TestReparseProjectConfig(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	outside := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(outside, "cfg.json"), `{"mcpServers":{"evil":{"command":"x"}}}`)
	if !testkit.Symlink(filepath.Join(outside, "cfg.json"), filepath.Join(root, ".mcp.json")) {
		t.Skip("symbolic links cannot be created here")
	}
	got, _ := call(t, envFor(root, "claude", nil), map[string]any{})
	if got["status"] != "issues_found" || got["server_count"] != 0.0 {
		t.Fatalf("got %v", got)
	}
	mal := list(got["malformed"])
	if len(mal) != 1 || !strings.Contains(mal[0].(map[string]any)["error"].(string), "reparse point") {
		t.Fatalf("malformed = %v", mal)
	}
	// The same file named through config_path is still a project file: guarded.
	got, _ = call(t, envFor(root, "claude", nil), map[string]any{"config_path": ".mcp.json"})
	if len(list(got["configs"])) != 1 {
		t.Errorf("config_path equal to .mcp.json must be deduplicated: %v", got["configs"])
	}
	got, _ = call(t, envFor(root, "claude", nil), map[string]any{"config_path": filepath.Join(root, "sub", "..", ".mcp.json")})
	if len(list(got["configs"])) != 1 || got["server_count"] != 0.0 {
		t.Errorf("a project path via config_path must be guarded and deduplicated: %v", got)
	}
}

func TestConfigPathOutsideProject(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	other := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(other, "real.json"), `{"mcpServers":{"x":{"command":"c"}}}`)
	if !testkit.Symlink(filepath.Join(other, "real.json"), filepath.Join(other, "link.json")) {
		t.Skip("symbolic links cannot be created here")
	}
	// An explicit host path is a plain read: links outside the project are followed.
	got, _ := call(t, envFor(root, "claude", nil), map[string]any{"config_path": filepath.Join(other, "link.json")})
	if got["status"] != "ok" || got["server_count"] != 1.0 {
		t.Fatalf("got %v", got)
	}
	got, _ = call(t, envFor(root, "claude", nil), map[string]any{"config_path": filepath.Join(other, "missing.json")})
	if got["status"] != "ok" || len(list(got["configs"])) != 0 {
		t.Fatalf("a missing config_path is omitted: %v", got)
	}
}

func TestInvalidCwd(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(root, "file"), "x")
	got, raw := call(t, envFor(root, "claude", nil), map[string]any{"cwd": filepath.Join(root, "file")})
	want := map[string]any{"status": "invalid_input", "error": "Not a directory: " + filepath.Join(root, "file"), "execution_started": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s\n%s", diff, raw)
	}
}

// TestNoSecretsInResult plants distinctive secrets in every command, URL, argument and
// env value of project, host, Codex and explicit configs, and greps the whole result.
func TestNoSecretsInResult(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	home := testkit.TempDir(t)
	codex := filepath.Join(home, ".codex")
	secrets := []string{"S3CR3T-CMD", "S3CR3T-URL", "S3CR3T-ARG", "S3CR3T-ENV", "S3CR3T-TOML-CMD", "S3CR3T-TOML-ENV", "S3CR3T-EXPLICIT"}
	testkit.WriteFile(t, filepath.Join(root, ".mcp.json"), `{"mcpServers":{
		"p1": {"command": "S3CR3T-CMD", "args": ["--key", "S3CR3T-ARG"], "env": {"TOKEN": "S3CR3T-ENV"}},
		"p2": {"url": "https://S3CR3T-URL.example/mcp", "args": "S3CR3T-ARG"},
		"p3": {"env": {"A": "S3CR3T-ENV"}, "args": ["S3CR3T-ARG"]}}}`)
	testkit.WriteFile(t, filepath.Join(root, ".continue", "config.json"), `{"mcpServers":{"c":{"command":"S3CR3T-CMD S3CR3T-ARG"}}}`)
	testkit.WriteFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"h":{"url":"S3CR3T-URL","env":{"K":"S3CR3T-ENV"}}},"oauthAccount":{"token":"S3CR3T-ENV"}}`)
	testkit.WriteFile(t, filepath.Join(codex, "config.toml"), "[mcp_servers.t]\ncommand = \"S3CR3T-TOML-CMD\"\nargs = [\"S3CR3T-ARG\"]\n[mcp_servers.t.env]\nKEY = \"S3CR3T-TOML-ENV\"\n")
	testkit.WriteFile(t, filepath.Join(home, "extra.json"), `{"mcpServers":{"e":{"command":"S3CR3T-EXPLICIT","args":[1,"S3CR3T-EXPLICIT"]}}}`)
	_, raw := call(t, envFor(root, "codex", map[string]string{"HOME": home}),
		map[string]any{"include_host": true, "config_path": filepath.Join(home, "extra.json"), "cwd": root})
	for _, s := range secrets {
		if strings.Contains(raw, s) {
			t.Errorf("secret %s leaked in %s", s, raw)
		}
	}
	for _, field := range []string{`"command":`, `"url":`, `"args":`, `"env":`} {
		if strings.Contains(raw, field) {
			t.Errorf("raw field %s in %s", field, raw)
		}
	}
	if !strings.Contains(raw, `"name":"t"`) || !strings.Contains(raw, `"name":"e"`) || !strings.Contains(raw, `"name":"p3"`) {
		t.Errorf("expected every config to be summarised: %s", raw)
	}
}

// TestSwapRaceNeverReadsOutside: the project argument names a subdirectory that
// another goroutine swaps for a link to an outside directory holding a planted config
// while each call runs, after the call was bound as the pipeline binds it. The call
// reads the directory it bound, whatever the timing: the planted server never appears
// (issue 15, item 1; before the reads went through the held directory, 49 of 200
// calls read outside).
func TestSwapRaceNeverReadsOutside(t *testing.T) {
	t.Parallel()
	base := testkit.TempDir(t)
	root, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
	sub := filepath.Join(root, "sub")
	testkit.WriteFile(t, filepath.Join(sub, ".mcp.json"), `{"mcpServers":{"inside":{"command":"x"}}}`)
	testkit.WriteFile(t, filepath.Join(sub, ".continue", "config.json"), `{"mcpServers":{"inside2":{"command":"x"}}}`)
	testkit.WriteFile(t, filepath.Join(outside, ".mcp.json"), `{"mcpServers":{"OUTSIDE-MARKER":{"command":"x"}}}`)
	testkit.WriteFile(t, filepath.Join(outside, ".continue", "config.json"), `{"mcpServers":{"OUTSIDE-MARKER":{"command":"x"}}}`)
	testkit.NeedSwaps(t, base)
	leaks := 0
	const runs = 200
	for range runs {
		// The binding of the pipeline (host.Contained.Bind), then the handler while
		// the bound directory is swapped for a link.
		p, err := testkit.Bind(root, "sub")
		if err != nil {
			t.Fatal(err)
		}
		env := envFor(root, "claude", nil)
		env.Project = p
		var b []byte
		testkit.SwapDuring(t, sub, outside, func() {
			out, _ := handle(context.Background(), env, In{Cwd: p.Path})
			b, _ = json.Marshal(out)
		})
		p.Close()
		if strings.Contains(string(b), "OUTSIDE-MARKER") {
			leaks++
		}
	}
	if leaks > 0 {
		t.Errorf("%d of %d calls read the outside directory", leaks, runs)
	}
}

// list is the JSON array v, or nothing when the result left an empty list out.
func list(v any) []any { l, _ := v.([]any); return l }

// TestReportSaysNothingEmpty: an empty list and host_inventory_included false are left
// out of the result (issue 24), and decoding the result gives them back.
func TestReportSaysNothingEmpty(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	_, b := call(t, envFor(root, "claude", nil), map[string]any{})
	want := `{"status":"ok","execution_started":false,"project_dir":` + string(must(json.Marshal(root))) + `,"server_count":0}`
	if b != want {
		t.Errorf("empty project:\n got %s\nwant %s", b, want)
	}
	var out Out
	if err := json.Unmarshal([]byte(b), &out); err != nil || out.Report == nil || out.Configs == nil || out.DuplicateNames == nil || out.Malformed == nil {
		t.Errorf("decoded %+v (%v)", out.Report, err)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestFindingsNewUser is the new user (issue 26 §3): a .mcp.json with a
// plaintext GITHUB_TOKEN, an unpinned npx -y and a filesystem server rooted at C:\ was
// "ok" with no findings. It is now issues_found with one finding per risk, each naming
// rule, severity, server, file and line, and the planted token appears nowhere in the
// tool's answer.
func TestFindingsNewUser(t *testing.T) {
	t.Parallel()
	const planted = "SECRET-7f3a9c-planted"
	root := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(root, ".mcp.json"), `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": {"GITHUB_TOKEN": "ghp_`+planted+`"}
    },
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem@2025.8.21", "C:\\"]
    }
  }
}`)
	got, raw := call(t, envFor(root, "claude", nil), map[string]any{})
	if strings.Contains(raw, planted) || strings.Contains(raw, "ghp_") {
		t.Fatalf("the planted token appears in the answer: %s", raw)
	}
	file := filepath.Join(root, ".mcp.json")
	want := []any{
		map[string]any{"rule": "broad_filesystem_root", "severity": "high", "server": "filesystem", "file": file, "line": 10.0,
			"detail": "args[2] gives the filesystem server a drive root"},
		map[string]any{"rule": "secret_literal", "severity": "high", "server": "github", "file": file, "line": 6.0,
			"detail": "env GITHUB_TOKEN holds a literal that looks like a secret"},
		map[string]any{"rule": "unpinned_launcher", "severity": "medium", "server": "github", "file": file, "line": 5.0,
			"detail": "npx runs a package without a pinned version (no version, or latest or a range)"},
	}
	if diff := cmp.Diff(want, got["findings"]); diff != "" {
		t.Errorf("findings (-want +got)\n%s", diff)
	}
	if got["status"] != "issues_found" {
		t.Errorf("status = %v, want issues_found", got["status"])
	}
	var out Out
	if err := json.Unmarshal([]byte(raw), &out); err != nil || len(out.Findings) != 3 {
		t.Errorf("decoded %d findings (%v)", len(out.Findings), err)
	}
}

// TestFindingsWritableProjectConfig: a project .mcp.json other users may write is a
// finding of the file (no server, no line). It sets Unix mode bits; the Windows ACL
// check is tools/internal/mcpconfig's TestPlatformPermsWindows.
func TestFindingsWritableProjectConfig(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("this test sets Unix mode bits, which say nothing on Windows")
	}
	root := testkit.TempDir(t)
	file := filepath.Join(root, ".mcp.json")
	testkit.WriteFile(t, file, `{"mcpServers":{"a":{"command":"srv@1.0.0"}}}`)
	if err := os.Chmod(file, 0o664); err != nil {
		t.Fatal(err)
	}
	got, raw := call(t, envFor(root, "claude", nil), map[string]any{})
	want := []any{map[string]any{"rule": "writable_by_others", "severity": "high", "file": file,
		"detail": "config file can be changed by users other than its owner (group or others may write it)"}}
	if diff := cmp.Diff(want, got["findings"]); diff != "" || got["status"] != "issues_found" {
		t.Errorf("findings (-want +got)\n%s\n%s", diff, raw)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, raw := call(t, envFor(root, "claude", nil), map[string]any{}); got["findings"] != nil || got["status"] != "ok" {
		t.Errorf("a file only its owner writes: %s", raw)
	}
}

// TestFindingsCap: a config with more findings than mcpconfig.MaxFindings gives the
// most severe ones, in report order, and findings_omitted for the rest.
func TestFindingsCap(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	var servers []string
	for i := range 30 { // two findings each: a secret (high) and an unpinned npx (medium)
		servers = append(servers, fmt.Sprintf(`"s%02d":{"command":"npx","args":["-y","pkg"],"env":{"API_TOKEN":"literal-%d"}}`, i, i))
	}
	testkit.WriteFile(t, filepath.Join(root, ".mcp.json"), `{"mcpServers":{`+strings.Join(servers, ",")+`}}`)
	got, raw := call(t, envFor(root, "claude", nil), map[string]any{})
	findings, _ := got["findings"].([]any)
	if len(findings) != mcpconfig.MaxFindings || got["findings_omitted"] != float64(60-mcpconfig.MaxFindings) {
		t.Fatalf("%d findings, findings_omitted %v; want %d and %d", len(findings), got["findings_omitted"], mcpconfig.MaxFindings, 60-mcpconfig.MaxFindings)
	}
	// All 30 secrets are kept, then the first 20 unpinned launchers, in report order.
	first := findings[0].(map[string]any)
	if first["server"] != "s00" || first["rule"] != "secret_literal" || strings.Count(raw, `"secret_literal"`) != 30 {
		t.Errorf("not the most severe in report order: first %v", first)
	}
	var out Out
	if err := json.Unmarshal([]byte(raw), &out); err != nil || out.FindingsOmitted != 60-mcpconfig.MaxFindings {
		t.Errorf("decoded findings_omitted %d (%v)", out.FindingsOmitted, err)
	}
}
