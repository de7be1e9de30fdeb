package ecosystemscan

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/tools"
)

// recorder is a fake resolver and runner that records every consultation.
type recorder struct {
	mu       sync.Mutex
	resolved []string
	runs     []proc.Request
	paths    map[string]string       // name → absolute path; absent = not installed
	receipts map[string]proc.Receipt // name → receipt
}

func (r *recorder) deps() Deps {
	return Deps{
		Resolve: func(_ *tools.Env, name string) (string, bool) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.resolved = append(r.resolved, name)
			p, ok := r.paths[name]
			return p, ok
		},
		Run: func(_ context.Context, req proc.Request) proc.Receipt {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.runs = append(r.runs, req)
			for name, p := range r.paths {
				if req.Argv[0] == p {
					rc := r.receipts[name]
					rc.Argv = req.Argv
					return rc
				}
			}
			return proc.Receipt{Error: "unexpected argv"}
		},
	}
}

// forbidden fails the test on any executable lookup or process start.
func forbidden(t *testing.T) Deps {
	return Deps{
		Resolve: func(_ *tools.Env, name string) (string, bool) {
			t.Errorf("resolver consulted for %q in a project-only scan", name)
			return "", false
		},
		Run: func(_ context.Context, req proc.Request) proc.Receipt {
			t.Errorf("process started in a project-only scan: %v", req.Argv)
			return proc.Receipt{}
		},
	}
}

func ok(stdout string) proc.Receipt {
	rc := 0
	return proc.Receipt{Succeeded: true, ReturnCode: &rc, Stdout: stdout, ExecutionStarted: true,
		OutputCaptureComplete: true, OutputCaptureSettled: true}
}

func run(t *testing.T, env *tools.Env, in In, d Deps) (Out, map[string]any) {
	t.Helper()
	if env.Project == nil {
		env.Project = testkit.Project(t, env.ProjectDir) // as the pipeline binds it
	}
	out, err := scan(context.Background(), env, in, d)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := testkit.Decode(t, New(DefaultDeps()), out)
	return out, m
}

func envFor(project, host string, vars map[string]string) *tools.Env {
	return &tools.Env{Host: host, ProjectDir: project, Getenv: func(k string) string { return vars[k] }}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	for args, want := range map[string]tools.Class{
		`{}`: tools.ReadOnly, `{"include_host":false}`: tools.ReadOnly, `{"include_host":true}`: tools.ApprovalRequired,
		`{"include_packages":true}`: tools.ReadOnly, `{"include_host":"true"}`: tools.ReadOnly,
	} {
		var a tools.Args
		json.Unmarshal([]byte(args), &a)
		if got := New(DefaultDeps()).Classify(a); got != want {
			t.Errorf("Classify(%s) = %s, want %s", args, got, want)
		}
	}
}

func TestProjectOnlyScan(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	home := testkit.TempDir(t)
	outside := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(root, ".vscode", "extensions.json"), `{"recommendations":["golang.go", 7, "saoudrizwan.claude-dev"]}`)
	testkit.WriteFile(t, filepath.Join(root, ".mcp.json"), `{"mcpServers":{"docs":{"command":"npx","args":["x"]}}}`)
	testkit.WriteFile(t, filepath.Join(root, "CLAUDE.md"), "# notes")
	testkit.WriteFile(t, filepath.Join(root, ".github", "copilot-instructions.md"), "x")
	testkit.WriteFile(t, filepath.Join(root, ".roo", "rules.md"), "x")
	testkit.WriteFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"host":{"command":"x"}}}`)
	testkit.WriteFile(t, filepath.Join(home, ".claude", "plugins", "p1", "x"), "")
	os.MkdirAll(filepath.Join(outside, "agents"), 0o755)
	linked := testkit.Symlink(filepath.Join(outside, "agents"), filepath.Join(root, ".agents"))

	out, m := run(t, envFor(root, "codex", map[string]string{"HOME": home}), In{}, forbidden(t))
	inv := out.Inventory
	if out.Status.Status != "ok" || out.ExecutionStarted || m["execution_started"] != false {
		t.Fatalf("status %+v", out.Status)
	}
	if diff := cmp.Diff([]string{"golang.go", "saoudrizwan.claude-dev"}, inv.VSCode.Recommended); diff != "" {
		t.Errorf("recommended (-want +got)\n%s", diff)
	}
	wantMarkers := []string{filepath.Join(root, ".roo"), filepath.Join(root, ".github", "copilot-instructions.md"), filepath.Join(root, "CLAUDE.md")}
	if diff := cmp.Diff(wantMarkers, inv.AgentConfigs); diff != "" {
		t.Errorf("agent_configs (-want +got)\n%s", diff)
	}
	if len(inv.MCP) != 1 || inv.MCP[0].File != filepath.Join(root, ".mcp.json") || len(inv.MCP[0].Servers) != 1 || inv.MCP[0].Servers[0].Name != "docs" {
		t.Errorf("mcp = %+v", inv.MCP)
	}
	wantWarnings := []string{}
	if linked {
		wantWarnings = append(wantWarnings, "project path crosses a symbolic link or reparse point: "+filepath.Join(root, ".agents"))
	}
	if diff := cmp.Diff(wantWarnings, inv.Warnings); diff != "" {
		t.Errorf("warnings (-want +got)\n%s", diff)
	}
	if inv.HostInventoryIncluded || len(inv.ClaudePlugins) != 0 || inv.CodexPlugins != nil || inv.Packages.Queried ||
		m["inventory"].(map[string]any)["codex_plugins"] != nil {
		t.Errorf("host inventory in a project-only scan: %+v", inv)
	}
	if b, _ := json.Marshal(m); strings.Contains(string(b), `"command":`) {
		t.Errorf("raw MCP values in result")
	}
}

func TestUnreadableProjectPartsAreWarnings(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(root, ".vscode", "extensions.json"), `{"recommendations": [`)
	testkit.WriteFile(t, filepath.Join(root, ".mcp.json"), `[]`)
	out, _ := run(t, envFor(root, "claude", nil), In{}, forbidden(t))
	want := []string{"Could not parse " + filepath.Join(root, ".vscode", "extensions.json") + ": invalid JSON: unexpected end of input at line 1, column 22"}
	if diff := cmp.Diff(want, out.Inventory.Warnings); diff != "" {
		t.Errorf("warnings (-want +got)\n%s", diff)
	}
	if len(out.Inventory.MCP) != 1 || out.Inventory.MCP[0].Error != "root JSON value is not an object" || out.Status.Status != "ok" {
		t.Errorf("mcp = %+v status %s", out.Inventory.MCP, out.Status.Status)
	}
}

func TestInvalidInput(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	out, m := run(t, envFor(root, "claude", nil), In{IncludePackages: true}, forbidden(t))
	want := map[string]any{"status": "invalid_input", "error": "include_packages requires include_host=true", "execution_started": false}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	_ = out
	// The project argument is bound by the pipeline before the scan.
	m, _ = mcptest.Call(t, New(forbidden(t)), envFor(root, "claude", nil), tools.Args{"cwd": filepath.Join(root, "nope")})
	if m["status"] != "invalid_input" || m["error"] != "Not a directory: "+filepath.Join(root, "nope") || m["inventory"] != nil {
		t.Errorf("got %+v", m)
	}
}

func TestHostScan(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	home := testkit.TempDir(t)
	testkit.WriteFile(t, filepath.Join(home, ".claude", "plugins", "zeta", "plugin.json"), "{}")
	testkit.WriteFile(t, filepath.Join(home, ".claude", "plugins", "alpha", "plugin.json"), "{}")
	testkit.WriteFile(t, filepath.Join(home, ".claude", "plugins", "config.json"), "{}")
	testkit.WriteFile(t, filepath.Join(home, ".claude.json"), `{"mcpServers":{"h":{"url":"x"}}}`)
	code := filepath.Join(home, "bin", "code")
	winget := filepath.Join(home, "bin", "winget.exe")
	var lines []string
	for i := 0; i < 350; i++ {
		lines = append(lines, fmt.Sprintf("Pkg%03d  Id.%03d  1.0  winget", i, i))
	}
	rec := &recorder{
		paths: map[string]string{"code": code, "winget": winget},
		receipts: map[string]proc.Receipt{
			"code":   ok("GitHub.copilot\r\nms-python.python\n\nRooVeterinaryInc.roo-cline\nContinue.continue\n"),
			"winget": ok("\r-\r\\\r \rName  Id  Version  Source\n\n" + strings.Join(lines, "\r\n") + "\n"),
		},
	}
	out, m := run(t, envFor(root, "claude", map[string]string{"HOME": home}), In{IncludeHost: true, IncludePackages: true}, rec.deps())
	inv := out.Inventory
	if !out.ExecutionStarted || m["execution_started"] != true || !inv.HostInventoryIncluded {
		t.Errorf("execution_started/host flags: %+v", out.Status)
	}
	if diff := cmp.Diff([]string{"GitHub.copilot", "ms-python.python", "RooVeterinaryInc.roo-cline", "Continue.continue"}, inv.VSCode.Installed); diff != "" {
		t.Errorf("installed (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"GitHub.copilot", "RooVeterinaryInc.roo-cline", "Continue.continue"}, inv.OverlapHints); diff != "" {
		t.Errorf("overlap_hints (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"alpha", "config.json", "zeta"}, inv.ClaudePlugins); diff != "" {
		t.Errorf("claude_plugins (-want +got)\n%s", diff)
	}
	if !inv.Packages.Queried || len(inv.Packages.Items) != MaxPackageLines || inv.Packages.Items[0] != "Name  Id  Version  Source" ||
		inv.Packages.Items[299] != "Pkg298  Id.298  1.0  winget" {
		t.Errorf("packages: queried=%v n=%d first=%q", inv.Packages.Queried, len(inv.Packages.Items), inv.Packages.Items[:1])
	}
	if len(inv.Warnings) != 0 || inv.CodexPlugins != nil {
		t.Errorf("warnings %v codex %v", inv.Warnings, inv.CodexPlugins)
	}
	if len(inv.MCP) != 1 || inv.MCP[0].File != filepath.Join(home, ".claude.json") {
		t.Errorf("host MCP configs: %+v", inv.MCP)
	}
	wantRuns := []proc.Request{
		// Each program runs in its own directory, never the project.
		{Argv: []string{code, "--list-extensions"}, Dir: filepath.Dir(code), Timeout: CodeTimeout},
		{Argv: []string{winget, "list", "--source", "winget", "--disable-interactivity"}, Dir: filepath.Dir(winget), Timeout: WingetTimeout, StdoutLimit: 64 * 1024},
	}
	if diff := cmp.Diff(wantRuns, rec.runs); diff != "" {
		t.Errorf("runs (-want +got)\n%s", diff)
	}
	if CodeTimeout.Seconds() != 20 || WingetTimeout.Seconds() != 90 {
		t.Errorf("timeouts %v %v", CodeTimeout, WingetTimeout)
	}
}

func TestHostEvidenceIntegrity(t *testing.T) {
	t.Parallel()
	truncated := ok("a.b\nc.d\n")
	truncated.StdoutTruncated = true
	unsettled := ok("a.b\n")
	unsettled.OutputCaptureSettled = false
	incomplete := ok("a.b\n")
	incomplete.OutputCaptureComplete = false
	rc := 1
	failed := proc.Receipt{ReturnCode: &rc, ExecutionStarted: true, OutputCaptureComplete: true, OutputCaptureSettled: true, Stdout: "a.b\n"}
	timedOut := proc.Receipt{ExecutionStarted: true, TimedOut: true, Stdout: "a.b\n"}
	notStarted := proc.Receipt{Error: "identity_unavailable"}
	tests := []struct {
		name        string
		code, wg    *proc.Receipt
		warnings    []string
		installed   int
		items       int
		started     bool
		wingetFound bool
	}{
		{"code truncated", &truncated, nil, []string{WarnCodeIncomplete, WarnWingetMissing}, 0, 0, true, false},
		{"code unsettled", &unsettled, nil, []string{WarnCodeIncomplete, WarnWingetMissing}, 0, 0, true, false},
		{"code incomplete", &incomplete, nil, []string{WarnCodeIncomplete, WarnWingetMissing}, 0, 0, true, false},
		{"code failed", &failed, nil, []string{WarnCodeFailed, WarnWingetMissing}, 0, 0, true, false},
		{"code timed out", &timedOut, nil, []string{WarnCodeFailed, WarnWingetMissing}, 0, 0, true, false},
		{"code missing, winget truncated", nil, &truncated, []string{WarnCodeMissing, WarnWingetIncomplete}, 0, 0, true, true},
		{"winget failed", nil, &failed, []string{WarnCodeMissing, WarnWingetFailed}, 0, 0, true, true},
		{"winget not started", nil, &notStarted, []string{WarnCodeMissing, WarnWingetFailed}, 0, 0, false, true},
		{"winget ok", nil, ptr(ok("Name Id\nA a\n")), []string{WarnCodeMissing}, 0, 2, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{paths: map[string]string{}, receipts: map[string]proc.Receipt{}}
			if tt.code != nil {
				rec.paths["code"], rec.receipts["code"] = "/bin/code", *tt.code
			}
			if tt.wingetFound {
				rec.paths["winget"], rec.receipts["winget"] = "/bin/winget", *tt.wg
			}
			out, _ := run(t, envFor(testkit.TempDir(t), "claude", nil), In{IncludeHost: true, IncludePackages: true}, rec.deps())
			inv := out.Inventory
			if diff := cmp.Diff(tt.warnings, inv.Warnings); diff != "" {
				t.Errorf("warnings (-want +got)\n%s", diff)
			}
			if len(inv.VSCode.Installed) != tt.installed || len(inv.Packages.Items) != tt.items || out.ExecutionStarted != tt.started {
				t.Errorf("installed=%v items=%v started=%v", inv.VSCode.Installed, inv.Packages.Items, out.ExecutionStarted)
			}
			if !inv.Packages.Queried || out.Status.Status != "ok" {
				t.Errorf("queried=%v status=%s", inv.Packages.Queried, out.Status.Status)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestCodexPlugins(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	home := testkit.TempDir(t)
	codexHome := filepath.Join(home, "cx")
	for _, d := range []string{"plugins/mine", "plugins/other", "plugins/data/windows-dev-agent", "plugins/cache/openai-curated/x", "plugins/cache/team"} {
		os.MkdirAll(filepath.Join(codexHome, filepath.FromSlash(d)), 0o755)
	}
	testkit.WriteFile(t, filepath.Join(codexHome, "plugins", "notes.txt"), "")
	testkit.WriteFile(t, filepath.Join(codexHome, "config.toml"), "[mcp_servers.cx]\ncommand = 'c'\n")
	rec := &recorder{paths: map[string]string{}}
	vars := map[string]string{"HOME": home, "CODEX_HOME": codexHome}

	out, m := run(t, envFor(root, "codex", vars), In{IncludeHost: true}, rec.deps())
	cfg := filepath.Join(codexHome, "config.toml")
	want := &CodexPlugins{Root: filepath.Join(codexHome, "plugins"), Personal: []string{"mine", "other"},
		CacheMarketplaces: []string{"openai-curated", "team"}, ConfigFile: &cfg}
	if diff := cmp.Diff(want, out.Inventory.CodexPlugins); diff != "" {
		t.Errorf("codex_plugins (-want +got)\n%s", diff)
	}
	if len(out.Inventory.MCP) != 1 || out.Inventory.MCP[0].File != cfg {
		t.Errorf("codex config.toml not summarised: %+v", out.Inventory.MCP)
	}
	if _, ok := m["inventory"].(map[string]any)["codex_plugins"].(map[string]any)["config_file"]; !ok {
		t.Error("config_file must be present")
	}

	// Claude host: never added.
	out, _ = run(t, envFor(root, "claude", vars), In{IncludeHost: true}, rec.deps())
	if out.Inventory.CodexPlugins != nil {
		t.Error("codex_plugins on a Claude host")
	}

	// No Codex folders at all: empty lists and a null config_file.
	empty, warnings := CodexPluginsAt(filepath.Join(home, "none"))
	_, m = run(t, envFor(root, "codex", map[string]string{"CODEX_HOME": filepath.Join(home, "none")}), In{IncludeHost: true}, rec.deps())
	cp := m["inventory"].(map[string]any)["codex_plugins"].(map[string]any)
	if cp["config_file"] != nil || len(warnings) != 0 || len(empty.Personal) != 0 || len(empty.CacheMarketplaces) != 0 {
		t.Errorf("empty codex home: %v %v", cp, warnings)
	}
}

// TestSwapRaceNeverReadsOutside: cwd names a subdirectory that another goroutine swaps
// for a link to an outside directory holding planted configs and markers while each
// call runs, after the call was bound as the pipeline binds it. Nothing planted outside
// ever appears (issue 15, item 1; before the reads went through the held directory,
// 146 of 200 calls read outside).
func TestSwapRaceNeverReadsOutside(t *testing.T) {
	t.Parallel()
	base := testkit.TempDir(t)
	root, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
	sub := filepath.Join(root, "sub")
	testkit.WriteFile(t, filepath.Join(sub, ".mcp.json"), `{"mcpServers":{"inside":{"command":"x"}}}`)
	testkit.WriteFile(t, filepath.Join(sub, ".vscode", "extensions.json"), `{"recommendations":["inside.ext"]}`)
	testkit.WriteFile(t, filepath.Join(outside, ".mcp.json"), `{"mcpServers":{"OUTSIDE-MARKER":{"command":"x"}}}`)
	testkit.WriteFile(t, filepath.Join(outside, ".vscode", "extensions.json"), `{"recommendations":["OUTSIDE-MARKER"]}`)
	testkit.WriteFile(t, filepath.Join(outside, "CLAUDE.md"), "planted")
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
			out, _ := scan(context.Background(), env, In{Cwd: p.Path}, forbidden(t))
			b, _ = json.Marshal(out)
		})
		p.Close()
		if strings.Contains(string(b), "OUTSIDE-MARKER") || strings.Contains(string(b), "CLAUDE.md") {
			leaks++
		}
	}
	if leaks > 0 {
		t.Errorf("%d of %d calls read the outside directory", leaks, runs)
	}
}

// TestInventorySaysNothingEmpty: an empty list, host_inventory_included false and
// packages not asked for are left out of the result (issue 24), and decoding the
// inventory gives them back as the arrays they are.
func TestInventorySaysNothingEmpty(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	_, b := mcptest.Call(t, New(forbidden(t)), envFor(root, "claude", nil), tools.Args{})
	q, _ := json.Marshal(root)
	if want := `{"status":"ok","execution_started":false,"inventory":{"project_root":` + string(q) + `}}`; string(b) != want {
		t.Errorf("empty project:\n got %s\nwant %s", b, want)
	}
	var out Out
	if err := json.Unmarshal(b, &out); err != nil || out.Inventory == nil {
		t.Fatalf("decoded %v (%v)", out, err)
	}
	inv := out.Inventory
	for _, l := range [][]string{inv.VSCode.Recommended, inv.VSCode.Installed, inv.AgentConfigs, inv.ClaudePlugins, inv.Packages.Items, inv.Warnings, inv.OverlapHints} {
		if l == nil {
			t.Errorf("a list decoded as null: %+v", inv)
		}
	}
	if inv.MCP == nil || inv.Packages.Queried || inv.HostInventoryIncluded {
		t.Errorf("decoded %+v", inv)
	}
}
